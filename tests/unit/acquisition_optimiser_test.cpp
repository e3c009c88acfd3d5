// The core acquisition optimiser: Halton sweeps, multi-start local refinement in a box, the
// exhaustive candidate scan and greedy batches. Landscapes with known maximisers are written here
// as small acquisitions; the `gp` and `ucb` plugins provide a realistic one.
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

// A 1-D GP on two points: only an argument for landscapes that ignore the model, but a real
// surrogate that provides gradients, so the optimiser takes its gradient path.
std::shared_ptr<dpbo::Surrogate> any_gp() {
    auto gp = dpbo::test::make<dpbo::Surrogate>("gp", {{"kernel", "rbf"}, {"lengthscale", "0.5"}, {"fit", "none"}});
    gp->condition(arma::mat{0.2, 0.7}.t(), arma::vec{0.0, 1.0});
    return gp;
}

// −Σ w_j (x_j − c_j)²: maximised at c inside a box, at the projection of c onto a box otherwise.
// Counts every point it scores so the optimiser's evaluation count can be checked.
class Bowl final : public dpbo::Acquisition {
public:
    Bowl(arma::rowvec centre, arma::rowvec weights, bool gradient)
        : centre_(std::move(centre)), weights_(std::move(weights)), gradient_(gradient) {}

    arma::vec score(const dpbo::Surrogate&, const arma::mat& points, const dpbo::AcquisitionContext&) const override {
        evaluations += points.n_rows;
        arma::mat offset = points;
        offset.each_row() -= centre_;
        return -(arma::square(offset) * weights_.t());
    }
    bool provides_gradient() const override { return gradient_; }
    double score_with_gradient(const dpbo::Surrogate&, const arma::rowvec& x, const dpbo::AcquisitionContext&,
                               arma::rowvec& gradient) const override {
        ++evaluations;
        const arma::rowvec offset = x - centre_;
        gradient = -2.0 * weights_ % offset;
        return -arma::dot(weights_, arma::square(offset));
    }

    mutable std::size_t evaluations = 0;

private:
    arma::rowvec centre_;
    arma::rowvec weights_;
    bool gradient_;
};

// A bump at `centre` minus narrow bumps at the pending points: a greedy batch must spread out.
class RepelledBump final : public dpbo::Acquisition {
public:
    explicit RepelledBump(arma::rowvec centre) : centre_(std::move(centre)) {}

    arma::vec score(const dpbo::Surrogate&, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        pending_seen.push_back(context.pending.n_rows);
        arma::vec values(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            double value = std::exp(-arma::accu(arma::square(points.row(i) - centre_)) / 0.5);
            for (arma::uword p = 0; p < context.pending.n_rows; ++p) {
                value -= 2.0 * std::exp(-arma::accu(arma::square(points.row(i) - context.pending.row(p))) / 0.01);
            }
            values(i) = value;
        }
        return values;
    }

    mutable std::vector<std::size_t> pending_seen;

private:
    arma::rowvec centre_;
};

// Fails on its `fail_at`-th gradient evaluation, to check that an exception inside NLopt's
// callback reaches the caller intact and stops the search at once. The landscape is Rosenbrock's
// valley (negated), which L-BFGS cannot finish in a handful of steps.
class FailingAcquisition final : public dpbo::Acquisition {
public:
    explicit FailingAcquisition(std::size_t fail_at) : fail_at_(fail_at) {}
    arma::vec score(const dpbo::Surrogate&, const arma::mat& points, const dpbo::AcquisitionContext&) const override {
        arma::vec values(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) values(i) = -rosenbrock(points(i, 0), points(i, 1));
        return values;
    }
    bool provides_gradient() const override { return true; }
    double score_with_gradient(const dpbo::Surrogate&, const arma::rowvec& x, const dpbo::AcquisitionContext&,
                               arma::rowvec& gradient) const override {
        if (++calls == fail_at_) throw dpbo::RunError("deliberate failure inside the local search");
        const double valley = x(1) - x(0) * x(0);
        gradient = {400.0 * x(0) * valley + 2.0 * (1.0 - x(0)), -200.0 * valley};
        return -rosenbrock(x(0), x(1));
    }

    mutable std::size_t calls = 0;

private:
    static double rosenbrock(double a, double b) { return 100.0 * (b - a * a) * (b - a * a) + (1.0 - a) * (1.0 - a); }
    std::size_t fail_at_;
};

// Scores the first coordinate rounded down to tenths: many exact ties, as on a coarse grid.
class Steps final : public dpbo::Acquisition {
public:
    arma::vec score(const dpbo::Surrogate&, const arma::mat& points, const dpbo::AcquisitionContext&) const override {
        calls += 1;
        return arma::floor(10.0 * points.col(0));
    }
    mutable std::size_t calls = 0;
};

// Primes by a different method than the library (a sieve), for an independent check.
std::vector<std::uint64_t> primes_by_sieve(std::size_t count) {
    std::vector<bool> composite(4000, false);
    std::vector<std::uint64_t> primes;
    for (std::uint64_t n = 2; n < composite.size() && primes.size() < count; ++n) {
        if (composite[n]) continue;
        primes.push_back(n);
        for (std::uint64_t m = n * n; m < composite.size(); m += n) composite[m] = true;
    }
    return primes;
}

// Distance on the circle [0, 1): compares quantities defined modulo 1.
double circular_distance(double a, double b) {
    const double d = std::abs((a - b) - std::round(a - b));
    return d;
}

bool inside(const arma::rowvec& x, const arma::rowvec& lower, const arma::rowvec& upper) {
    return arma::all(x >= lower) && arma::all(x <= upper);
}

}  // namespace

TEST_CASE("acquisition optimiser: halton points are the Halton sequence up to one shift modulo 1") {
    dpbo::ExperimentRng rng(11);
    const arma::mat points = dpbo::halton_points(8, 2, rng);
    REQUIRE(points.n_rows == 8);
    REQUIRE(points.n_cols == 2);
    // Radical inverses of 1..8 in bases 2 and 3.
    const arma::vec base2 = {1.0 / 2, 1.0 / 4, 3.0 / 4, 1.0 / 8, 5.0 / 8, 3.0 / 8, 7.0 / 8, 1.0 / 16};
    const arma::vec base3 = {1.0 / 3, 2.0 / 3, 1.0 / 9, 4.0 / 9, 7.0 / 9, 2.0 / 9, 5.0 / 9, 8.0 / 9};
    for (arma::uword i = 1; i < 8; ++i) {
        CAPTURE(i);
        CHECK(circular_distance(points(i, 0) - points(0, 0), base2(i) - base2(0)) < 1e-12);
        CHECK(circular_distance(points(i, 1) - points(0, 1), base3(i) - base3(0)) < 1e-12);
    }
    CHECK(arma::all(arma::vectorise(points) >= 0.0));
    CHECK(arma::all(arma::vectorise(points) < 1.0));
}

TEST_CASE("acquisition optimiser: halton points use the first d primes as bases, for d in the hundreds") {
    constexpr std::size_t dim = 300;
    const std::vector<std::uint64_t> primes = primes_by_sieve(dim);
    REQUIRE(primes.size() == dim);
    REQUIRE(primes.back() == 1987);  // the 300th prime
    dpbo::ExperimentRng rng(5);
    const arma::mat points = dpbo::halton_points(3, dim, rng);
    for (std::size_t j = 0; j < dim; ++j) {
        CAPTURE(j);
        const double p = static_cast<double>(primes[j]);
        // Indices 1, 2, 3 have radical inverses 1/p, 2/p, 3/p for every p > 3 (and 1/2, 1/4, 3/4 and
        // 1/3, 2/3, 1/9 for the first two bases).
        const double expected = j == 0 ? 0.25 - 0.5 : (j == 1 ? 2.0 / 3 - 1.0 / 3 : 1.0 / p);
        CHECK(circular_distance(points(1, j) - points(0, j), expected) < 1e-12);
    }
}

TEST_CASE("acquisition optimiser: halton shifts are reproducible from the seed and uniform across seeds") {
    dpbo::ExperimentRng first(42), again(42), other(43);
    const arma::mat a = dpbo::halton_points(16, 4, first);
    CHECK(arma::approx_equal(a, dpbo::halton_points(16, 4, again), "absdiff", 0.0));
    CHECK_FALSE(arma::approx_equal(a, dpbo::halton_points(16, 4, other), "absdiff", 1e-3));
    // Under a uniform shift U, the first point's first coordinate (1/2 + U) mod 1 is uniform on
    // [0, 1): mean 1/2, standard error √(1/12 / n). k = 5 standard errors: a false alarm has
    // probability about 6e−7.
    constexpr int seeds = 4000;
    double sum = 0.0;
    for (int s = 0; s < seeds; ++s) {
        dpbo::ExperimentRng rng(static_cast<std::uint64_t>(1000 + s));
        sum += dpbo::halton_points(1, 1, rng)(0, 0);
    }
    const double standard_error = std::sqrt(1.0 / 12.0 / seeds);
    CHECK(std::abs(sum / seeds - 0.5) <= 5.0 * standard_error);
}

TEST_CASE("acquisition optimiser: maximise_in_box finds an interior maximiser with gradients (L-BFGS)") {
    const auto model = any_gp();
    REQUIRE(model->provides_gradients());
    const Bowl bowl({0.3, 1.7, -0.4}, {1.0, 4.0, 0.25}, true);
    dpbo::ExperimentRng rng(3);
    const arma::rowvec lower = {-1.0, -1.0, -1.0}, upper = {2.0, 2.0, 2.0};
    const dpbo::AcquisitionOptimum best =
        dpbo::maximise_in_box(bowl, *model, {}, lower, upper, dpbo::AcquisitionOptimiserSettings{}, rng);
    CHECK(arma::norm(best.point - arma::rowvec{0.3, 1.7, -0.4}, "inf") < 1e-6);
    CHECK(best.score == doctest::Approx(0.0).epsilon(1e-10));
    CHECK(inside(best.point, lower, upper));
    // Every point scored is counted: the sweep plus at most 3 × 30 local evaluations.
    CHECK(best.evaluations == bowl.evaluations);
    CHECK(best.evaluations > 400);
    CHECK(best.evaluations <= 400 + 3 * 30);
}

TEST_CASE("acquisition optimiser: maximise_in_box finds an interior maximiser without gradients (BOBYQA)") {
    const auto model = any_gp();
    const Bowl bowl({0.3, 1.7, -0.4}, {1.0, 4.0, 0.25}, false);
    dpbo::ExperimentRng rng(4);
    const arma::rowvec lower = {-1.0, -1.0, -1.0}, upper = {2.0, 2.0, 2.0};
    const dpbo::AcquisitionOptimum best =
        dpbo::maximise_in_box(bowl, *model, {}, lower, upper, dpbo::AcquisitionOptimiserSettings{}, rng);
    CHECK(arma::norm(best.point - arma::rowvec{0.3, 1.7, -0.4}, "inf") < 1e-4);
    CHECK(best.evaluations == bowl.evaluations);
    CHECK(best.evaluations <= 400 + 3 * 30);
}

TEST_CASE("acquisition optimiser: a maximiser outside the box gives its projection, never a point outside") {
    const auto model = any_gp();
    const arma::rowvec lower = {0.0, 0.0, 0.0}, upper = {1.0, 1.0, 1.0};
    for (const bool gradient : {true, false}) {
        CAPTURE(gradient);
        const Bowl bowl({1.6, -0.3, 0.45}, {1.0, 2.0, 3.0}, gradient);
        dpbo::ExperimentRng rng(8);
        const dpbo::AcquisitionOptimum best =
            dpbo::maximise_in_box(bowl, *model, {}, lower, upper, dpbo::AcquisitionOptimiserSettings{}, rng);
        CHECK(inside(best.point, lower, upper));
        CHECK(arma::norm(best.point - arma::rowvec{1.0, 0.0, 0.45}, "inf") < 1e-4);
    }
}

TEST_CASE("acquisition optimiser: a zero-width dimension stays at its bound while the others are refined") {
    const auto model = any_gp();
    const Bowl bowl({0.2, 0.9}, {1.0, 1.0}, false);
    dpbo::ExperimentRng rng(9);
    const arma::rowvec lower = {0.0, 0.5}, upper = {1.0, 0.5};
    const dpbo::AcquisitionOptimum best =
        dpbo::maximise_in_box(bowl, *model, {}, lower, upper, dpbo::AcquisitionOptimiserSettings{}, rng);
    CHECK(best.point(1) == 0.5);
    CHECK(std::abs(best.point(0) - 0.2) < 1e-4);
}

TEST_CASE("acquisition optimiser: settings bound the work, and no local phase leaves the best sweep point") {
    const auto model = any_gp();
    const Bowl bowl({0.3, 0.6}, {1.0, 1.0}, true);
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    dpbo::ExperimentRng rng(10), replay(10);
    const dpbo::AcquisitionOptimum sweep_only = dpbo::maximise_in_box(
        bowl, *model, {}, lower, upper, {.sweep_points = 50, .local_starts = 0, .local_evaluations = 30}, rng);
    CHECK(sweep_only.evaluations == 50);
    arma::mat sweep = dpbo::halton_points(50, 2, replay);  // the same sweep, from the same seed
    const arma::vec scores = bowl.score(*model, sweep, {});
    CHECK(arma::approx_equal(sweep_only.point, sweep.row(scores.index_max()), "absdiff", 1e-15));
    CHECK(sweep_only.score == scores.max());

    bowl.evaluations = 0;
    const dpbo::AcquisitionOptimum few = dpbo::maximise_in_box(
        bowl, *model, {}, lower, upper, {.sweep_points = 20, .local_starts = 2, .local_evaluations = 5}, rng);
    CHECK(few.evaluations == bowl.evaluations);
    CHECK(few.evaluations <= 20 + 2 * 5);
    CHECK(few.evaluations > 20);
}

TEST_CASE("acquisition optimiser: maximise_in_box reaches the best of a fine grid on a gp conditioned on a bump") {
    // Posterior mean (ucb with β = 0) of a GP that has seen a bump centred at (0.37, 0.61) on a
    // 6 × 6 grid: smooth, with one clear maximum near the bump's centre.
    auto gp = dpbo::test::make<dpbo::Surrogate>(
        "gp", {{"kernel", "rbf"}, {"lengthscale", "0.2"}, {"noise_variance", "1e-6"}, {"fit", "none"}});
    arma::mat data(36, 2);
    arma::vec targets(36);
    for (arma::uword i = 0; i < 6; ++i) {
        for (arma::uword j = 0; j < 6; ++j) {
            const arma::uword k = 6 * i + j;
            data(k, 0) = i / 5.0;
            data(k, 1) = j / 5.0;
            targets(k) =
                std::exp(-(std::pow(data(k, 0) - 0.37, 2) + std::pow(data(k, 1) - 0.61, 2)) / (2 * 0.15 * 0.15));
        }
    }
    gp->condition(data, targets);
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};

    // A 201 × 201 grid scanned exhaustively: its best point is within 0.0025 of the true maximiser
    // in each coordinate, so a true maximum scores at least as well.
    const arma::uword side = 201;
    arma::mat grid(side * side, 2);
    for (arma::uword i = 0; i < side; ++i) {
        for (arma::uword j = 0; j < side; ++j) {
            grid(side * i + j, 0) = i / 200.0;
            grid(side * i + j, 1) = j / 200.0;
        }
    }
    // β = 0: the posterior mean, whose one clear peak the sweep cannot miss. (With a large β the
    // landscape has a σ-bump in every grid cell and the global one among near-equals is not a
    // property a 3-start local search guarantees.)
    const auto ucb = dpbo::test::make<dpbo::Acquisition>("ucb", {{"beta_schedule", "constant"}, {"beta", "0"}});
    dpbo::AcquisitionContext context;
    context.iteration = 37;
    const std::size_t best_on_grid = dpbo::best_candidate(*ucb, *gp, context, grid);
    const double grid_score = ucb->score(*gp, arma::mat(grid.row(best_on_grid)), context)(0);
    dpbo::ExperimentRng rng(12);
    const dpbo::AcquisitionOptimum best =
        dpbo::maximise_in_box(*ucb, *gp, context, lower, upper, dpbo::AcquisitionOptimiserSettings{}, rng);
    CHECK(inside(best.point, lower, upper));
    CHECK(best.score >= grid_score - 1e-9);
    CHECK(best.score == doctest::Approx(ucb->score(*gp, arma::mat(best.point), context)(0)).epsilon(1e-12));
    CHECK(arma::norm(best.point - grid.row(best_on_grid), "inf") <= 0.01);
}

TEST_CASE("acquisition optimiser: an exception inside the local search reaches the caller") {
    const auto model = any_gp();
    const FailingAcquisition failing(3);
    dpbo::ExperimentRng rng(13);
    CHECK_THROWS_WITH_AS(dpbo::maximise_in_box(failing, *model, {}, arma::rowvec{-2.0, -1.0}, arma::rowvec{2.0, 3.0},
                                               dpbo::AcquisitionOptimiserSettings{}, rng),
                         doctest::Contains("deliberate failure"), dpbo::RunError);
    // NLopt was stopped at the failure: no evaluation after it, and no further local start.
    CHECK(failing.calls == 3);
}

TEST_CASE("acquisition optimiser: malformed boxes are refused") {
    const auto model = any_gp();
    const Bowl bowl({0.0, 0.0}, {1.0, 1.0}, true);
    dpbo::ExperimentRng rng(1);
    const dpbo::AcquisitionOptimiserSettings settings;
    CHECK_THROWS_AS(dpbo::maximise_in_box(bowl, *model, {}, arma::rowvec{0.0, 0.0}, arma::rowvec{1.0}, settings, rng),
                    dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::maximise_in_box(bowl, *model, {}, arma::rowvec{0.0, 2.0}, arma::rowvec{1.0, 1.0}, settings, rng),
        doctest::Contains("dimension 1"), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::maximise_in_box(bowl, *model, {}, arma::rowvec{0.0, 0.0}, arma::rowvec{1.0, arma::datum::inf},
                                          settings, rng),
                    dpbo::ValidationError);
}

// A surrogate that only reports its size: best_candidate scores a set whole while
// candidates × (size + 1) stays within 2^24 entries and in chunks of 4096 rows beyond, and the test
// acquisitions here (Bowl, Steps) never read the model.
class SizedModel final : public dpbo::Surrogate {
public:
    explicit SizedModel(std::size_t size) : size_(size) {}
    void condition(const arma::mat&, const arma::vec&) override {}
    void append(const arma::mat&, const arma::vec&) override {}
    void truncate(std::size_t) override {}
    std::size_t size() const override { return size_; }
    dpbo::Posterior predict(const arma::mat&) const override {
        FAIL("the test acquisitions never predict");
        return {};
    }
    std::string describe() const override { return "a surrogate of a given size, for tests"; }

private:
    std::size_t size_;
};

TEST_CASE("acquisition optimiser: best_candidate is the argmax of an exhaustive scan, whole or in chunks") {
    dpbo::ExperimentRng rng(14);
    const arma::mat candidates = rng.uniform(10000, 3);
    const Bowl bowl({0.5, 0.25, 0.75}, {1.0, 2.0, 3.0}, false);
    const arma::vec scores = bowl.score(*any_gp(), candidates, {});
    std::vector<bool> excluded(10000, false);
    excluded[scores.index_max()] = true;
    arma::vec without = scores;
    without(scores.index_max()) = -arma::datum::inf;
    for (const std::size_t size : {std::size_t{2}, std::size_t{5000}}) {
        CAPTURE(size);
        const SizedModel model(size);
        bowl.evaluations = 0;
        CHECK(dpbo::best_candidate(bowl, model, {}, candidates) == scores.index_max());
        CHECK(bowl.evaluations == 10000);
        bowl.evaluations = 0;
        CHECK(dpbo::best_candidate(bowl, model, {}, candidates, excluded) == without.index_max());
        // Whole: excluded rows are scored and passed over (the set stays the same matrix, whose
        // posterior a GP extends); in chunks they are left out.
        CHECK(bowl.evaluations == (size == 2 ? 10000 : 9999));
    }
}

TEST_CASE("acquisition optimiser: best_candidate keeps the lowest index among ties, whole or across chunks") {
    arma::mat candidates(10000, 1, arma::fill::zeros);
    candidates(5000, 0) = 0.95;  // second chunk
    candidates(9000, 0) = 0.97;  // third chunk, same score floor(9.7) = floor(9.5) = 9
    candidates(3, 0) = 0.55;
    for (const std::size_t size : {std::size_t{2}, std::size_t{5000}}) {
        CAPTURE(size);
        const SizedModel model(size);
        const Steps steps;
        CHECK(dpbo::best_candidate(steps, model, {}, candidates) == 5000);
        CHECK(steps.calls == (size == 2 ? 1 : 3));  // one batch, or chunks of at most 4096 rows
        std::vector<bool> excluded(10000, false);
        excluded[5000] = true;
        CHECK(dpbo::best_candidate(steps, model, {}, candidates, excluded) == 9000);
        excluded[9000] = true;
        CHECK(dpbo::best_candidate(steps, model, {}, candidates, excluded) == 3);
        // All zeros tie at score 0 once the three larger rows are gone: the lowest index wins.
        excluded[3] = true;
        CHECK(dpbo::best_candidate(steps, model, {}, candidates, excluded) == 0);
    }
}

TEST_CASE("acquisition optimiser: best_candidate refuses when nothing can be chosen") {
    const auto model = any_gp();
    const Steps steps;
    const arma::mat candidates(5, 1, arma::fill::randu);
    CHECK_THROWS_WITH_AS(dpbo::best_candidate(steps, *model, {}, candidates, std::vector<bool>(5, true)),
                         doctest::Contains("all 5 candidates are excluded"), dpbo::RunError);
    CHECK_THROWS_AS(dpbo::best_candidate(steps, *model, {}, arma::mat(0, 1)), dpbo::RunError);
    CHECK_THROWS_AS(dpbo::best_candidate(steps, *model, {}, candidates, std::vector<bool>(4, false)),
                    dpbo::ValidationError);
}

TEST_CASE("acquisition optimiser: a greedy batch sees its earlier choices and returns distinct points") {
    const auto model = any_gp();
    const RepelledBump bump({0.4, 0.6});
    dpbo::ExperimentRng rng(15);
    const arma::rowvec lower = {0.0, 0.0}, upper = {1.0, 1.0};
    const dpbo::AcquisitionOptimiserSettings settings{.sweep_points = 200, .local_starts = 2, .local_evaluations = 40};
    const arma::mat batch = dpbo::greedy_batch_in_box(bump, *model, {}, 4, lower, upper, settings, rng);
    REQUIRE(batch.n_rows == 4);
    REQUIRE(batch.n_cols == 2);
    // The first choice ignores the others: the bump's centre.
    CHECK(arma::norm(batch.row(0) - arma::rowvec{0.4, 0.6}, "inf") < 1e-3);
    for (arma::uword i = 0; i < 4; ++i) {
        CHECK(inside(batch.row(i), lower, upper));
        for (arma::uword j = 0; j < i; ++j) {
            CAPTURE(i);
            CAPTURE(j);
            // Within 0.1 of an earlier choice a point scores at most 1 − 2e^{-1} ≈ 0.26, while points
            // 0.25 from the centre and 0.2 from every earlier choice still score at least e^{-1/8} − 3·2e^{-4} ≈ 0.77.
            CHECK(arma::norm(batch.row(i) - batch.row(j), 2) > 0.1);
        }
    }
    // Every call of the first maximisation saw no pending points, the last saw three.
    REQUIRE_FALSE(bump.pending_seen.empty());
    CHECK(bump.pending_seen.front() == 0);
    CHECK(bump.pending_seen.back() == 3);
}
