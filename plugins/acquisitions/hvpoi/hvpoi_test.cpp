// The hvpoi acquisition (Couckuyt et al. 2014 as DPareto uses it), loaded through the registry,
// on a stand-in surrogate whose posterior is fixed per point: PoI against an independent
// numerical integration of the Gaussian density over the non-dominated region, the hypervolume
// gain against areas computed by hand, the transforms, the adaptive (GPflowOpt) reference, and
// its refusals.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

// Two outputs, whose posterior at query row i is means.row(i), variances.row(i) whatever the point.
class FixedPosterior final : public dpbo::Surrogate {
public:
    FixedPosterior(arma::mat means, arma::mat variances) : means_(std::move(means)), variances_(std::move(variances)) {}
    void condition(const arma::mat&, const arma::vec&) override {}
    void append(const arma::mat&, const arma::vec&) override {}
    void truncate(std::size_t) override {}
    std::size_t size() const override { return 0; }
    dpbo::Posterior predict(const arma::mat&) const override { return {}; }
    std::string describe() const override { return "fixed posterior"; }
    std::size_t output_count() const override { return 2; }
    dpbo::MultiPosterior predict_outputs(const arma::mat& points) const override {
        REQUIRE(points.n_rows == means_.n_rows);
        return {means_, variances_};
    }

private:
    arma::mat means_;
    arma::mat variances_;
};

std::shared_ptr<dpbo::Acquisition> hvpoi() { return dpbo::test::make<dpbo::Acquisition>("hvpoi"); }

double score(const dpbo::Surrogate& model, const dpbo::AcquisitionContext& context) {
    return hvpoi()->score(model, arma::mat(1, 2, arma::fill::zeros), context)(0);
}

// Both outputs minimised with identity transforms: the model sees the negated values.
dpbo::AcquisitionContext minimising_context(const arma::mat& front_values, const arma::rowvec& reference) {
    dpbo::AcquisitionContext context;
    context.outputs = 2;
    context.dimension = 2;
    context.signs = {-1.0, -1.0};
    context.front_values = front_values;
    context.front = -front_values;
    context.reference = reference;
    return context;
}

// P(not dominated) by quadrature written independently of the staircase: in the maximisation
// sense, y is dominated when some front point has p0 ≥ y0 and p1 ≥ y1, so for given y0 it is not
// dominated iff y1 > max{p1 : p0 ≥ y0}. That integrand, φ0(y0)·P(y1 > max{…}), jumps at the front's
// p0 and is smooth between, so Simpson's rule runs on each piece of mean0 ± 12σ0 between jumps
// (2000 panels each: error O(h⁴ max|f⁗|) < 1e-12 here; the tails beyond 12σ are below 1e-32).
double poi_by_quadrature(const arma::mat& front_max, double mean0, double sd0, double mean1, double sd1) {
    const auto floor_at = [&](double y0) {
        double floor = -std::numeric_limits<double>::infinity();
        for (arma::uword i = 0; i < front_max.n_rows; ++i)
            if (front_max(i, 0) >= y0) floor = std::max(floor, front_max(i, 1));
        return floor;
    };
    const double a = mean0 - 12.0 * sd0, b = mean0 + 12.0 * sd0;
    std::vector<double> edges = {a, b};
    for (arma::uword i = 0; i < front_max.n_rows; ++i)
        if (front_max(i, 0) > a && front_max(i, 0) < b) edges.push_back(front_max(i, 0));
    std::sort(edges.begin(), edges.end());
    double total = 0.0;
    for (std::size_t piece = 0; piece + 1 < edges.size(); ++piece) {
        const double lo = edges[piece], hi = edges[piece + 1];
        // On (lo, hi] the floor is constant: read it at the midpoint, away from the jump.
        const double floor = floor_at(0.5 * (lo + hi));
        const double above = std::isinf(floor) ? 1.0 : 0.5 * std::erfc((floor - mean1) / (sd1 * std::sqrt(2.0)));
        const auto density = [&](double y0) {
            const double z = (y0 - mean0) / sd0;
            return std::exp(-0.5 * z * z) / (sd0 * std::sqrt(2.0 * std::numbers::pi));
        };
        const int panels = 2000;
        const double h = (hi - lo) / panels;
        double sum = density(lo) + density(hi);
        for (int k = 1; k < panels; ++k) sum += (k % 2 ? 4.0 : 2.0) * density(lo + k * h);
        total += above * sum * h / 3.0;
    }
    return total;
}

// Two maximised outputs, the front (in the maximisation sense) both as front and as its values.
dpbo::AcquisitionContext two_output_context(const arma::mat& front_max, const arma::rowvec& reference) {
    dpbo::AcquisitionContext context;
    context.outputs = 2;
    context.front = front_max;
    context.front_values = front_max;
    context.signs = {1.0, 1.0};
    context.reference = reference;
    return context;
}

}  // namespace

TEST_CASE("hvpoi: the probability of not being dominated equals a numerical integration over the front") {
    // A three-point front in the maximisation sense; identity transforms, both outputs maximised,
    // so the observed front is the modelled one.
    const arma::mat front_max = {{2.0, 0.0}, {1.0, 1.0}, {0.0, 2.0}};
    struct Case {
        double mean0, var0, mean1, var1;
    };
    for (const Case c :
         {Case{1.5, 0.3, 0.7, 0.5}, Case{2.5, 1.0, -1.0, 0.2}, Case{1.8, 0.05, 1.6, 0.05}, Case{1.2, 2.0, 1.5, 3.0}}) {
        CAPTURE(c.mean0);
        CAPTURE(c.mean1);
        dpbo::AcquisitionContext context;
        context.outputs = 2;
        context.front = front_max;
        context.front_values = front_max;
        context.signs = {1.0, 1.0};
        const arma::mat mean = {{c.mean0, c.mean1}};
        const arma::mat variance = {{c.var0, c.var1}};
        // The reference one unit below the mean in both outputs: the gain is the unit box minus
        // the front's part of it, counted on a 400 × 400 grid of cell midpoints — exact here, as
        // the front's corners lie on the grid's lines.
        context.reference = mean.row(0) - 1.0;
        double covered = 0.0;
        const int cells = 400;
        for (int i = 0; i < cells; ++i)
            for (int j = 0; j < cells; ++j) {
                const double y0 = c.mean0 - 1.0 + (i + 0.5) / cells, y1 = c.mean1 - 1.0 + (j + 0.5) / cells;
                bool dominated = false;
                for (arma::uword k = 0; k < front_max.n_rows; ++k)
                    dominated = dominated || (front_max(k, 0) >= y0 && front_max(k, 1) >= y1);
                covered += dominated ? 1.0 : 0.0;
            }
        const double gain = 1.0 - covered / (cells * cells);
        REQUIRE(gain > 0.1);
        const FixedPosterior model(mean, variance);
        const double poi = poi_by_quadrature(front_max, c.mean0, std::sqrt(c.var0), c.mean1, std::sqrt(c.var1));
        MESSAGE("PoI by quadrature ", poi, ", gain ", gain);
        // The grid's gain is exact here: the front's corners lie on multiples of 1/400 from the box.
        CHECK(score(model, context) == doctest::Approx(poi * gain).epsilon(1e-10));
    }
}

TEST_CASE("hvpoi: a front with tied and dominated rows: the probability still equals the quadrature") {
    // Ties in output 0 (empty strips, which the staircase skips while it carries a strip's edge
    // probability to the next) and dominated rows, in the maximisation sense; scored in one batch of
    // points, so that nothing of one point's computation can leak into the next.
    const arma::mat front_max = {{2.0, 0.0}, {2.0, -0.5}, {1.0, 1.0}, {1.0, 0.5}, {0.5, 0.2}, {0.0, 2.0}};
    const arma::mat means = {{1.5, 0.7}, {2.5, -1.0}, {1.2, 1.5}, {0.2, 0.8}};
    const arma::mat variances = {{0.3, 0.5}, {1.0, 0.2}, {2.0, 3.0}, {0.4, 0.1}};
    // A reference far below every point, so that every point has a gain.
    const dpbo::AcquisitionContext context = two_output_context(front_max, {-100.0, -100.0});
    const FixedPosterior model(means, variances);
    const arma::vec scores = hvpoi()->score(model, arma::mat(means.n_rows, 2, arma::fill::zeros), context);
    // The gain by hand: the point's box from the reference minus the union of the front's boxes
    // clipped to it, integrated over output 0 between the clipped front's distinct edges (the union's
    // height at y0 is the best clipped output 1 among the rows reaching past y0).
    const auto gain_at = [&](const arma::rowvec& point) {
        const arma::rowvec& r = context.reference;
        std::vector<double> edges{r(0)};
        for (arma::uword k = 0; k < front_max.n_rows; ++k) edges.push_back(std::min(front_max(k, 0), point(0)));
        std::sort(edges.begin(), edges.end());
        double covered = 0.0;
        for (std::size_t e = 0; e + 1 < edges.size(); ++e) {
            const double mid = 0.5 * (edges[e] + edges[e + 1]);
            double height = 0.0;
            for (arma::uword k = 0; k < front_max.n_rows; ++k)
                if (std::min(front_max(k, 0), point(0)) >= mid)
                    height = std::max(height, std::min(front_max(k, 1), point(1)) - r(1));
            covered += (edges[e + 1] - edges[e]) * height;
        }
        return (point(0) - r(0)) * (point(1) - r(1)) - covered;
    };
    for (arma::uword i = 0; i < means.n_rows; ++i) {
        CAPTURE(i);
        const double poi = poi_by_quadrature(front_max, means(i, 0), std::sqrt(variances(i, 0)), means(i, 1),
                                             std::sqrt(variances(i, 1)));
        CHECK(scores(i) == doctest::Approx(poi * gain_at(means.row(i))).epsilon(1e-10));
    }
}

TEST_CASE("hvpoi: a dominated median scores exactly 0, a broken posterior still shows as NaN") {
    // The probability is skipped where the median adds no hypervolume; that must not hide a NaN.
    const arma::mat front_max = {{2.0, 0.0}, {1.0, 1.0}, {0.0, 2.0}};
    const dpbo::AcquisitionContext context = two_output_context(front_max, {-1.0, -1.0});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Row 0: dominated by (1, 1) with a wide posterior (a real chance of improving); row 1: the same
    // mean with a NaN variance; row 2: an infinite mean; row 3: a gain.
    const arma::mat means = {{0.5, 0.5}, {0.5, 0.5}, {0.5, -std::numeric_limits<double>::infinity()}, {1.5, 1.5}};
    const arma::mat variances = {{4.0, 4.0}, {nan, 1.0}, {1.0, std::numeric_limits<double>::infinity()}, {0.1, 0.1}};
    const FixedPosterior model(means, variances);
    const arma::vec scores = hvpoi()->score(model, arma::mat(means.n_rows, 2, arma::fill::zeros), context);
    CHECK(scores(0) == 0.0);
    CHECK(std::isnan(scores(1)));
    CHECK(std::isnan(scores(2)));
    CHECK(scores(3) > 0.0);
}

TEST_CASE("hvpoi: the exclusive hypervolume of the predicted mean, by hand") {
    // Minimising both, front (1, 3), (2, 2), (3, 1), reference (4, 4): HV = 6. Adding (1.5, 1.5)
    // makes (2, 2) dominated and the staircase 0.5·1 + 1.5·2.5 + 1·3 = 7.25, a gain of 1.25.
    const arma::mat front = {{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}};
    const dpbo::AcquisitionContext context = minimising_context(front, {4.0, 4.0});
    // A point mass (zero variance) not dominated: PoI = 1, the score is the gain itself.
    CHECK(score(FixedPosterior({{-1.5, -1.5}}, {{0.0, 0.0}}), context) == doctest::Approx(1.25).epsilon(1e-14));
    // (3.5, 0.5) adds only the strip [3.5, 4) × [0.5, 1): 0.25.
    CHECK(score(FixedPosterior({{-3.5, -0.5}}, {{0.0, 0.0}}), context) == doctest::Approx(0.25).epsilon(1e-14));
    // Dominated by (2, 2), or beyond the reference: nothing.
    CHECK(score(FixedPosterior({{-2.5, -2.5}}, {{0.0, 0.0}}), context) == 0.0);
    CHECK(score(FixedPosterior({{-0.5, -4.5}}, {{0.0, 0.0}}), context) == 0.0);
    // With uncertainty the gain is weighted by PoI: for (1.5, 1.5) with σ = 1 in both outputs, by
    // hand over the staircase cells (minimisation): P(y0 < 1) + P(1 ≤ y0 < 2)·P(y1 < 3)
    // + P(2 ≤ y0 < 3)·P(y1 < 2) + P(y0 ≥ 3)·P(y1 < 1).
    const auto cdf = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
    const double poi =
        cdf(-0.5) + (cdf(0.5) - cdf(-0.5)) * cdf(1.5) + (cdf(1.5) - cdf(0.5)) * cdf(0.5) + (1.0 - cdf(1.5)) * cdf(-0.5);
    CHECK(score(FixedPosterior({{-1.5, -1.5}}, {{1.0, 1.0}}), context) == doctest::Approx(1.25 * poi).epsilon(1e-12));
}

TEST_CASE("hvpoi: log and logit outputs: PoI on the modelled scale, the gain in the objective's units") {
    // DPareto's outputs (ε, error), both minimised, modelled as −log ε and −logit(error). Front
    // (0.5, 0.3), (2, 0.1) against v† = (10, 1): HV = 1.5·0.7 + 8·0.9 = 8.25. A predicted median
    // (1, 0.2) gives 0.5·0.7 + 1·0.8 + 8·0.9 = 8.35: a gain of 0.1 in the user's units (in
    // log/logit units the same point would gain something else, and v† = 1 would be +∞).
    const auto logit = [](double p) { return std::log(p / (1.0 - p)); };
    const arma::mat front_values = {{0.5, 0.3}, {2.0, 0.1}};
    dpbo::AcquisitionContext context;
    context.outputs = 2;
    context.signs = {-1.0, -1.0};
    context.transforms = {dpbo::OutputTransform::Log, dpbo::OutputTransform::Logit};
    context.front_values = front_values;
    context.front = {{-std::log(0.5), -logit(0.3)}, {-std::log(2.0), -logit(0.1)}};
    context.reference = {10.0, 1.0};
    const arma::mat mean = {{-std::log(1.0), -logit(0.2)}};
    CHECK(score(FixedPosterior(mean, {{0.0, 0.0}}), context) == doctest::Approx(0.1).epsilon(1e-12));
    // With variances 0.4 and 0.9 on the modelled scale the gain is weighted by the staircase's
    // cells in log/logit units: P(log ε < log 0.5) + P(log 0.5 ≤ log ε < log 2)·P(logit e < logit 0.3)
    // + P(log ε ≥ log 2)·P(logit e < logit 0.1).
    const auto cdf = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
    const double s0 = std::sqrt(0.4), s1 = std::sqrt(0.9);
    const double z_half = std::log(0.5) / s0, z_two = std::log(2.0) / s0;
    const double poi = cdf(z_half) + (cdf(z_two) - cdf(z_half)) * cdf((logit(0.3) - logit(0.2)) / s1) +
                       (1.0 - cdf(z_two)) * cdf((logit(0.1) - logit(0.2)) / s1);
    CHECK(score(FixedPosterior(mean, {{0.4, 0.9}}), context) == doctest::Approx(0.1 * poi).epsilon(1e-12));
}

TEST_CASE("hvpoi: reference = adaptive is GPflowOpt's max(front) + 2·range/|front| on the modelled values") {
    // Minimised front (1, 3), (2, 2), (3, 1): max 3, range 2, three points → reference 3 + 4/3 =
    // 13/3 in both outputs (identity transforms). The median (3.5, 0.5) then adds
    // [3.5, 13/3) × [0.5, 1) = (5/6)·0.5 = 5/12, where v† = (4, 4) gives 0.25.
    const arma::mat front = {{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}};
    dpbo::AcquisitionContext context = minimising_context(front, {4.0, 4.0});
    context.adaptive_reference = true;
    const FixedPosterior model({{-3.5, -0.5}}, {{0.0, 0.0}});
    CHECK(score(model, context) == doctest::Approx(5.0 / 12.0).epsilon(1e-14));
    // Under log transforms the rule works on log values: front ε (1, e, e²) → log (0, 1, 2), so
    // the reference is 2 + 4/3 in log units, e^{10/3} ≈ 28.03 in the user's.
    context.transforms = {dpbo::OutputTransform::Log, dpbo::OutputTransform::Identity};
    context.front_values = {{1.0, 3.0}, {std::exp(1.0), 2.0}, {std::exp(2.0), 1.0}};
    context.front = {{-0.0, -3.0}, {-1.0, -2.0}, {-2.0, -1.0}};
    // The staircase in the user's units is (1, 3), (e, 2), (e², 1) and the reference (e^{10/3}, 13/3):
    // the median (e³, 0.5) adds [e³, e^{10/3}) × [0.5, 1), since (e², 1) covers errors ≥ 1 there.
    const FixedPosterior far({{-3.0, -0.5}}, {{0.0, 0.0}});
    CHECK(score(far, context) == doctest::Approx((std::exp(10.0 / 3.0) - std::exp(3.0)) * 0.5).epsilon(1e-12));
}

TEST_CASE("hvpoi: scores two outputs and refuses a context without a reference point") {
    const auto acquisition = hvpoi();
    CHECK(acquisition->supported_outputs() == 2);
    dpbo::AcquisitionContext context = minimising_context({{1.0, 1.0}}, {});
    const FixedPosterior model({{-0.5, -0.5}}, {{0.1, 0.1}});
    try {
        score(model, context);
        FAIL("expected a refusal");
    } catch (const dpbo::RunError& error) {
        CHECK(std::string(error.what()).find("reference point") != std::string::npos);
    }
}
