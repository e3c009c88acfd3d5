#pragma once
// Two random sources with different jobs, kept apart so that experiment randomness (initial
// designs, synthetic data) can never be confused with privacy noise.
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include <armadillo>

namespace dpbo {

// Reproducible randomness for everything that is not privacy noise.
class ExperimentRng {
public:
    explicit ExperimentRng(std::uint64_t seed);
    std::uint64_t seed() const { return seed_; }
    std::mt19937_64& engine() { return engine_; }
    double uniform();  // [0, 1)
    double normal();   // N(0, 1)
    arma::mat uniform(std::size_t rows, std::size_t cols);
    arma::mat normal(std::size_t rows, std::size_t cols);
    std::size_t index(std::size_t count);  // uniform in [0, count)
    // An independent child seed, so sub-components are reproducible without sharing a stream.
    std::uint64_t derive_seed();

private:
    std::uint64_t seed_;
    std::mt19937_64 engine_;
};

// ChaCha20 keystream (libsodium's): the random bits behind every privacy-noise draw. Keyed from the
// operating system's CSPRNG (getrandom) unless the user gives a seed, in which case the run is
// reproducible and its result says that the noise must not be relied on for a real release.
// It hands out bits only: noise is drawn from them by the exact samplers of
// <dpbo/privacy/secure_sampling.hpp>, never by floating-point transforms of uniforms.
class PrivacyNoiseSource {
public:
    static PrivacyNoiseSource from_os();
    static PrivacyNoiseSource from_seed(std::uint64_t seed);
    // An explicit 256-bit key: for known-answer tests against RFC 8439 and for callers that
    // manage their own keys. Counted as user-seeded (the key is not fresh from the OS).
    static PrivacyNoiseSource from_key(const std::array<std::uint32_t, 8>& key);

    bool seeded_by_user() const { return user_seed_.has_value(); }
    std::optional<std::uint64_t> user_seed() const { return user_seed_; }
    std::string describe() const;

    // The next 64 keystream bits: bytes 8i .. 8i + 7 of the stream, read little-endian.
    std::uint64_t next_u64();

    // Stream `number` of the same key (ChaCha20's 64-bit nonce; this source is stream 0), from its
    // start. The ledger draws each release's noise from its own stream, so a release a resumed run
    // takes from its journal, drawing nothing, leaves the noise of every later release unchanged.
    PrivacyNoiseSource stream(std::uint64_t number) const;
    // A source keyed by the next 256 bits of this one's keystream, for a consumer that numbers
    // streams of its own (the ledger): consumers sharing one source (an audit's many runs) never
    // draw the same bits. It counts as user-seeded when this one does.
    PrivacyNoiseSource derive();

private:
    PrivacyNoiseSource(const std::array<std::uint32_t, 8>& key, std::optional<std::uint64_t> seed);
    void refill();

    // Several blocks per call into libsodium, so its per-call cost is shared across many draws.
    static constexpr std::size_t kBlocksPerRefill = 16;
    std::array<unsigned char, 32> key_{};
    std::uint64_t nonce_ = 0;
    std::uint64_t next_block_ = 0;  // the RFC 8439 block counter of the next refill
    std::array<std::uint64_t, kBlocksPerRefill * 8> buffer_{};
    std::size_t used_ = kBlocksPerRefill * 8;
    std::optional<std::uint64_t> user_seed_;
};

// The seed of part `index` (a batch, a slice of one) of something seeded with `seed`: distinct
// parts get unrelated seeds (splitmix64 finalisation of both).
std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t index);

// A seed from the operating system's CSPRNG (for experiment seeds when the user gives none).
std::uint64_t os_random_u64();

}  // namespace dpbo
