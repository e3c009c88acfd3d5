#include <doctest/doctest.h>

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
