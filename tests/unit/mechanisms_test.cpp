// The gaussian and laplace mechanism plugins and the gdp accountant plugin, loaded through the
// registry as a user would load them.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/math/normal.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Raw = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Mechanism> mechanism(const std::string& name, const Raw& parameters) {
    return dpbo::test::make<dpbo::Mechanism>(name, parameters);
}

// A release as a run makes it: through a ledger whose accountant takes the mechanism's events.
arma::vec release(const dpbo::Mechanism& mechanism, const arma::vec& value, dpbo::PrivacyNoiseSource& noise) {
    auto accountant = dpbo::test::make<dpbo::Accountant>("gdp");
    if (mechanism.calibrated() && !accountant->accepts(mechanism.event()))
        accountant = dpbo::test::make<dpbo::Accountant>("basic");
    dpbo::PrivacyLedger ledger(accountant, std::nullopt, noise, "test");
    ledger.set_scope("x and x + sensitivity", "one answer");
    return mechanism.release(value, ledger, "test release");
}

double standard_normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Balle & Wang 2018, Thm 8, written out here rather than through dp_math so that the check does
// not share code with what it checks.
double analytic_gaussian_delta(double sigma, double epsilon, double sensitivity) {
    const double a = sensitivity / (2.0 * sigma);
    const double b = epsilon * sigma / sensitivity;
    return standard_normal_cdf(a - b) - std::exp(epsilon) * standard_normal_cdf(-a - b);
}

// Kolmogorov–Smirnov statistic sup_x |F_n(x) − F(x)|; the supremum is attained just before or at
// an order statistic.
template <class Cdf>
double ks_statistic(arma::vec sample, Cdf cdf) {
    std::sort(sample.begin(), sample.end());
    const double n = static_cast<double>(sample.n_elem);
    double largest = 0.0;
    for (arma::uword i = 0; i < sample.n_elem; ++i) {
        const double f = cdf(sample[i]);
        largest = std::max({largest, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
    }
    return largest;
}

// Asymptotic Kolmogorov critical value for α = 0.001: P(√n·D_n > 1.9495) ≈ 0.001 under H0.
constexpr double kKolmogorovCritical = 1.9495;

// Tolerances of k = 5 standard errors: a two-sided normal tail of 2·Φ(−5) ≈ 5.7e−7 per check.
constexpr double kStandardErrors = 5.0;

constexpr arma::uword kSamples = 40000;

}  // namespace

TEST_CASE("gaussian mechanism: mu mode sets sigma = sensitivity / mu exactly") {
    auto gaussian = mechanism("gaussian", {{"mu", "0.5"}});
    CHECK(gaussian->sensitivity_norm() == dpbo::SensitivityNorm::L2);
    CHECK_FALSE(gaussian->calibrated());
    gaussian->calibrate(1.0);
    CHECK(gaussian->calibrated());
    CHECK(gaussian->noise_scale() == 1.0 / 0.5);
    gaussian->calibrate(0.3);
    CHECK(gaussian->noise_scale() == 0.3 / 0.5);
}

TEST_CASE("gaussian mechanism: analytic calibration beats the classical sigma and is tight") {
    const double epsilon = 1.0;
    const double delta = 1e-5;
    auto gaussian = mechanism("gaussian", {{"epsilon", "1"}, {"delta", "1e-5"}});
    gaussian->calibrate(1.0);
    const double sigma = gaussian->noise_scale();
    MESSAGE("analytic Gaussian sigma for epsilon = 1, delta = 1e-5, sensitivity = 1: " << std::setprecision(17)
                                                                                       << sigma);

    // Dwork & Roth 2014, Thm A.1: σ = sqrt(2 ln(1.25/δ))·Δ/ε ≈ 4.845.
    const double classical = std::sqrt(2.0 * std::log(1.25 / delta)) / epsilon;
    CHECK(sigma < classical);

    const double achieved = analytic_gaussian_delta(sigma, epsilon, 1.0);
    CHECK(achieved <= delta);
    CHECK(std::abs(achieved - delta) <= 1e-9);
    // Tight: one part in a million less noise already breaks the guarantee.
    CHECK(analytic_gaussian_delta(sigma * (1.0 - 1e-6), epsilon, 1.0) > delta);

    // σ scales with the sensitivity.
    gaussian->calibrate(2.0);
    CHECK(std::abs(gaussian->noise_scale() - 2.0 * sigma) <= 1e-9 * sigma);
    CHECK(analytic_gaussian_delta(gaussian->noise_scale(), epsilon, 2.0) <= delta);
}

TEST_CASE("gaussian mechanism: guarantees name the notion, sigma and the sensitivity") {
    auto gdp = mechanism("gaussian", {{"mu", "0.5"}, {"equivalent_delta", "1e-3"}});
    gdp->calibrate(1.0);
    const auto gdp_statement = gdp->guarantee();
    CHECK(gdp_statement.notion == dpbo::PrivacyNotion::GaussianDP);
    CHECK(gdp_statement.mu == 0.5);
    REQUIRE(gdp_statement.equivalent_epsilon_delta.size() == 1);
    CHECK(gdp_statement.equivalent_epsilon_delta[0].first == dpbo::gdp_epsilon(0.5, 1e-3));
    CHECK(gdp_statement.equivalent_epsilon_delta[0].second == 1e-3);
    CHECK(gdp_statement.mechanism.find("σ = 2") != std::string::npos);
    REQUIRE(gdp_statement.assumptions.size() == 1);
    CHECK(gdp_statement.assumptions[0] == "the query's L2 sensitivity is at most Δ = 1");

    auto approx = mechanism("gaussian", {{"epsilon", "1"}, {"delta", "1e-5"}});
    approx->calibrate(0.25);
    const auto approx_statement = approx->guarantee();
    CHECK(approx_statement.notion == dpbo::PrivacyNotion::ApproxDP);
    CHECK(approx_statement.epsilon == 1.0);
    CHECK(approx_statement.delta == 1e-5);
    CHECK(approx_statement.mechanism.find("analytic Gaussian") != std::string::npos);
    REQUIRE(approx_statement.assumptions.size() == 1);
    CHECK(approx_statement.assumptions[0] == "the query's L2 sensitivity is at most Δ = 0.25");
}

TEST_CASE("gaussian mechanism: refuses every parameter combination but the two modes") {
    const auto refuses = [](const Raw& parameters, const std::string& fragment) {
        CAPTURE(fragment);
        CHECK_THROWS_WITH_AS(mechanism("gaussian", parameters), doctest::Contains(fragment.c_str()),
                             dpbo::ValidationError);
    };
    refuses({}, "none of mu, epsilon, delta");
    refuses({{"mu", "1"}, {"epsilon", "1"}}, "got mu = 1, epsilon = 1");
    refuses({{"mu", "1"}, {"delta", "1e-05"}}, "got mu = 1, delta = 1e-05");
    refuses({{"epsilon", "1"}}, "got epsilon = 1;");
    refuses({{"delta", "1e-05"}}, "got delta = 1e-05;");
    refuses({{"mu", "1"}, {"epsilon", "1"}, {"delta", "1e-05"}}, "got mu = 1, epsilon = 1, delta = 1e-05");
    refuses({{"epsilon", "1"}, {"delta", "1e-05"}, {"equivalent_delta", "1e-06"}}, "equivalent_delta");
    // Ranges from the schema.
    refuses({{"mu", "0"}}, "mu");
    refuses({{"mu", "-1"}}, "mu");
    refuses({{"epsilon", "0"}, {"delta", "1e-5"}}, "epsilon");
    refuses({{"epsilon", "1"}, {"delta", "1"}}, "delta");
    refuses({{"mu", "1"}, {"equivalent_delta", "0"}}, "equivalent_delta");
}

TEST_CASE("mechanisms refuse a non-positive or non-finite sensitivity") {
    const std::vector<std::pair<std::string, Raw>> configurations = {
        {"gaussian", {{"mu", "1"}}},
        {"gaussian", {{"epsilon", "1"}, {"delta", "1e-5"}}},
        {"laplace", {{"epsilon", "1"}}}};
    for (const auto& [name, parameters] : configurations) {
        auto refusing = mechanism(name, parameters);
        for (double sensitivity :
             {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
            CAPTURE(name);
            CAPTURE(sensitivity);
            CHECK_THROWS_WITH_AS(refusing->calibrate(sensitivity), doctest::Contains("sensitivity"),
                                 dpbo::ValidationError);
            CHECK_FALSE(refusing->calibrated());
        }
    }
}

TEST_CASE("mechanisms refuse to release before calibration") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(7);
    const arma::vec value(3, arma::fill::zeros);
    const std::vector<std::pair<std::string, Raw>> configurations = {{"gaussian", {{"mu", "1"}}},
                                                                     {"laplace", {{"epsilon", "1"}}}};
    for (const auto& [name, parameters] : configurations) {
        CAPTURE(name);
        auto uncalibrated = mechanism(name, parameters);
        CHECK_THROWS_AS(release(*uncalibrated, value, noise), dpbo::RunError);
        CHECK_THROWS_AS(uncalibrated->noise_scale(), dpbo::RunError);
        CHECK_THROWS_AS(uncalibrated->guarantee(), dpbo::RunError);
    }
}

TEST_CASE("mechanisms release exactly what the secure sampling layer draws at their scale") {
    // The plugins add no noise of their own: replaying the same keystream through the layer gives
    // the very same doubles. Each release() makes a ledger, which derives its key from the source;
    // its first release draws from stream 0 of that key.
    const arma::vec value = {10.0, -20.0, 30.0, 0.5};
    auto gaussian = mechanism("gaussian", {{"mu", "0.5"}});
    gaussian->calibrate(1.0);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(11);
    auto replay = dpbo::PrivacyNoiseSource::from_seed(11);
    auto first = replay.derive().stream(0);
    CHECK(arma::approx_equal(release(*gaussian, value, noise), dpbo::privacy::gaussian_release(value, 2.0, first),
                             "absdiff", 0.0));

    auto laplace = mechanism("laplace", {{"epsilon", "0.5"}});
    laplace->calibrate(2.0);
    auto second = replay.derive().stream(0);
    CHECK(arma::approx_equal(release(*laplace, value, noise), dpbo::privacy::laplace_release(value, 4.0, second),
                             "absdiff", 0.0));
}

TEST_CASE("mechanisms name their exact sampler and grid, and refuse a noise scale with no grid") {
    auto gaussian = mechanism("gaussian", {{"mu", "0.5"}});
    gaussian->calibrate(1.0);  // σ = 2: grid 2^(1 − 40)
    CHECK(gaussian->guarantee().mechanism.find(
              "exact sampling of N(0, σ²) (Karney 2016) rounded to the grid 2^-39; rounding is "
              "post-processing, no slack") != std::string::npos);
    auto laplace = mechanism("laplace", {{"epsilon", "0.5"}});
    laplace->calibrate(2.0);  // b = 4: grid 2^(2 − 40)
    CHECK(laplace->guarantee().mechanism.find("rounded to the grid 2^-38") != std::string::npos);

    // σ = Δ/μ = 1e-300 has no normal grid 2^(⌈log2 σ⌉ − 40); the refusal names σ and leaves the
    // mechanism uncalibrated.
    auto tiny = mechanism("gaussian", {{"mu", "1"}});
    CHECK_THROWS_WITH_AS(tiny->calibrate(1e-300), doctest::Contains("sigma = 1e-300"), dpbo::ValidationError);
    CHECK_FALSE(tiny->calibrated());
    auto huge = mechanism("laplace", {{"epsilon", "1e-11"}});
    CHECK_THROWS_WITH_AS(huge->calibrate(1e290), doctest::Contains("noise scale b"), dpbo::ValidationError);
    CHECK_FALSE(huge->calibrated());
}

TEST_CASE("gaussian mechanism: released noise is N(0, sigma^2)") {
    auto gaussian = mechanism("gaussian", {{"mu", "0.5"}});
    gaussian->calibrate(1.0);
    const double sigma = gaussian->noise_scale();  // 2
    auto noise = dpbo::PrivacyNoiseSource::from_seed(20240601);
    const arma::vec sample = release(*gaussian, arma::vec(kSamples, arma::fill::zeros), noise);
    const double n = static_cast<double>(kSamples);

    const double mean = arma::mean(sample);
    const double stddev = arma::stddev(sample);  // N − 1 denominator
    // For normal data the sample standard deviation has standard error ≈ σ/√(2(N−1)).
    const double stddev_error = sigma / std::sqrt(2.0 * (n - 1.0));
    const double ks = ks_statistic(sample, [&](double x) { return standard_normal_cdf(x / sigma); });
    MESSAGE("gaussian noise, sigma = " << sigma << ", N = " << kSamples << ": mean = " << mean << " (limit "
                                       << kStandardErrors * sigma / std::sqrt(n) << "), stddev = " << stddev
                                       << " (limit ±" << kStandardErrors * stddev_error << "), KS D = " << ks
                                       << ", sqrt(N) D = " << std::sqrt(n) * ks << " (critical " << kKolmogorovCritical
                                       << ")");

    CHECK(std::abs(mean) <= kStandardErrors * sigma / std::sqrt(n));
    CHECK(std::abs(stddev - sigma) <= kStandardErrors * stddev_error);
    CHECK(std::sqrt(n) * ks <= kKolmogorovCritical);
}

TEST_CASE("laplace mechanism: b = sensitivity / epsilon and a pure-DP guarantee") {
    auto laplace = mechanism("laplace", {{"epsilon", "0.5"}});
    CHECK(laplace->sensitivity_norm() == dpbo::SensitivityNorm::L1);
    laplace->calibrate(2.0);
    CHECK(laplace->noise_scale() == 2.0 / 0.5);
    const auto statement = laplace->guarantee();
    CHECK(statement.notion == dpbo::PrivacyNotion::PureDP);
    CHECK(statement.epsilon == 0.5);
    CHECK(statement.mechanism.find("b = 4") != std::string::npos);
    REQUIRE(statement.assumptions.size() == 1);
    CHECK(statement.assumptions[0] == "the query's L1 sensitivity is at most Δ = 2");
}

TEST_CASE("laplace mechanism: refuses a missing or non-positive epsilon") {
    CHECK_THROWS_WITH_AS(mechanism("laplace", {}), doctest::Contains("epsilon"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(mechanism("laplace", {{"epsilon", "0"}}), doctest::Contains("epsilon"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(mechanism("laplace", {{"epsilon", "-2"}}), doctest::Contains("epsilon"),
                         dpbo::ValidationError);
}

TEST_CASE("laplace mechanism: released noise is Laplace(0, b)") {
    auto laplace = mechanism("laplace", {{"epsilon", "0.5"}});
    laplace->calibrate(2.0);
    const double scale = laplace->noise_scale();  // 4
    auto noise = dpbo::PrivacyNoiseSource::from_seed(20240602);
    const arma::vec sample = release(*laplace, arma::vec(kSamples, arma::fill::zeros), noise);
    const double n = static_cast<double>(kSamples);

    // |X| ~ Exponential(mean b, variance b²), so the mean of |X| has standard error b/√N.
    const double mean_absolute = arma::mean(arma::abs(sample));
    // X itself has variance 2b².
    const double mean = arma::mean(sample);
    const double ks = ks_statistic(
        sample, [&](double x) { return x < 0.0 ? 0.5 * std::exp(x / scale) : 1.0 - 0.5 * std::exp(-x / scale); });
    MESSAGE("laplace noise, b = " << scale << ", N = " << kSamples << ": mean = " << mean << ", mean |x| = "
                                  << mean_absolute << " (limit ±" << kStandardErrors * scale / std::sqrt(n)
                                  << "), KS D = " << ks << ", sqrt(N) D = " << std::sqrt(n) * ks << " (critical "
                                  << kKolmogorovCritical << ")");

    CHECK(std::abs(mean_absolute - scale) <= kStandardErrors * scale / std::sqrt(n));
    CHECK(std::abs(mean) <= kStandardErrors * std::sqrt(2.0) * scale / std::sqrt(n));
    CHECK(std::sqrt(n) * ks <= kKolmogorovCritical);
}

TEST_CASE("gdp accountant: composes gdp and gaussian events with repetitions") {
    auto accountant = dpbo::test::make<dpbo::Accountant>("gdp");
    CHECK(accountant->accepted_kind_names() == std::vector<std::string>{"gaussian", "gdp"});

    accountant->compose({dpbo::GdpEvent{0.5}, 4});
    accountant->compose({dpbo::GaussianEvent{2.0, 1.0}, 1});
    const double expected_mu = std::sqrt(4.0 * 0.25 + 0.25);

    const auto total = accountant->total();
    CHECK(total.notion == dpbo::PrivacyNotion::GaussianDP);
    CHECK(total.mu == doctest::Approx(expected_mu).epsilon(1e-14));
    REQUIRE(total.equivalent_epsilon_delta.size() == 1);
    CHECK(total.equivalent_epsilon_delta[0].second == 1e-5);
    CHECK(total.equivalent_epsilon_delta[0].first == dpbo::gdp_epsilon(total.mu, 1e-5));

    for (double epsilon : {0.0, 0.5, 1.0, 3.0}) {
        CAPTURE(epsilon);
        CHECK(accountant->delta_for_epsilon(epsilon) ==
              doctest::Approx(dpbo::gdp_delta(expected_mu, epsilon)).epsilon(1e-12));
    }
    for (double delta : {1e-3, 1e-5, 1e-8}) {
        CAPTURE(delta);
        const double epsilon = accountant->epsilon_for_delta(delta);
        CHECK(accountant->delta_for_epsilon(epsilon) <= delta);
        CHECK(accountant->delta_for_epsilon(epsilon - 1e-6) > delta);
    }
}

TEST_CASE("gdp accountant: the report delta parameter sets total()'s equivalent pair") {
    auto accountant = dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1e-6"}});
    accountant->compose({dpbo::GdpEvent{1.0}, 1});
    const auto total = accountant->total();
    REQUIRE(total.equivalent_epsilon_delta.size() == 1);
    CHECK(total.equivalent_epsilon_delta[0].second == 1e-6);
    CHECK(total.equivalent_epsilon_delta[0].first == dpbo::gdp_epsilon(1.0, 1e-6));
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1.5"}}), doctest::Contains("delta"),
                         dpbo::ValidationError);
}

TEST_CASE("gdp accountant: refuses unknown kinds, missing or invalid values, and empty totals") {
    auto accountant = dpbo::test::make<dpbo::Accountant>("gdp");
    CHECK_THROWS_AS(accountant->total(), dpbo::RunError);
    CHECK_THROWS_AS(accountant->delta_for_epsilon(1.0), dpbo::RunError);
    CHECK_THROWS_AS(accountant->epsilon_for_delta(1e-5), dpbo::RunError);

    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::LaplaceEvent{1.0, 1.0}, 1}), doctest::Contains("'laplace'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::GdpEvent{}, 1}), doctest::Contains("'mu'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::GdpEvent{-0.5}, 1}), doctest::Contains("'mu'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::GaussianEvent{2.0, 0.0}, 1}), doctest::Contains("'sensitivity'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::GaussianEvent{0.0, 1.0}, 1}), doctest::Contains("'sigma'"),
                         dpbo::ValidationError);
    // A subsampling rate would change the guarantee; this accountant cannot account it.
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::SubsampledGaussianEvent{0.1, 2.0, 1}, 1}),
                         doctest::Contains("'subsampled-gaussian'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose({dpbo::GdpEvent{0.5}, 0}), doctest::Contains("repetitions"),
                         dpbo::ValidationError);
    // Refused events leave nothing behind.
    CHECK_THROWS_AS(accountant->total(), dpbo::RunError);
}
