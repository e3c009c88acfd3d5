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
    double uniform();                 // [0, 1)
    double normal();                  // N(0, 1)
    arma::mat uniform(std::size_t rows, std::size_t cols);
    arma::mat normal(std::size_t rows, std::size_t cols);
    std::size_t index(std::size_t count);  // uniform in [0, count)
    // An independent child seed, so sub-components are reproducible without sharing a stream.
    std::uint64_t derive_seed();

private:
    std::uint64_t seed_;
    std::mt19937_64 engine_;
};

// ChaCha20 keystream generator: the privacy-noise source. Keyed from the operating system's
// CSPRNG (getrandom) unless the user gives a seed, in which case the run is reproducible and its
// result says that the noise must not be relied on for a real release.
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

    std::uint64_t next_u64();
    double uniform_open();             // (0, 1), 53 random bits
    double gaussian();                 // N(0, 1)
    double laplace(double scale);      // Laplace(0, scale)
    arma::vec gaussian(std::size_t count, double stddev);
    arma::vec laplace(std::size_t count, double scale);

private:
    PrivacyNoiseSource(const std::array<std::uint32_t, 8>& key, std::optional<std::uint64_t> seed);
    void refill();

    std::array<std::uint32_t, 16> state_{};
    std::array<std::uint32_t, 16> block_{};
    std::size_t used_ = 16;
    std::optional<std::uint64_t> user_seed_;
    std::optional<double> spare_gaussian_;
};

// A seed from the operating system's CSPRNG (for experiment seeds when the user gives none).
std::uint64_t os_random_u64();

}  // namespace dpbo
