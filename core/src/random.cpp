#include "dpbo/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <numbers>

#include <fmt/format.h>

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
            throw RunError(fmt::format("cannot read the operating system's random source (getrandom: {}); "
                                       "privacy noise cannot be generated securely",
                                       std::strerror(errno)));
        }
        filled += static_cast<std::size_t>(got);
    }
}

constexpr std::uint32_t rotl(std::uint32_t v, int c) { return (v << c) | (v >> (32 - c)); }

void quarter_round(std::array<std::uint32_t, 16>& x, int a, int b, int c, int d) {
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
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

std::uint64_t ExperimentRng::derive_seed() {
    std::uint64_t state = engine_();
    return splitmix64(state);
}

PrivacyNoiseSource::PrivacyNoiseSource(const std::array<std::uint32_t, 8>& key, std::optional<std::uint64_t> seed)
    : user_seed_(seed) {
    // RFC 8439 layout: constants, 256-bit key, 64-bit block counter, 64-bit nonce (zero: one
    // stream per key, and every source gets a fresh key).
    state_ = {0x61707865U, 0x3320646eU, 0x79622d32U, 0x6b206574U};
    for (std::size_t i = 0; i < 8; ++i) state_[4 + i] = key[i];
    state_[12] = state_[13] = state_[14] = state_[15] = 0;
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
    std::array<std::uint32_t, 16> x = state_;
    for (int round = 0; round < 10; ++round) {
        quarter_round(x, 0, 4, 8, 12);
        quarter_round(x, 1, 5, 9, 13);
        quarter_round(x, 2, 6, 10, 14);
        quarter_round(x, 3, 7, 11, 15);
        quarter_round(x, 0, 5, 10, 15);
        quarter_round(x, 1, 6, 11, 12);
        quarter_round(x, 2, 7, 8, 13);
        quarter_round(x, 3, 4, 9, 14);
    }
    for (std::size_t i = 0; i < 16; ++i) block_[i] = x[i] + state_[i];
    if (++state_[12] == 0) ++state_[13];
    used_ = 0;
}

std::uint64_t PrivacyNoiseSource::next_u64() {
    if (used_ + 2 > block_.size()) refill();
    const std::uint64_t low = block_[used_++];
    const std::uint64_t high = block_[used_++];
    return low | (high << 32);
}

double PrivacyNoiseSource::uniform_open() {
    // 53 random bits, shifted by half a step so neither 0 nor 1 can occur (logs stay finite).
    const std::uint64_t bits = next_u64() >> 11;
    return (static_cast<double>(bits) + 0.5) * 0x1.0p-53;
}

double PrivacyNoiseSource::gaussian() {
    if (spare_gaussian_) {
        const double value = *spare_gaussian_;
        spare_gaussian_.reset();
        return value;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform_open()));
    const double angle = 2.0 * std::numbers::pi * uniform_open();
    spare_gaussian_ = radius * std::sin(angle);
    return radius * std::cos(angle);
}

double PrivacyNoiseSource::laplace(double scale) {
    // The difference of two independent Exp(1) variables is Laplace(0, 1).
    return scale * (std::log(uniform_open()) - std::log(uniform_open()));
}

arma::vec PrivacyNoiseSource::gaussian(std::size_t count, double stddev) {
    arma::vec out(count);
    for (auto& v : out) v = stddev * gaussian();
    return out;
}

arma::vec PrivacyNoiseSource::laplace(std::size_t count, double scale) {
    arma::vec out(count);
    for (auto& v : out) v = laplace(scale);
    return out;
}

}  // namespace dpbo
