#include <doctest/doctest.h>

#include <cmath>

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
    const double first = a.gaussian();
    CHECK(first == b.gaussian());
    CHECK(first != c.gaussian());
    CHECK(a.seeded_by_user());
    CHECK(a.describe().find("seed 7") != std::string::npos);

    auto os1 = dpbo::PrivacyNoiseSource::from_os();
    auto os2 = dpbo::PrivacyNoiseSource::from_os();
    CHECK_FALSE(os1.seeded_by_user());
    CHECK(os1.describe().find("CSPRNG") != std::string::npos);
    // Two fresh 256-bit keys collide with probability 2^-256.
    CHECK(os1.next_u64() != os2.next_u64());
}

TEST_CASE("privacy noise: uniforms stay inside (0, 1) and have mean 1/2") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(11);
    constexpr int n = 100000;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const double u = noise.uniform_open();
        REQUIRE(u > 0.0);
        REQUIRE(u < 1.0);
        sum += u;
    }
    // Var U = 1/12; five standard errors of the mean (false failure ~6e-7).
    CHECK(std::fabs(sum / n - 0.5) < 5.0 * std::sqrt(1.0 / 12.0 / n));
}

TEST_CASE("experiment rng: reproducible from its seed, independent of privacy noise") {
    dpbo::ExperimentRng a(3), b(3);
    CHECK(arma::approx_equal(a.uniform(4, 3), b.uniform(4, 3), "absdiff", 0.0));
    CHECK(a.derive_seed() == b.derive_seed());
    CHECK(a.seed() == 3);
    CHECK_THROWS(a.index(0));
}
