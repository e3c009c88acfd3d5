#include <doctest/doctest.h>

#include <algorithm>

#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/random.hpp"

namespace {

dpbo::gp::GaussianProcess make_gp(bool standardise) {
    dpbo::gp::KernelSpec spec;
    spec.family = dpbo::gp::KernelFamily::Matern52;
    spec.dim = 3;
    spec.lengthscales = arma::vec{0.4, 0.7, 1.1};
    dpbo::gp::GpSettings settings;
    settings.noise_variance = 1e-3;
    settings.mean = standardise ? dpbo::gp::MeanFunction::Constant : dpbo::gp::MeanFunction::Zero;
    settings.standardise = standardise;
    return dpbo::gp::GaussianProcess(dpbo::gp::make_kernel(spec), settings);
}

// The cached posterior at `queries` must equal that of a GP that never saw them before.
void check_matches_fresh(const dpbo::gp::GaussianProcess& gp, const arma::mat& queries) {
    auto fresh = make_gp(gp.settings().standardise);
    fresh.kernel().set_log_hyperparameters(gp.kernel().log_hyperparameters());
    fresh.set_noise_variance(gp.noise_variance());
    fresh.condition(gp.points(), gp.targets());
    const dpbo::Posterior cached = gp.predict(queries);
    const dpbo::Posterior expected = fresh.predict(queries);
    CHECK(arma::approx_equal(cached.mean, expected.mean, "absdiff", 1e-10));
    CHECK(arma::approx_equal(cached.variance, expected.variance, "absdiff", 1e-10));
}

}  // namespace

TEST_CASE("gp query cache: repeated predictions at one query set stay exact through appends, truncates and refits") {
    for (const bool standardise : {false, true}) {
        CAPTURE(standardise);
        dpbo::ExperimentRng rng(17);
        const arma::mat queries = rng.uniform(64, 3);
        const arma::mat x = rng.uniform(40, 3);
        const arma::vec y = arma::sin(3.0 * x.col(0)) + x.col(1) % x.col(2);
        auto gp = make_gp(standardise);
        gp.condition(x.rows(0, 9), y.subvec(0, 9));
        check_matches_fresh(gp, queries);  // fills the cache
        for (arma::uword i = 10; i < 20; ++i) {
            gp.append(x.row(i), y.subvec(i, i));
            check_matches_fresh(gp, queries);  // one new row per call
        }
        gp.append(x.rows(20, 24), y.subvec(20, 24));
        gp.append(x.rows(25, 27), y.subvec(25, 27));
        check_matches_fresh(gp, queries);  // several rows at once
        gp.truncate(22);
        gp.append(x.rows(30, 31), y.subvec(30, 31));  // new points where dropped ones were
        check_matches_fresh(gp, queries);
        gp.kernel().set_log_hyperparameters(gp.kernel().log_hyperparameters() + 0.2);
        gp.refactorise();
        check_matches_fresh(gp, queries);  // a new factor invalidates the cache
        // A single-point prediction does not evict the cached query set, and is exact itself.
        check_matches_fresh(gp, queries.row(5));
        gp.append(x.row(35), y.subvec(35, 35));
        check_matches_fresh(gp, queries);
    }
}

TEST_CASE("gp query cache: appends past the room it keeps grow it with the columns in use intact") {
    // Filled at 10 points, the cache has room for 64 more (cache_capacity); 100 appends, one or a few
    // at a time, grow it at least once, and the posterior before and after each growth is exact.
    dpbo::ExperimentRng rng(23);
    const arma::mat queries = rng.uniform(40, 3);
    const arma::mat x = rng.uniform(110, 3);
    const arma::vec y = arma::cos(2.0 * x.col(0)) + x.col(2);
    auto gp = make_gp(true);
    gp.condition(x.rows(0, 9), y.subvec(0, 9));
    check_matches_fresh(gp, queries);
    arma::uword next = 10;
    while (next < x.n_rows) {
        const arma::uword count = next % 7 == 0 ? 3 : 1;  // mostly single appends, some batches
        const arma::uword last = std::min<arma::uword>(next + count, x.n_rows) - 1;
        gp.append(x.rows(next, last), y.subvec(next, last));
        next = last + 1;
        if (next >= 70 || next % 10 == 0)
            check_matches_fresh(gp, queries);
        else
            (void)gp.predict(queries);  // keeps the cache current, as a BO loop's steps do
    }
}

TEST_CASE("gp query cache: a cached set's posterior is each point's own, in a kernel of every dimension") {
    // The cache computes K(Q, D) by differences and solves from the right, one query per row; a
    // single point goes through K(D, q) and the forward solve. Both must give one posterior.
    for (const std::size_t dim : {1, 3, 16, 17}) {
        CAPTURE(dim);
        dpbo::ExperimentRng rng(18);
        dpbo::gp::KernelSpec spec;
        spec.family = dim % 2 == 0 ? dpbo::gp::KernelFamily::SquaredExponential : dpbo::gp::KernelFamily::Matern52;
        spec.dim = dim;
        spec.lengthscales = arma::vec(rng.uniform(dim, 1)) + 0.5;
        dpbo::gp::GpSettings settings;
        settings.noise_variance = 1e-4;
        dpbo::gp::GaussianProcess gp(dpbo::gp::make_kernel(spec), settings);
        const arma::mat x = rng.uniform(30, dim);
        gp.condition(x, arma::vec(arma::sum(arma::sin(3.0 * x), 1)));
        const arma::mat queries = rng.uniform(40, dim);
        for (int step = 0; step < 2; ++step) {
            const dpbo::Posterior together = gp.predict(queries);
            for (arma::uword i = 0; i < queries.n_rows; ++i) {
                const dpbo::Posterior alone = gp.predict(queries.row(i));
                CHECK(together.mean[i] == doctest::Approx(alone.mean[0]).epsilon(1e-11));
                CHECK(together.variance[i] == doctest::Approx(alone.variance[0]).epsilon(1e-9).scale(1e-6));
            }
            gp.append(queries.row(0) * 0.5, arma::vec{0.3});  // the second pass goes through an append
        }
    }
}

TEST_CASE("gp point pool: small batches scored again stay exact through appends, truncates and refits") {
    // Batches below the query cache's 32 rows go to the point pool (from 128 observations on), which
    // remembers each point's column of L⁻¹K(D, q) and adds only the new observations' entries when
    // the point comes back. B is the size of the data the pool sees first.
    constexpr arma::uword B = 130;
    for (const bool standardise : {false, true}) {
        CAPTURE(standardise);
        dpbo::ExperimentRng rng(23);
        const arma::mat pool_points = rng.uniform(12, 3);
        const arma::mat x = rng.uniform(B + 60, 3);
        const arma::vec y = arma::cos(2.0 * x.col(1)) + x.col(0) % x.col(2);
        auto gp = make_gp(standardise);
        gp.condition(x.rows(0, B + 9), y.subvec(0, B + 9));
        check_matches_fresh(gp, pool_points.rows(0, 5));  // remembered
        for (arma::uword i = B + 10; i < B + 16; ++i) {
            gp.append(x.row(i), y.subvec(i, i));
            // Old points (one new entry each), new points, and a point twice in one batch.
            const arma::mat mixed = arma::join_cols(pool_points.rows(3, 8), pool_points.row(4));
            check_matches_fresh(gp, mixed);
        }
        gp.append(x.rows(B + 16, B + 25), y.subvec(B + 16, B + 25));  // ten entries at once
        check_matches_fresh(gp, pool_points);
        // Points last seen at different sizes extend from different rows in one call.
        gp.append(x.row(B + 26), y.subvec(B + 26, B + 26));
        check_matches_fresh(gp, pool_points.rows(0, 1));
        gp.append(x.row(B + 27), y.subvec(B + 27, B + 27));
        check_matches_fresh(gp, pool_points);
        // Truncated below where points were remembered, then other points appended at those indices.
        gp.truncate(B + 20);
        check_matches_fresh(gp, pool_points.rows(0, 2));
        gp.append(x.rows(B + 40, B + 44), y.subvec(B + 40, B + 44));
        check_matches_fresh(gp, pool_points);
        gp.truncate(B + 24);
        check_matches_fresh(gp, pool_points.rows(6, 9));  // cut, not extended: the norm is recomputed
        gp.kernel().set_log_hyperparameters(gp.kernel().log_hyperparameters() - 0.1);
        gp.refactorise();
        check_matches_fresh(gp, pool_points);  // a new factor forgets every column
    }
}

TEST_CASE("gp point pool: more distinct points than it holds are still scored exactly") {
    dpbo::ExperimentRng rng(29);
    const arma::mat x = rng.uniform(150, 3);
    const arma::vec y = arma::sin(4.0 * x.col(2));
    auto gp = make_gp(true);
    gp.condition(x.rows(0, 139), y.subvec(0, 139));
    const arma::mat many = rng.uniform(5000, 3);  // past its 4096 points: the least recently used go
    for (arma::uword first = 0; first < many.n_rows; first += 25)
        gp.predict(many.rows(first, std::min<arma::uword>(many.n_rows, first + 25) - 1));
    gp.append(x.rows(140, 141), y.subvec(140, 141));
    check_matches_fresh(gp, many.rows(0, 20));       // forgotten: solved afresh
    check_matches_fresh(gp, many.rows(4980, 4999));  // remembered: extended
}

TEST_CASE("gp point pool: remembered points stay exact as the data outgrow the pool's storage") {
    // The pool's columns have room for twice the data it first saw; past that every kept column is
    // copied into larger storage, so points remembered before must come back exact after it.
    dpbo::ExperimentRng rng(37);
    const arma::mat x = rng.uniform(300, 3);
    const arma::vec y = arma::cos(5.0 * x.col(1)) + x.col(2);
    auto gp = make_gp(false);
    gp.condition(x.rows(0, 129), y.subvec(0, 129));
    const arma::mat remembered = rng.uniform(10, 3);
    check_matches_fresh(gp, remembered);
    for (arma::uword first = 130; first < 300; first += 17) {
        const arma::uword last = std::min<arma::uword>(299, first + 16);
        gp.append(x.rows(first, last), y.subvec(first, last));
        check_matches_fresh(gp, remembered.rows(0, 4));  // half the points each time: some lag behind
    }
    check_matches_fresh(gp, remembered);
}

TEST_CASE("gp: a factorisation of many points (built with room for appends) matches one built whole") {
    // From 2048 points the factor is built in a larger matrix, the Gram matrix a block at a time.
    dpbo::ExperimentRng rng(31);
    const arma::mat x = rng.uniform(2100, 3);
    const arma::vec y = arma::sin(3.0 * x.col(0)) - x.col(1);
    auto large = make_gp(true);
    large.condition(x.rows(0, 2059), y.subvec(0, 2059));
    large.append(x.rows(2060, 2099), y.subvec(2060, 2099));
    const arma::mat queries = rng.uniform(40, 3);
    auto grown = make_gp(true);
    grown.condition(x.rows(0, 999), y.subvec(0, 999));
    grown.append(x.rows(1000, 2099), y.subvec(1000, 2099));
    const dpbo::Posterior a = large.predict(queries);
    const dpbo::Posterior b = grown.predict(queries);
    CHECK(arma::approx_equal(a.mean, b.mean, "absdiff", 1e-8));
    CHECK(arma::approx_equal(a.variance, b.variance, "absdiff", 1e-8));
    CHECK(std::abs(large.log_marginal_likelihood() - grown.log_marginal_likelihood()) <
          1e-6 * std::abs(grown.log_marginal_likelihood()));
}
