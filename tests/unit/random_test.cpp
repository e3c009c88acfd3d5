#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include <sodium.h>

#include "dpbo/random.hpp"

TEST_CASE("privacy noise: ChaCha20 keystream matches RFC 8439 appendix A.1, test vector 1") {
    // All-zero key, nonce and counter: the keystream starts 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 ...
    auto noise = dpbo::PrivacyNoiseSource::from_key({});
    CHECK(noise.next_u64() == 0x903df1a0ade0b876ULL);
    CHECK(noise.next_u64() == 0xe56a5d40ULL + (0x28bd8653ULL << 32));
}

TEST_CASE("privacy noise: seeded sources are reproducible and say so, OS-keyed sources differ") {
    auto a = dpbo::PrivacyNoiseSource::from_seed(7);
    auto b = dpbo::PrivacyNoiseSource::from_seed(7);
    auto c = dpbo::PrivacyNoiseSource::from_seed(8);
    const std::uint64_t first = a.next_u64();
    CHECK(first == b.next_u64());
    CHECK(first != c.next_u64());
    CHECK(a.seeded_by_user());
    CHECK(a.describe().find("seed 7") != std::string::npos);

    auto os1 = dpbo::PrivacyNoiseSource::from_os();
    auto os2 = dpbo::PrivacyNoiseSource::from_os();
    CHECK_FALSE(os1.seeded_by_user());
    CHECK(os1.describe().find("CSPRNG") != std::string::npos);
    // Two fresh 256-bit keys collide with probability 2^-256.
    CHECK(os1.next_u64() != os2.next_u64());
}

TEST_CASE("privacy noise: the keystream continues across libsodium refills as one ChaCha20 stream") {
    // RFC 8439 appendix A.1, test vector 2 is block 1 of the all-zero key: its first words are
    // 9f 07 e7 be 55 51 38 7a ... The source buffers several blocks per refill; reading past the
    // first buffer must land on the blocks that follow, not on a restarted stream.
    auto noise = dpbo::PrivacyNoiseSource::from_key({});
    for (int i = 0; i < 8; ++i) noise.next_u64();  // block 0
    CHECK(noise.next_u64() == 0x7a385155bee7079fULL);

    // Several refills against one long keystream computed in a single libsodium call.
    const std::array<std::uint32_t, 8> key = {1, 2, 3, 4, 5, 6, 7, 0xdeadbeef};
    std::array<unsigned char, 32> key_bytes{};
    for (std::size_t i = 0; i < 32; ++i) key_bytes[i] = static_cast<unsigned char>(key[i / 4] >> (8 * (i % 4)));
    std::vector<unsigned char> stream(8 * 1000);
    const std::array<unsigned char, crypto_stream_chacha20_NONCEBYTES> nonce{};
    REQUIRE(sodium_init() >= 0);
    crypto_stream_chacha20(stream.data(), stream.size(), nonce.data(), key_bytes.data());
    auto keyed = dpbo::PrivacyNoiseSource::from_key(key);
    for (std::size_t i = 0; i < 1000; ++i) {
        std::uint64_t expected = 0;
        for (std::size_t b = 0; b < 8; ++b) expected |= std::uint64_t{stream[8 * i + b]} << (8 * b);
        CAPTURE(i);
        REQUIRE(keyed.next_u64() == expected);
    }
}

TEST_CASE("experiment rng: reproducible from its seed, independent of privacy noise") {
    dpbo::ExperimentRng a(3), b(3);
    CHECK(arma::approx_equal(a.uniform(4, 3), b.uniform(4, 3), "absdiff", 0.0));
    CHECK(a.derive_seed() == b.derive_seed());
    CHECK(a.seed() == 3);
    CHECK_THROWS(a.index(0));
}
