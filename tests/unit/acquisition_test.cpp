// The ucb, ei and pi acquisition plugins, loaded through the registry: values against their closed
// forms at posteriors read from a real `gp` surrogate, the β schedules against hand-computed
// values, the σ → 0 limits, and analytic gradients against central finite differences.
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <string>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Raw = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Acquisition> acquisition(const std::string& name, const Raw& parameters = {}) {
    return dpbo::test::make<dpbo::Acquisition>(name, parameters);
}

// A small 2-D GP with fixed hyperparameters, conditioned on a smooth function at 7 points.
std::shared_ptr<dpbo::Surrogate> small_gp() {
    auto gp = dpbo::test::make<dpbo::Surrogate>("gp", {{"kernel", "rbf"},
                                                       {"lengthscale", "0.4"},
                                                       {"signal_variance", "1.5"},
                                                       {"noise_variance", "1e-4"},
                                                       {"fit", "none"}});
    const arma::mat points = {{0.1, 0.2}, {0.8, 0.3}, {0.4, 0.9}, {0.5, 0.5}, {0.9, 0.9}, {0.2, 0.7}, {0.65, 0.05}};
    arma::vec targets(points.n_rows);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        targets(i) = std::sin(3.0 * points(i, 0)) + points(i, 1) * points(i, 1);
    }
    gp->condition(points, targets);
    return gp;
}

// Points between the data, where σ is well away from 0.
const arma::mat kQueries = {{0.3, 0.4}, {0.7, 0.6}, {0.05, 0.95}, {0.55, 0.25}, {0.95, 0.5}};

// A surrogate with a closed-form posterior, so the acquisitions' σ → 0 branches can be reached
// exactly: μ(x) = sin(3x₀) + x₁², v(x) = s²(1 − exp(−|x − c|²)), which is 0 at x = c.
class ClosedFormPosterior final : public dpbo::Surrogate {
public:
    static constexpr double kSignal = 0.8;
    inline static const arma::rowvec kZeroVarianceAt = {0.3, 0.6};

    void condition(const arma::mat&, const arma::vec&) override { refuse(); }
    void append(const arma::mat&, const arma::vec&) override { refuse(); }
    void truncate(std::size_t) override { refuse(); }
    std::size_t size() const override { return 0; }
    std::string describe() const override { return "closed-form posterior (test)"; }
    bool provides_gradients() const override { return true; }

    dpbo::Posterior predict(const arma::mat& points) const override {
        dpbo::Posterior posterior;
        posterior.mean.set_size(points.n_rows);
        posterior.variance.set_size(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const dpbo::PointPosterior p = predict_with_gradient(points.row(i));
            posterior.mean(i) = p.mean;
            posterior.variance(i) = p.variance;
        }
        return posterior;
    }

    dpbo::PointPosterior predict_with_gradient(const arma::rowvec& x) const override {
        dpbo::PointPosterior p;
        p.mean = std::sin(3.0 * x(0)) + x(1) * x(1);
        p.mean_gradient = {3.0 * std::cos(3.0 * x(0)), 2.0 * x(1)};
        const arma::rowvec offset = x - kZeroVarianceAt;
        const double decay = std::exp(-arma::dot(offset, offset));
        p.variance = kSignal * kSignal * (1.0 - decay);
        p.variance_gradient = kSignal * kSignal * decay * 2.0 * offset;
        return p;
    }

private:
    [[noreturn]] static void refuse() { throw dpbo::RunError("the closed-form test posterior takes no data"); }
};

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }
double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }

double score_at(const dpbo::Acquisition& a, const dpbo::Surrogate& model, const arma::rowvec& x,
                const dpbo::AcquisitionContext& context) {
    return a.score(model, arma::mat(x), context)(0);
}

// √β recovered from a UCB score: (score − μ)/σ, squared.
arma::vec implied_beta(const dpbo::Acquisition& ucb, const dpbo::Surrogate& model,
                       const dpbo::AcquisitionContext& context) {
    const dpbo::Posterior posterior = model.predict(kQueries);
    const arma::vec scores = ucb.score(model, kQueries, context);
    return arma::square((scores - posterior.mean) / arma::sqrt(posterior.variance));
}

// Central differences with h = 1e-5: truncation O(h² f''') ≈ 1e-10 and rounding ≈ 1e-16/h ≈ 1e-11
// for these O(1) landscapes, so agreement to 1e-6 leaves four orders of magnitude of margin.
void check_gradient_matches_differences(const dpbo::Acquisition& a, const dpbo::Surrogate& model, const arma::rowvec& x,
                                        const dpbo::AcquisitionContext& context) {
    REQUIRE(a.provides_gradient());
    arma::rowvec gradient;
    const double value = a.score_with_gradient(model, x, context, gradient);
    CHECK(value == doctest::Approx(score_at(a, model, x, context)).epsilon(1e-12));
    REQUIRE(gradient.n_elem == x.n_elem);
    constexpr double h = 1e-5;
    for (arma::uword j = 0; j < x.n_elem; ++j) {
        arma::rowvec up = x;
        arma::rowvec down = x;
        up(j) += h;
        down(j) -= h;
        const double difference = (score_at(a, model, up, context) - score_at(a, model, down, context)) / (2.0 * h);
        CAPTURE(j);
        CAPTURE(x);
        CHECK(std::abs(gradient(j) - difference) <= 1e-6 * std::max(1.0, std::abs(difference)));
    }
}

dpbo::AcquisitionContext context_at(std::size_t iteration, double incumbent = 0.0) {
    dpbo::AcquisitionContext context;
    context.iteration = iteration;
    context.dimension = 2;
    context.incumbent = incumbent;
    return context;
}

}  // namespace

TEST_CASE("acquisition ucb: the constant schedule scores mu + sqrt(beta) sigma") {
    const auto gp = small_gp();
    const dpbo::Posterior posterior = gp->predict(kQueries);
    REQUIRE(arma::all(posterior.variance > 1e-4));
    for (const double beta : {0.0, 2.0, 3.5}) {
        CAPTURE(beta);
        const auto ucb = acquisition("ucb", {{"beta_schedule", "constant"}, {"beta", std::to_string(beta)}});
        const arma::vec scores = ucb->score(*gp, kQueries, context_at(17));
        const arma::vec expected = posterior.mean + std::sqrt(beta) * arma::sqrt(posterior.variance);
        CHECK(arma::approx_equal(scores, expected, "absdiff", 1e-12));
    }
    // β defaults to 2 under the constant schedule.
    const auto by_default = acquisition("ucb", {{"beta_schedule", "constant"}});
    CHECK(arma::approx_equal(implied_beta(*by_default, *gp, context_at(1)),
                             arma::vec(kQueries.n_rows, arma::fill::value(2.0)), "reldiff", 1e-9));
}

TEST_CASE("acquisition ucb: the finite schedule is 2 log(|Lambda| t^2 pi^2 / (6 delta))") {
    const auto gp = small_gp();
    const auto ucb = acquisition("ucb", {{"beta_schedule", "finite"}, {"delta", "0.05"}});
    auto context = context_at(7);
    context.candidate_count = 50;
    // 2 ln(50 · 49 · π² / 0.3), evaluated separately: 22.594551759127018.
    const arma::vec beta = implied_beta(*ucb, *gp, context);
    CHECK(arma::approx_equal(beta, arma::vec(kQueries.n_rows, arma::fill::value(22.594551759127018)), "reldiff", 1e-9));
}

TEST_CASE("acquisition ucb: the finite schedule refuses a box (candidate_count 0)") {
    const auto gp = small_gp();
    const auto ucb = acquisition("ucb", {{"beta_schedule", "finite"}});
    auto context = context_at(3);
    context.candidate_count = 0;
    CHECK_THROWS_WITH_AS(ucb->score(*gp, kQueries, context), doctest::Contains("finite candidate set"), dpbo::RunError);
    arma::rowvec gradient;
    CHECK_THROWS_AS(ucb->score_with_gradient(*gp, kQueries.row(0), context, gradient), dpbo::RunError);
}

TEST_CASE("acquisition ucb: the default is Srinivas et al.'s Theorem 2 schedule with delta 0.1, a = b = r = 1") {
    const auto gp = small_gp();
    const auto ucb = acquisition("ucb");
    // d = 2, t = 3: 2 ln(9 · 2π² / 0.3) + 4 ln(9 · 2 · √ln 80), evaluated separately: 27.284118338136743.
    CHECK(arma::approx_equal(implied_beta(*ucb, *gp, context_at(3)),
                             arma::vec(kQueries.n_rows, arma::fill::value(27.284118338136743)), "reldiff", 1e-9));
}

TEST_CASE("acquisition ucb: the srinivas schedule uses delta, a, b and r as in Theorem 2") {
    const auto gp = small_gp();
    const auto ucb =
        acquisition("ucb", {{"beta_schedule", "srinivas"}, {"delta", "0.2"}, {"a", "0.5"}, {"b", "2"}, {"r", "3"}});
    // d = 2, t = 1: 2 ln(2π² / 0.6) + 4 ln(2 · 2 · 3 · √ln 20), evaluated separately: 19.12086915193137.
    CHECK(arma::approx_equal(implied_beta(*ucb, *gp, context_at(1)),
                             arma::vec(kQueries.n_rows, arma::fill::value(19.12086915193137)), "reldiff", 1e-9));
}

TEST_CASE("acquisition ucb: schedules refuse t = 0, constants outside the theorem and a wrong dimension") {
    const auto gp = small_gp();
    CHECK_THROWS_WITH_AS(acquisition("ucb")->score(*gp, kQueries, context_at(0)), doctest::Contains("t = 0"),
                         dpbo::RunError);
    // 4 d a = 0.08 ≤ δ = 0.5: log(4da/δ) < 0 and its square root in Theorem 2 is undefined.
    const auto tiny_a = acquisition("ucb", {{"a", "0.01"}, {"delta", "0.5"}});
    CHECK_THROWS_WITH_AS(tiny_a->score(*gp, kQueries, context_at(2)), doctest::Contains("4 d a > delta"),
                         dpbo::RunError);
    auto wrong_dimension = context_at(2);
    wrong_dimension.dimension = 3;
    CHECK_THROWS_AS(acquisition("ucb")->score(*gp, kQueries, wrong_dimension), dpbo::RunError);
}

TEST_CASE("acquisition ucb: parameters the chosen schedule ignores are refused by name") {
    const auto refusal = [](const Raw& parameters) -> std::string {
        try {
            acquisition("ucb", parameters);
        } catch (const dpbo::ValidationError& error) {
            return error.what();
        }
        return "";
    };
    CHECK(refusal({{"beta", "3"}}).find("beta = 3") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "constant"}, {"delta", "0.2"}}).find("delta") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "finite"}, {"r", "2"}}).find("r = 2") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "finite"}, {"a", "2"}}).find("srinivas") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "sometimes"}}).find("beta_schedule") != std::string::npos);
    CHECK(refusal({{"delta", "1"}}).find("delta") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "constant"}, {"beta", "-1"}}).find("beta") != std::string::npos);
    CHECK(refusal({{"beta_schedule", "finite"}, {"delta", "0.3"}}).empty());
}

TEST_CASE("acquisition ei: equals (mu - f* - xi) Phi(z) + sigma phi(z) at the gp posterior") {
    const auto gp = small_gp();
    const dpbo::Posterior posterior = gp->predict(kQueries);
    // Incumbents below, inside and above the range of posterior means exercise z of both signs.
    for (const double incumbent : {-0.5, 0.6, 1.2}) {
        for (const double xi : {0.0, 0.05}) {
            CAPTURE(incumbent);
            CAPTURE(xi);
            const auto ei = acquisition("ei", {{"xi", std::to_string(xi)}});
            const arma::vec scores = ei->score(*gp, kQueries, context_at(5, incumbent));
            for (arma::uword i = 0; i < kQueries.n_rows; ++i) {
                const double sigma = std::sqrt(posterior.variance(i));
                const double u = posterior.mean(i) - incumbent - xi;
                const double expected = u * normal_cdf(u / sigma) + sigma * normal_pdf(u / sigma);
                CHECK(scores(i) == doctest::Approx(expected).epsilon(1e-12).scale(1e-300));
            }
        }
    }
}

TEST_CASE("acquisition ei: stays accurate far in the lower tail") {
    const auto gp = small_gp();
    const auto ei = acquisition("ei");
    const arma::rowvec x = kQueries.row(1);
    const dpbo::Posterior posterior = gp->predict(arma::mat(x));
    const double sigma = std::sqrt(posterior.variance(0));
    // z = −20: EI = σ φ(z)/z² (1 − 3/z² + 15/z⁴ − 105/z⁶ + …); the next term, 945/z⁸ ≈ 4e−8, bounds
    // the series' error, so 1e−6 relative agreement shows no cancellation in the closed form.
    const double z = -20.0;
    const double value = score_at(*ei, *gp, x, context_at(1, posterior.mean(0) - z * sigma));
    const double z2 = z * z;
    const double series = sigma * normal_pdf(z) / z2 * (1.0 - 3.0 / z2 + 15.0 / (z2 * z2) - 105.0 / (z2 * z2 * z2));
    CHECK(value > 0.0);
    CHECK(value == doctest::Approx(series).epsilon(1e-6).scale(0.0));
}

TEST_CASE("acquisition ei: where sigma is 0 it is the plain improvement max(mu - f* - xi, 0)") {
    const ClosedFormPosterior model;
    const arma::rowvec& x = ClosedFormPosterior::kZeroVarianceAt;
    const double mean = std::sin(3.0 * x(0)) + x(1) * x(1);
    const auto ei = acquisition("ei", {{"xi", "0.1"}});
    CHECK(score_at(*ei, model, x, context_at(1, mean - 0.35)) == doctest::Approx(0.25).epsilon(1e-14));
    CHECK(score_at(*ei, model, x, context_at(1, mean + 0.2)) == 0.0);
    arma::rowvec gradient;
    CHECK(ei->score_with_gradient(model, x, context_at(1, mean - 0.35), gradient) ==
          doctest::Approx(0.25).epsilon(1e-14));
    CHECK(arma::approx_equal(gradient, arma::rowvec{3.0 * std::cos(3.0 * x(0)), 2.0 * x(1)}, "absdiff", 1e-14));
    ei->score_with_gradient(model, x, context_at(1, mean + 0.2), gradient);
    CHECK(arma::all(gradient == 0.0));
}

TEST_CASE("acquisition pi: equals Phi((mu - f* - xi) / sigma), xi defaulting to 0.01") {
    const auto gp = small_gp();
    const dpbo::Posterior posterior = gp->predict(kQueries);
    const auto by_default = acquisition("pi");
    const auto explicit_xi = acquisition("pi", {{"xi", "0.2"}});
    for (const double incumbent : {-0.5, 0.6, 1.2}) {
        CAPTURE(incumbent);
        const arma::vec defaults = by_default->score(*gp, kQueries, context_at(4, incumbent));
        const arma::vec offsets = explicit_xi->score(*gp, kQueries, context_at(4, incumbent));
        for (arma::uword i = 0; i < kQueries.n_rows; ++i) {
            const double sigma = std::sqrt(posterior.variance(i));
            CHECK(defaults(i) ==
                  doctest::Approx(normal_cdf((posterior.mean(i) - incumbent - 0.01) / sigma)).epsilon(1e-12));
            CHECK(offsets(i) ==
                  doctest::Approx(normal_cdf((posterior.mean(i) - incumbent - 0.2) / sigma)).epsilon(1e-12));
        }
    }
}

TEST_CASE("acquisition pi: where sigma is 0 it is 1 above f* + xi and 0 below, with zero gradient") {
    const ClosedFormPosterior model;
    const arma::rowvec& x = ClosedFormPosterior::kZeroVarianceAt;
    const double mean = std::sin(3.0 * x(0)) + x(1) * x(1);
    const auto pi = acquisition("pi");
    CHECK(score_at(*pi, model, x, context_at(1, mean - 0.02)) == 1.0);
    CHECK(score_at(*pi, model, x, context_at(1, mean - 0.005)) == 0.0);
    arma::rowvec gradient;
    CHECK(pi->score_with_gradient(model, x, context_at(1, mean - 0.02), gradient) == 1.0);
    CHECK(arma::all(gradient == 0.0));
}

TEST_CASE("acquisition ucb: where sigma is 0 it is the mean, with the mean's gradient") {
    const ClosedFormPosterior model;
    const arma::rowvec& x = ClosedFormPosterior::kZeroVarianceAt;
    const auto ucb = acquisition("ucb", {{"beta_schedule", "constant"}, {"beta", "4"}});
    arma::rowvec gradient;
    const double value = ucb->score_with_gradient(model, x, context_at(1), gradient);
    CHECK(value == doctest::Approx(std::sin(3.0 * x(0)) + x(1) * x(1)).epsilon(1e-14));
    CHECK(value == score_at(*ucb, model, x, context_at(1)));
    CHECK(std::isfinite(gradient(0)));
    CHECK(arma::approx_equal(gradient, arma::rowvec{3.0 * std::cos(3.0 * x(0)), 2.0 * x(1)}, "absdiff", 1e-14));
}

TEST_CASE("acquisition ei and pi: a negative xi is refused by name") {
    for (const std::string name : {"ei", "pi"}) {
        CAPTURE(name);
        CHECK_THROWS_WITH_AS(acquisition(name, {{"xi", "-0.1"}}), doctest::Contains("xi"), dpbo::ValidationError);
    }
}

TEST_CASE("acquisition gradients: ucb, ei and pi match central differences on the closed-form posterior") {
    const ClosedFormPosterior model;
    const std::map<std::string, Raw> acquisitions = {
        {"ucb", {{"beta_schedule", "constant"}, {"beta", "3"}}}, {"ei", {{"xi", "0.05"}}}, {"pi", {}}};
    for (const auto& [name, parameters] : acquisitions) {
        CAPTURE(name);
        const auto a = acquisition(name, parameters);
        for (arma::uword i = 0; i < kQueries.n_rows; ++i)
            check_gradient_matches_differences(*a, model, kQueries.row(i), context_at(1, 0.7));
    }
}

TEST_CASE("acquisition gradients: ucb, ei and pi match central differences on a gp posterior") {
    const auto gp = small_gp();
    REQUIRE(gp->provides_gradients());
    const std::map<std::string, Raw> acquisitions = {{"ucb", {}}, {"ei", {}}, {"pi", {{"xi", "0.1"}}}};
    for (const auto& [name, parameters] : acquisitions) {
        CAPTURE(name);
        const auto a = acquisition(name, parameters);
        for (const double incumbent : {0.2, 0.9}) {
            CAPTURE(incumbent);
            for (arma::uword i = 0; i < kQueries.n_rows; ++i) {
                check_gradient_matches_differences(*a, *gp, kQueries.row(i), context_at(6, incumbent));
            }
        }
    }
}
