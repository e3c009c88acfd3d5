#include "dpbo/random.hpp"

#include <sys/random.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <sodium.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void fill_from_os(void* buffer, std::size_t size) {
    auto* bytes = static_cast<unsigned char*>(buffer);
    std::size_t filled = 0;
    while (filled < size) {
        const ssize_t got = getrandom(bytes + filled, size - filled, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw RunError(
                fmt::format("cannot read the operating system's random source (getrandom: {}); "
                            "privacy noise cannot be generated securely",
                            std::strerror(errno)));
        }
        filled += static_cast<std::size_t>(got);
    }
}

// libsodium picks its fastest ChaCha20 implementation for this CPU in sodium_init(); before that it
// would run the portable one. Thread-safe and idempotent, so every source may call it.
void init_sodium() {
    if (sodium_init() < 0) {
        throw RunError("libsodium failed to initialise (sodium_init); privacy noise cannot be generated");
    }
}

}  // namespace

std::uint64_t os_random_u64() {
    std::uint64_t value = 0;
    fill_from_os(&value, sizeof value);
    return value;
}

ExperimentRng::ExperimentRng(std::uint64_t seed) : seed_(seed), engine_(seed) {}

double ExperimentRng::uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }

double ExperimentRng::normal() { return std::normal_distribution<double>(0.0, 1.0)(engine_); }

arma::mat ExperimentRng::uniform(std::size_t rows, std::size_t cols) {
    arma::mat out(rows, cols);
    out.imbue([this] { return uniform(); });
    return out;
}

arma::mat ExperimentRng::normal(std::size_t rows, std::size_t cols) {
    arma::mat out(rows, cols);
    std::normal_distribution<double> dist(0.0, 1.0);
    out.imbue([&] { return dist(engine_); });
    return out;
}

std::size_t ExperimentRng::index(std::size_t count) {
    if (count == 0) throw RunError("ExperimentRng::index: cannot draw from an empty range");
    return std::uniform_int_distribution<std::size_t>(0, count - 1)(engine_);
}

std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t index_state = index;
    std::uint64_t state = seed ^ splitmix64(index_state);
    return splitmix64(state);
}

std::uint64_t ExperimentRng::derive_seed() {
    std::uint64_t state = engine_();
    return splitmix64(state);
}

PrivacyNoiseSource::PrivacyNoiseSource(const std::array<std::uint32_t, 8>& key, std::optional<std::uint64_t> seed)
    : user_seed_(seed) {
    init_sodium();
    // RFC 8439 reads the key as eight little-endian words; libsodium takes the same 32 bytes.
    for (std::size_t i = 0; i < 8; ++i) {
        for (std::size_t b = 0; b < 4; ++b) key_[4 * i + b] = static_cast<unsigned char>(key[i] >> (8 * b));
    }
}

PrivacyNoiseSource PrivacyNoiseSource::from_os() {
    std::array<std::uint32_t, 8> key{};
    fill_from_os(key.data(), sizeof key);
    return PrivacyNoiseSource(key, std::nullopt);
}

PrivacyNoiseSource PrivacyNoiseSource::from_seed(std::uint64_t seed) {
    std::array<std::uint32_t, 8> key{};
    std::uint64_t state = seed ^ 0x6E6F697365ULL;  // keeps noise streams apart from experiment streams
    for (std::size_t i = 0; i < 8; i += 2) {
        const std::uint64_t word = splitmix64(state);
        key[i] = static_cast<std::uint32_t>(word);
        key[i + 1] = static_cast<std::uint32_t>(word >> 32);
    }
    return PrivacyNoiseSource(key, seed);
}

PrivacyNoiseSource PrivacyNoiseSource::from_key(const std::array<std::uint32_t, 8>& key) {
    return PrivacyNoiseSource(key, 0);
}

std::string PrivacyNoiseSource::describe() const {
    if (user_seed_)
        return fmt::format("ChaCha20 keyed from the user's seed {} (reproducible; not for releasing real data)",
                           *user_seed_);
    return "ChaCha20 keyed from the operating system's CSPRNG (getrandom)";
}

void PrivacyNoiseSource::refill() {
    // The original ChaCha20 layout: 64-bit block counter, 64-bit nonce (the stream number, read
    // little-endian; 0 for a source as created). XOR into zeros is the keystream itself.
    std::array<unsigned char, crypto_stream_chacha20_NONCEBYTES> nonce{};
    for (std::size_t b = 0; b < nonce.size(); ++b) nonce[b] = static_cast<unsigned char>(nonce_ >> (8 * b));
    auto* bytes = reinterpret_cast<unsigned char*>(buffer_.data());
    const std::size_t size = sizeof buffer_;
    std::memset(bytes, 0, size);
    crypto_stream_chacha20_xor_ic(bytes, bytes, size, nonce.data(), next_block_, key_.data());
    next_block_ += kBlocksPerRefill;
    // Words are read little-endian whatever the host's byte order.
    if constexpr (std::endian::native == std::endian::big) {
        for (auto& word : buffer_) word = __builtin_bswap64(word);
    }
    used_ = 0;
}

PrivacyNoiseSource PrivacyNoiseSource::stream(std::uint64_t number) const {
    PrivacyNoiseSource out = *this;
    out.nonce_ = number;
    out.next_block_ = 0;
    out.used_ = out.buffer_.size();
    return out;
}

PrivacyNoiseSource PrivacyNoiseSource::derive() {
    std::array<std::uint32_t, 8> key{};
    for (std::size_t i = 0; i < 8; i += 2) {
        const std::uint64_t word = next_u64();
        key[i] = static_cast<std::uint32_t>(word);
        key[i + 1] = static_cast<std::uint32_t>(word >> 32);
    }
    return PrivacyNoiseSource(key, user_seed_);
}

std::uint64_t PrivacyNoiseSource::next_u64() {
    if (used_ == buffer_.size()) refill();
    return buffer_[used_++];
}

}  // namespace dpbo
