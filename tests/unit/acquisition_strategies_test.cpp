// The box strategies of the acquisition optimiser (sweep-local, multistart, direct, direct-local,
// sweep-direct, batched-direct, sweep-batched-direct): each finds known maxima, spends at most its budget, scores only points inside the
// box and repeats itself for a seed; the BO loop's keys split acquisition_evaluations between the
// phases and refuse budgets that leave a phase nothing. Landscapes are small test acquisitions.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/bo/loop.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using dpbo::AcquisitionStrategy;

// Surrogates only matter for their gradient flag here: a real gp, which provides gradients.
std::shared_ptr<dpbo::Surrogate> any_gp() {
    auto gp = dpbo::test::make<dpbo::Surrogate>("gp", {{"kernel", "rbf"}, {"lengthscale", "0.5"}, {"fit", "none"}});
    gp->condition(arma::mat{0.2, 0.7}.t(), arma::vec{0.0, 1.0});
    return gp;
}

// A landscape with an analytic gradient that counts every point it scores and remembers the
// smallest and largest coordinate seen in each dimension.
class Landscape final : public dpbo::Acquisition {
public:
    using Function = std::function<double(const arma::rowvec&, arma::rowvec*)>;
    Landscape(std::size_t dim, Function f) : f_(std::move(f)), lowest_(dim), highest_(dim) { reset(); }

    arma::vec score(const dpbo::Surrogate&, const arma::mat& points, const dpbo::AcquisitionContext&) const override {
        arma::vec values(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) values(i) = record(points.row(i), nullptr);
        return values;
    }
    bool provides_gradient() const override { return true; }
    double score_with_gradient(const dpbo::Surrogate&, const arma::rowvec& x, const dpbo::AcquisitionContext&,
                               arma::rowvec& gradient) const override {
        gradient.set_size(x.n_elem);
        return record(x, &gradient);
    }
    double value(const arma::rowvec& x) const { return f_(x, nullptr); }

    void reset() {
        evaluations = 0;
        lowest_.fill(arma::datum::inf);
        highest_.fill(-arma::datum::inf);
    }
    bool all_inside(const arma::rowvec& lower, const arma::rowvec& upper) const {
        return arma::all(lowest_ >= lower) && arma::all(highest_ <= upper);
    }

    mutable std::size_t evaluations = 0;

private:
    double record(const arma::rowvec& x, arma::rowvec* gradient) const {
        ++evaluations;
        lowest_ = arma::min(lowest_, x);
        highest_ = arma::max(highest_, x);
        return f_(x, gradient);
    }
    Function f_;
    mutable arma::rowvec lowest_, highest_;
};

// −Σ w_j (x_j − c_j)² with c = (0.3, 1.7, −0.4), w = (1, 4, 0.25): one interior maximum, 0 at c.
Landscape bowl() {
    const arma::rowvec centre = {0.3, 1.7, -0.4}, weights = {1.0, 4.0, 0.25};
    return Landscape(3, [=](const arma::rowvec& x, arma::rowvec* gradient) {
        const arma::rowvec offset = x - centre;
        if (gradient) *gradient = -2.0 * weights % offset;
        return -arma::dot(weights, arma::square(offset));
    });
}

// A narrow peak of height 1 (σ = 0.05) at a = (0.8, 0.2) and a broad one of height 0.8 (σ = 0.2)
// at b = (0.3, 0.7) on [0, 1]². Farther than 0.15 from a, the narrow term is below e^{−4.5} <
// 0.012, so a score above 0.812 is only reached within 0.15 of a: the global peak.
constexpr double kGlobalPeakThreshold = 0.812;
Landscape two_peaks() {
    const arma::rowvec a = {0.8, 0.2}, b = {0.3, 0.7};
    return Landscape(2, [=](const arma::rowvec& x, arma::rowvec* gradient) {
        const double narrow = std::exp(-arma::accu(arma::square(x - a)) / (2 * 0.05 * 0.05));
        const double broad = 0.8 * std::exp(-arma::accu(arma::square(x - b)) / (2 * 0.2 * 0.2));
        if (gradient) *gradient = -narrow * (x - a) / (0.05 * 0.05) - broad * (x - b) / (0.2 * 0.2);
        return narrow + broad;
    });
}

// Rosenbrock's valley, negated: L-BFGS cannot finish it in a handful of steps, so a local search
// uses all the evaluations it is allowed.
Landscape valley() {
    return Landscape(2, [](const arma::rowvec& x, arma::rowvec* gradient) {
        const double bend = x(1) - x(0) * x(0);
        if (gradient) *gradient = {400.0 * x(0) * bend + 2.0 * (1.0 - x(0)), -200.0 * bend};
        return -(100.0 * bend * bend + (1.0 - x(0)) * (1.0 - x(0)));
    });
}

// The best score on a uniform grid of at most `budget` points (cell centres): what a search with
// that many evaluations should at least match on a smooth landscape with one basin per region.
double best_on_equal_budget_grid(const Landscape& f, const arma::rowvec& lower, const arma::rowvec& upper,
                                 std::size_t budget) {
    const auto d = lower.n_elem;
    auto side = static_cast<std::size_t>(std::floor(std::pow(static_cast<double>(budget), 1.0 / d) + 1e-9));
    std::size_t count = 1;
    for (arma::uword j = 0; j < d; ++j) count *= side;
    double best = -arma::datum::inf;
    arma::rowvec x(d);
    for (std::size_t k = 0; k < count; ++k) {
        std::size_t rest = k;
        for (arma::uword j = 0; j < d; ++j) {
            x(j) =
                lower(j) + (upper(j) - lower(j)) * (static_cast<double>(rest % side) + 0.5) / static_cast<double>(side);
            rest /= side;
        }
        best = std::max(best, f.value(x));
    }
    return best;
}

struct Named {
    std::string name;
    dpbo::AcquisitionOptimiserSettings settings;
};

// Every strategy at a budget of about 500, as the BO loop's default splits it.
std::vector<Named> strategies_at_500() {
    return {
        {"sweep-local",
         {.strategy = AcquisitionStrategy::SweepLocal,
          .sweep_points = 460,
          .local_starts = 2,
          .local_evaluations = 20}},
        {"multistart",
         {.strategy = AcquisitionStrategy::Multistart,
          .sweep_points = 460,
          .local_starts = 2,
          .local_evaluations = 20}},
        {"direct", {.strategy = AcquisitionStrategy::Direct, .direct_evaluations = 500}},
        {"direct-local",
         {.strategy = AcquisitionStrategy::DirectLocal, .local_evaluations = 20, .direct_evaluations = 480}},
        {"sweep-direct",
         {.strategy = AcquisitionStrategy::SweepDirect, .sweep_points = 300, .direct_evaluations = 200}},
        {"batched-direct", {.strategy = AcquisitionStrategy::BatchedDirect, .direct_evaluations = 500}},
        {"sweep-batched-direct",
         {.strategy = AcquisitionStrategy::SweepBatchedDirect, .sweep_points = 100, .direct_evaluations = 400}},
    };
}

bool uses_local_search(AcquisitionStrategy s) {
    return s == AcquisitionStrategy::SweepLocal || s == AcquisitionStrategy::Multistart ||
           s == AcquisitionStrategy::DirectLocal;
}

// The most evaluations a strategy's settings allow.
std::size_t budget_of(const dpbo::AcquisitionOptimiserSettings& s) {
    switch (s.strategy) {
        case AcquisitionStrategy::SweepLocal:
        case AcquisitionStrategy::Multistart:
            return s.sweep_points + s.local_starts * s.local_evaluations;
        case AcquisitionStrategy::Direct:
            return s.direct_evaluations;
        case AcquisitionStrategy::DirectLocal:
            return s.direct_evaluations + s.local_evaluations;
        case AcquisitionStrategy::BatchedDirect:
            return s.direct_evaluations;
        case AcquisitionStrategy::SweepDirect:
        case AcquisitionStrategy::SweepBatchedDirect:
            return s.sweep_points + s.direct_evaluations;
    }
    return 0;
}

dpbo::BoLoopSettings loop_settings(const std::map<std::string, std::string>& raw) {
    return dpbo::bo_loop_settings(dpbo::validate_parameters(dpbo::bo_loop_schema(60, 10), raw, "algorithm 'gp-ucb'"));
}

}  // namespace

TEST_CASE("acquisition strategies: names round-trip and unknown names are not strategies") {
    const std::vector<std::string> names = dpbo::acquisition_strategy_names();
    CHECK(names == std::vector<std::string>{"sweep-local", "multistart", "direct", "direct-local", "sweep-direct",
                                            "batched-direct", "sweep-batched-direct"});
    for (const std::string& name : names) {
        const auto strategy = dpbo::acquisition_strategy_named(name);
        REQUIRE(strategy.has_value());
        CHECK(dpbo::to_string(*strategy) == name);
    }
    CHECK_FALSE(dpbo::acquisition_strategy_named("DIRECT").has_value());
    CHECK_FALSE(dpbo::acquisition_strategy_named("").has_value());
}

TEST_CASE("acquisition strategies: each finds the bowl's interior maximiser, within its budget and the box") {
    const auto model = any_gp();
    Landscape f = bowl();
    const arma::rowvec lower = {-1.0, -1.0, -1.0}, upper = {2.0, 2.0, 2.0};
    const arma::rowvec centre = {0.3, 1.7, -0.4};
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        f.reset();
        dpbo::ExperimentRng rng(21);
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, rng);
        CHECK(best.evaluations == f.evaluations);
        CHECK(best.evaluations <= budget_of(s.settings));
        CHECK(f.all_inside(lower, upper));
        CHECK(best.score == f.value(best.point));
        if (uses_local_search(s.settings.strategy)) {
            // L-BFGS with the exact gradient of a quadratic converges to its maximiser.
            CHECK(arma::norm(best.point - centre, "inf") < 1e-6);
        } else {
            // Without a local phase: at least as good as a uniform grid of the same budget.
            CHECK(best.score >= best_on_equal_budget_grid(f, lower, upper, budget_of(s.settings)));
        }
    }
}

TEST_CASE("acquisition strategies: each finds the narrow global peak next to a broad local one") {
    const auto model = any_gp();
    Landscape f = two_peaks();
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    // The global maximum is at least the value at the narrow peak's centre.
    const double at_centre = f.value(arma::rowvec{0.8, 0.2});
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        f.reset();
        dpbo::ExperimentRng rng(22);
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, rng);
        CHECK(best.score > kGlobalPeakThreshold);
        CHECK(f.all_inside(lower, upper));
        CHECK(best.evaluations <= budget_of(s.settings));
        // With a local phase, the peak itself; DIRECT alone only resolves it to its last cell.
        if (uses_local_search(s.settings.strategy)) CHECK(best.score >= at_centre - 1e-9);
    }
}

TEST_CASE("acquisition strategies: a maximiser outside the box gives a point on its boundary, never outside") {
    const auto model = any_gp();
    // The bowl's centre (0.3, 1.7, −0.4) lies outside [0, 1]³ in two coordinates.
    Landscape f = bowl();
    const arma::rowvec lower = {0.0, 0.0, 0.0}, upper = {1.0, 1.0, 1.0};
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        f.reset();
        dpbo::ExperimentRng rng(23);
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, rng);
        CHECK(f.all_inside(lower, upper));
        if (uses_local_search(s.settings.strategy))
            CHECK(arma::norm(best.point - arma::rowvec{0.3, 1.0, 0.0}, "inf") < 1e-6);
        else
            CHECK(best.score >= best_on_equal_budget_grid(f, lower, upper, budget_of(s.settings)));
    }
}

TEST_CASE("acquisition strategies: small budgets are respected exactly, also by searches that would go on") {
    const auto model = any_gp();
    Landscape f = valley();
    const arma::rowvec lower = {-2.0, -1.0}, upper = {2.0, 3.0};
    const std::vector<Named> small = {
        {"sweep-local",
         {.strategy = AcquisitionStrategy::SweepLocal, .sweep_points = 10, .local_starts = 2, .local_evaluations = 5}},
        {"multistart",
         {.strategy = AcquisitionStrategy::Multistart,
          .sweep_points = 10,
          .local_starts = 3,
          .local_evaluations = 4,
          .warm_starts = arma::mat{{-1.5, 2.5}, {0.5, 0.5}}}},
        {"direct", {.strategy = AcquisitionStrategy::Direct, .direct_evaluations = 7}},
        {"direct-local",
         {.strategy = AcquisitionStrategy::DirectLocal, .local_evaluations = 5, .direct_evaluations = 7}},
        {"sweep-direct", {.strategy = AcquisitionStrategy::SweepDirect, .sweep_points = 10, .direct_evaluations = 7}},
        {"batched-direct", {.strategy = AcquisitionStrategy::BatchedDirect, .direct_evaluations = 7}},
        {"sweep-batched-direct",
         {.strategy = AcquisitionStrategy::SweepBatchedDirect, .sweep_points = 10, .direct_evaluations = 7}},
    };
    for (const Named& s : small) {
        CAPTURE(s.name);
        f.reset();
        dpbo::ExperimentRng rng(24);
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, rng);
        CHECK(best.evaluations == f.evaluations);
        CHECK(best.evaluations <= budget_of(s.settings));
        // The valley is never finished in so few steps: each phase uses most of what it is given.
        CHECK(best.evaluations >= budget_of(s.settings) - 2);
        CHECK(f.all_inside(lower, upper));
    }
}

TEST_CASE("acquisition strategies: a fixed seed gives the same point, also after other searches in between") {
    const auto model = any_gp();
    Landscape f = two_peaks();
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        dpbo::ExperimentRng first(25), other(26), again(25);
        const dpbo::AcquisitionOptimum a = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, first);
        // DIRECT's random tie breaks come from NLopt's generator, reseeded for every search.
        (void)dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, other);
        const dpbo::AcquisitionOptimum b = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, again);
        CHECK(arma::approx_equal(a.point, b.point, "absdiff", 0.0));
        CHECK(a.score == b.score);
        CHECK(a.evaluations == b.evaluations);
    }
}

TEST_CASE("acquisition strategies: multistart climbs from a warm start the sweep cannot see") {
    const auto model = any_gp();
    Landscape f = two_peaks();
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    // Four sweep points are scored but no local search starts from them (one search, taken by the
    // warm start); the warm start lies in the narrow peak's basin, 0.07 from its centre.
    const dpbo::AcquisitionOptimiserSettings settings{.strategy = AcquisitionStrategy::Multistart,
                                                      .sweep_points = 4,
                                                      .local_starts = 1,
                                                      .local_evaluations = 60,
                                                      .warm_starts = arma::mat{{0.75, 0.25}}};
    dpbo::ExperimentRng rng(27);
    const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, settings, rng);
    CHECK(best.score >= f.value(arma::rowvec{0.8, 0.2}) - 1e-9);
    // A warm start outside the box is moved onto it, never scored outside.
    f.reset();
    dpbo::AcquisitionOptimiserSettings outside = settings;
    outside.warm_starts = arma::mat{{1.4, -0.3}};
    (void)dpbo::maximise_in_box(f, *model, {}, lower, upper, outside, rng);
    CHECK(f.all_inside(lower, upper));
}

TEST_CASE("acquisition strategies: a zero-width dimension stays at its bound for every strategy") {
    const auto model = any_gp();
    Landscape f = two_peaks();
    const arma::rowvec lower = {0.0, 0.2}, upper = {1.0, 0.2};
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        f.reset();
        dpbo::ExperimentRng rng(28);
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, lower, upper, s.settings, rng);
        CHECK(best.point(1) == 0.2);
        CHECK(f.all_inside(lower, upper));
        CHECK(best.score > kGlobalPeakThreshold);
    }
    // A box that is a single point: that point.
    for (const Named& s : strategies_at_500()) {
        CAPTURE(s.name);
        dpbo::ExperimentRng rng(29);
        const arma::rowvec only = {0.8, 0.2};
        const dpbo::AcquisitionOptimum best = dpbo::maximise_in_box(f, *model, {}, only, only, s.settings, rng);
        CHECK(arma::approx_equal(best.point, only, "absdiff", 0.0));
    }
}

TEST_CASE("acquisition strategies: malformed settings are refused by name") {
    const auto model = any_gp();
    Landscape f = two_peaks();
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    dpbo::ExperimentRng rng(30);
    CHECK_THROWS_WITH_AS(dpbo::maximise_in_box(f, *model, {}, lower, upper,
                                               {.strategy = AcquisitionStrategy::Direct, .direct_evaluations = 0}, rng),
                         doctest::Contains("direct_evaluations = 0"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::maximise_in_box(f, *model, {}, lower, upper,
                                               {.strategy = AcquisitionStrategy::Multistart, .sweep_points = 0}, rng),
                         doctest::Contains("sweep_points = 0"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::maximise_in_box(f, *model, {}, lower, upper,
                              {.strategy = AcquisitionStrategy::Multistart, .warm_starts = arma::mat{{0.5, 0.5, 0.5}}},
                              rng),
        doctest::Contains("warm starts have 3 columns"), dpbo::ValidationError);
}

TEST_CASE("bo loop optimiser keys: acquisition_evaluations is split between the phases of each strategy") {
    const dpbo::BoLoopSettings defaults = loop_settings({});
    CHECK(defaults.optimiser.strategy == AcquisitionStrategy::SweepBatchedDirect);
    CHECK(defaults.optimiser.sweep_points + defaults.optimiser.direct_evaluations == 500);
    CHECK(defaults.optimiser.direct_evaluations == 400);

    const dpbo::BoLoopSettings sweep_local = loop_settings({{"optimiser", "sweep-local"}});
    CHECK(sweep_local.optimiser.strategy == AcquisitionStrategy::SweepLocal);
    CHECK(sweep_local.optimiser.sweep_points == 460);  // 460 + 2 × 20
    CHECK(sweep_local.optimiser.local_starts == 2);
    CHECK(sweep_local.optimiser.local_evaluations == 20);

    const dpbo::BoLoopSettings multistart = loop_settings({{"optimiser", "multistart"},
                                                           {"acquisition_evaluations", "300"},
                                                           {"local_starts", "10"},
                                                           {"local_evaluations", "5"}});
    CHECK(multistart.optimiser.strategy == AcquisitionStrategy::Multistart);
    CHECK(multistart.optimiser.sweep_points == 250);

    const dpbo::BoLoopSettings direct = loop_settings({{"optimiser", "direct"}, {"acquisition_evaluations", "123"}});
    CHECK(direct.optimiser.strategy == AcquisitionStrategy::Direct);
    CHECK(direct.optimiser.direct_evaluations == 123);
    CHECK(direct.optimiser.sweep_points == 0);

    const dpbo::BoLoopSettings direct_local =
        loop_settings({{"optimiser", "direct-local"}, {"local_evaluations", "30"}});
    CHECK(direct_local.optimiser.direct_evaluations == 470);
    CHECK(direct_local.optimiser.local_evaluations == 30);

    const dpbo::BoLoopSettings sweep_direct =
        loop_settings({{"optimiser", "sweep-direct"}, {"direct_evaluations", "99"}});
    CHECK(sweep_direct.optimiser.sweep_points == 401);
    CHECK(sweep_direct.optimiser.direct_evaluations == 99);

    const dpbo::BoLoopSettings batched =
        loop_settings({{"optimiser", "batched-direct"}, {"acquisition_evaluations", "77"}});
    CHECK(batched.optimiser.strategy == AcquisitionStrategy::BatchedDirect);
    CHECK(batched.optimiser.direct_evaluations == 77);
    CHECK(batched.optimiser.sweep_points == 0);
}

TEST_CASE("bo loop optimiser keys: bad values are refused naming the key, the value and what is allowed") {
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("gp-ucb", {{"optimiser", "simplex"}}),
                         doctest::Contains("optimiser"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("gp-ei", {{"acquisition_evaluations", "1"}}),
                         doctest::Contains("acquisition_evaluations"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::test::make<dpbo::Algorithm>(
            "gp-ucb", {{"optimiser", "multistart"}, {"local_starts", "25"}, {"local_evaluations", "20"}}),
        doctest::Contains("local_starts × local_evaluations = 25 × 20 leaves no sweep point of "
                          "acquisition_evaluations = 500"),
        dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::test::make<dpbo::Algorithm>("gp-ucb", {{"optimiser", "sweep-direct"}, {"direct_evaluations", "500"}}),
        doctest::Contains("direct_evaluations = 500 leaves no sweep point"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("gp-ucb", {{"direct_evaluations", "600"}}),
                         doctest::Contains("direct_evaluations = 600 leaves no sweep point"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::test::make<dpbo::Algorithm>(
            "gp-ucb", {{"optimiser", "direct-local"}, {"acquisition_evaluations", "20"}, {"local_evaluations", "20"}}),
        doctest::Contains("local_evaluations = 20 leaves DIRECT no evaluation"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("gp-ucb", {{"direct_evaluations", "0"}}),
                         doctest::Contains("direct_evaluations"), dpbo::ValidationError);
}
