// The statistics of `dpbo audit` (apps/dpbo/audit): Clopper–Pearson bounds, the bounds on ε and μ
// they give, the release features and the distinguishers learnt from samples. Every random test
// fixes its seed; its tolerance follows from the distribution of the statistic.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "audit/audit_claim.hpp"
#include "audit/audit_statistics.hpp"
#include "audit/clopper_pearson.hpp"
#include "audit/privacy_bound.hpp"
#include "audit/release_features.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/random.hpp"

namespace {

using namespace dpbo::audit;

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The ε lower bound of two binomial counts drawn with probabilities p and q.
PrivacyLowerBound bernoulli_bound(double p, double q, std::size_t n, std::mt19937_64& engine, double alpha) {
    std::binomial_distribution<std::size_t> in_p(n, p), in_q(n, q);
    return privacy_lower_bound({in_p(engine), n, in_q(engine), n}, 0.0, alpha);
}

}  // namespace

TEST_CASE("audit: Clopper–Pearson bounds match published values") {
    // R: binom.test(5, 20)$conf.int = 0.08657147 0.49104587 (two-sided 95%: one-sided 2.5% each).
    CHECK(clopper_pearson_lower(5, 20, 0.025) == doctest::Approx(0.08657147).epsilon(1e-6));
    CHECK(clopper_pearson_upper(5, 20, 0.025) == doctest::Approx(0.49104587).epsilon(1e-6));
    // R: binom.test(50, 100)$conf.int = 0.3983211 0.6016789.
    CHECK(clopper_pearson_lower(50, 100, 0.025) == doctest::Approx(0.3983211).epsilon(1e-6));
    CHECK(clopper_pearson_upper(50, 100, 0.025) == doctest::Approx(0.6016789).epsilon(1e-6));
    // The closed forms at the edges: 0 of n and n of n.
    CHECK(clopper_pearson_upper(0, 10, 0.05) == doctest::Approx(1.0 - std::pow(0.05, 0.1)).epsilon(1e-12));
    CHECK(clopper_pearson_lower(10, 10, 0.05) == doctest::Approx(std::pow(0.05, 0.1)).epsilon(1e-12));
    CHECK(clopper_pearson_lower(0, 10, 0.05) == 0.0);
    CHECK(clopper_pearson_upper(10, 10, 0.05) == 1.0);
    CHECK_THROWS_AS(clopper_pearson_lower(11, 10, 0.05), dpbo::RunError);
    CHECK_THROWS_AS(clopper_pearson_upper(1, 0, 0.05), dpbo::RunError);
}

TEST_CASE("audit: the ε bound of two Bernoulli streams stays below the true log-ratio and comes close to it") {
    // p = 0.3 against q = 0.1: the best event's true ε is ln 3. With each bound at level 0.025 the
    // bound exceeds ln 3 with probability at most 0.05, so of 200 independent audits at most
    // 25 may (the binomial(200, 0.05) tail beyond 25 is below 1e-5). At n = 20000 the bounds sit
    // about two standard errors inside: ln 3 − 0.07 in expectation.
    std::mt19937_64 engine(20240611);
    const double truth = std::log(3.0);
    int above = 0;
    double sum = 0.0;
    for (int audit = 0; audit < 200; ++audit) {
        const PrivacyLowerBound bound = bernoulli_bound(0.3, 0.1, 20000, engine, 0.025);
        above += bound.epsilon > truth;
        sum += bound.epsilon;
    }
    CHECK(above <= 25);
    CHECK(sum / 200.0 > truth - 0.15);
    CHECK(sum / 200.0 < truth);

    // μ: q = 0.1 and p = Φ(Φ⁻¹(q) + 1) are what 1-GDP allows at its limit; μ's bound stays below 1.
    const double p = 0.5 * std::erfc(-(-1.2815515655446004 + 1.0) / std::sqrt(2.0));
    int mu_above = 0;
    for (int audit = 0; audit < 200; ++audit) mu_above += bernoulli_bound(p, 0.1, 20000, engine, 0.025).mu > 1.0;
    CHECK(mu_above <= 25);
}

TEST_CASE("audit: a perfect distinguisher's bound is what the sample size allows") {
    const PrivacyLowerBound perfect = largest_detectable(50000, 0.0, 0.05 / 16.0);
    // q_hi = 1 − α^{1/n} ≈ −ln α / n: ε ≈ ln(n / −ln α) = ln(50000 / 5.77) ≈ 9.07.
    CHECK(perfect.epsilon == doctest::Approx(std::log(50000.0 / -std::log(0.05 / 16.0))).epsilon(1e-3));
    // With δ the bound subtracts it from p first, and is 0 once p_lo ≤ δ.
    CHECK(privacy_lower_bound({1, 100, 0, 100}, 0.5, 0.05).epsilon == 0.0);
}

TEST_CASE("audit: release features read the IEEE-754 representation") {
    const Feature grid{FeatureKind::FinestGrid, 0};
    CHECK(grid.of(1.0) == 0.0);
    CHECK(grid.of(0.75) == -2.0);
    CHECK(grid.of(3.0 * std::ldexp(1.0, -60)) == -60.0);
    CHECK(grid.of(12.0) == 2.0);
    CHECK(grid.of(std::ldexp(1.0, -1074)) == -1074.0);  // the smallest subnormal
    CHECK(grid.of(0.0) != grid.of(1.0));
    const Feature low3{FeatureKind::LowBits, 3};
    CHECK(low3.of(1.0 + std::ldexp(5.0, -52)) == 5.0);
    CHECK(low3.of(1.0 + std::ldexp(13.0, -52)) == 5.0);
    const Feature zeros{FeatureKind::TrailingZeros, 0};
    CHECK(zeros.of(1.5) == 51.0);
    CHECK(zeros.of(1.0) == 52.0);
    CHECK(Feature{FeatureKind::Exponent, 0}.of(1.0) == 1023.0);
    CHECK(audited_features().size() == 20);
}

TEST_CASE("audit: a threshold distinguisher finds a shifted distribution, within what its μ allows") {
    // round(1024·z)/1024 for z ~ N(0, 1) against z ~ N(1, 1): one function of each of two
    // distributions that are exactly 1-GDP apart, so the bound on μ must be positive and, at 95%
    // confidence, not above 1. Both worlds lie on the grid 2^-10, so only their values differ.
    dpbo::ExperimentRng rng(7);
    const arma::mat first = arma::round(1024.0 * rng.normal(40000, 1)) / 1024.0;
    const arma::mat second = arma::round(1024.0 * (rng.normal(40000, 1) + 1.0)) / 1024.0;
    StatisticsSettings settings;
    settings.delta = 1e-5;
    settings.gdp = true;
    const AuditStatistics statistics = audit_statistics(first, second, {"x"}, settings);
    CAPTURE(statistics.mu_finding().distinguisher.event.description);
    CHECK(statistics.mu_finding().bound.mu > 0.7);
    CHECK(statistics.mu_finding().bound.mu <= 1.0);
    CHECK(statistics.evaluation_samples == 20000);
}

TEST_CASE("audit: adding the input in floating point leaks through the representation (Mironov 2012)") {
    // The same two worlds without rounding: z and fl(z + 1). The sum's low bits and grid depend on
    // the 1 that was added — a result below 1/2 in magnitude lies on 2^-53·ℤ in the second world
    // only — and the audit sees far more than the 1-GDP the values alone carry.
    dpbo::ExperimentRng rng(7);
    const arma::mat first = rng.normal(40000, 1);
    const arma::mat second = rng.normal(40000, 1) + 1.0;
    StatisticsSettings settings;
    settings.delta = 1e-5;
    settings.gdp = true;
    const AuditStatistics statistics = audit_statistics(first, second, {"x"}, settings);
    CAPTURE(statistics.mu_finding().distinguisher.event.description);
    CHECK(statistics.mu_finding().bound.mu > 2.0);
    CHECK_FALSE(mentions(statistics.mu_finding().distinguisher.event.description, "value"));
}

TEST_CASE("audit: representation distinguishers find a difference no value threshold can see") {
    // Both worlds are uniform on a grid of 2^-20 in [0, 1); the second is shifted by 2^-40, far below
    // any threshold's resolution at these sizes, but its low bits and grid differ in every release.
    std::mt19937_64 engine(11);
    std::uniform_int_distribution<std::int64_t> index(0, (std::int64_t{1} << 20) - 1);
    arma::mat first(20000, 2), second(20000, 2);
    for (arma::uword i = 0; i < first.n_rows; ++i) {
        first(i, 0) = std::ldexp(static_cast<double>(index(engine)), -20);
        second(i, 0) = std::ldexp(static_cast<double>(index(engine)), -20) + std::ldexp(1.0, -40);
        first(i, 1) = second(i, 1) = 0.5;  // a constant coordinate: skipped
    }
    const AuditStatistics statistics = audit_statistics(first, second, {"x", "constant"}, StatisticsSettings{});
    CHECK(statistics.varying_coordinates == 1);
    const Finding& best = statistics.epsilon_finding();
    CAPTURE(best.distinguisher.event.description);
    CHECK_FALSE(mentions(best.distinguisher.event.description, "value"));
    // A perfect split of 10000 evaluation releases per world: ε ≥ ln(10000 / −ln(0.05/8)) ≈ 7.5.
    CHECK(best.bound.epsilon > 7.0);
    CHECK(best.bound.epsilon <= statistics.detectable.epsilon);
}

TEST_CASE("audit: identical worlds give no positive bound") {
    // Each bound holds with probability ≥ 0.95, so a positive ε here has probability ≤ 0.05; the
    // seed is fixed.
    dpbo::ExperimentRng rng(3);
    const AuditStatistics statistics =
        audit_statistics(rng.normal(20000, 2), rng.normal(20000, 2), {"a", "b"}, StatisticsSettings{});
    CHECK(statistics.epsilon_finding().bound.epsilon == 0.0);
}

TEST_CASE("audit: claims at the audit's δ, and statements that cannot be audited") {
    const AuditClaim gdp = audit_claim(dpbo::PrivacyStatement::gaussian_dp(1.0), 1e-5, "mechanism 'x'");
    REQUIRE(gdp.mu);
    CHECK(*gdp.mu == 1.0);
    CHECK(gdp.epsilon == doctest::Approx(4.4).epsilon(0.01));
    CHECK(gdp.delta == 1e-5);
    CHECK(refutes(gdp, 4.5, 0.0));
    CHECK(refutes(gdp, 0.0, 1.1));
    CHECK_FALSE(refutes(gdp, 4.3, 0.9));
    const AuditClaim approx = audit_claim(dpbo::PrivacyStatement::approx_dp(1.0, 1e-6), 1e-5, "x");
    CHECK(approx.delta == 1e-6);
    CHECK(audit_claim(dpbo::PrivacyStatement::pure_dp(2.0), 1e-5, "x").delta == 0.0);
    try {
        audit_claim(dpbo::PrivacyStatement::not_private({"everything"}, "no noise"), 1e-5, "algorithm 'random-search'");
        FAIL("a statement claiming nothing was audited");
    } catch (const dpbo::ValidationError& e) {
        CHECK(mentions(e.what(), "algorithm 'random-search'"));
        CHECK(mentions(e.what(), "no privacy claim"));
    }
}
