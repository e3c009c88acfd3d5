// The `gp` surrogate plugin, loaded through the registry as a user would load it: its schema and
// refusals, that it is the GaussianProcess underneath, and its refit schedule.
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Raw = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Surrogate> surrogate(const Raw& parameters) {
    return dpbo::test::make<dpbo::Surrogate>("gp", parameters);
}

// The message of the ValidationError that creating (and optionally conditioning) the surrogate throws.
std::string refusal(const Raw& parameters, std::size_t dim = 0) {
    try {
        auto gp = surrogate(parameters);
        if (dim > 0) {
            const arma::mat points(3, dim, arma::fill::value(0.5));
            gp->condition(points + arma::randu(3, dim), arma::vec{1.0, 2.0, 3.0});
        }
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "no error";
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

arma::mat points_in(std::size_t n, std::size_t dim, std::uint64_t seed) {
    dpbo::ExperimentRng rng(seed);
    return rng.uniform(n, dim);
}

arma::vec targets_at(const arma::mat& points) {
    return arma::sin(5.0 * points.col(0)) + arma::cos(3.0 * points.col(points.n_cols - 1)) + 1.0;
}

}  // namespace

TEST_CASE("gp surrogate: schema errors name the offending key") {
    CHECK(mentions(refusal({{"kernel", "cubic"}}), "kernel"));
    CHECK(mentions(refusal({{"lengthscale", "0"}}), "lengthscale"));
    CHECK(mentions(refusal({{"signal_variance", "-1"}}), "signal_variance"));
    CHECK(mentions(refusal({{"noise_variance", "-1e-3"}}), "noise_variance"));
    CHECK(mentions(refusal({{"mean", "linear"}}), "mean"));
    CHECK(mentions(refusal({{"kernel", "polynomial"}, {"polynomial_degree", "0"}}), "polynomial_degree"));
    CHECK(mentions(refusal({{"kernel", "polynomial"}, {"polynomial_offset", "0"}}), "polynomial_offset"));
    CHECK(mentions(refusal({{"fit", "marginal-likelihood"}, {"refit_every", "0"}}), "refit_every"));
    CHECK(mentions(refusal({{"fit", "marginal-likelihood"}, {"restarts", "-1"}}), "restarts"));
    CHECK(mentions(refusal({{"fit", "map"}}), "fit"));
    CHECK(mentions(refusal({{"lengthscale_typo", "1"}}), "lengthscale_typo"));
    CHECK(refusal({}) == "no error");
}

TEST_CASE("gp surrogate: settings that would be silently ignored or contradict each other are refused") {
    const std::string restarts = refusal({{"restarts", "5"}});
    CHECK(mentions(restarts, "restarts"));
    CHECK(mentions(restarts, "marginal-likelihood"));
    CHECK(mentions(refusal({{"refit_every", "5"}}), "refit_every"));
    CHECK(mentions(refusal({{"polynomial_degree", "3"}}), "polynomial_degree"));
    CHECK(mentions(refusal({{"kernel", "polynomial"}, {"lengthscale", "0.3"}}), "lengthscale"));
    const std::string contradiction = refusal({{"ard", "false"}, {"lengthscales", "0.3,0.4"}});
    CHECK(mentions(contradiction, "lengthscales"));
    CHECK(mentions(contradiction, "ard"));
    CHECK(mentions(refusal({{"lengthscales", "0.3,0"}}), "lengthscales"));
}

TEST_CASE("gp surrogate: a length-scale list of the wrong length is refused when the data arrive") {
    const std::string message = refusal({{"lengthscales", "0.3,0.4,0.5"}}, 2);
    CHECK(mentions(message, "surrogate.lengthscales"));
    CHECK(mentions(message, "3 entries"));
    CHECK(mentions(message, "dimension 2"));
    CHECK(refusal({{"lengthscales", "0.3,0.4"}}, 2) == "no error");
}

TEST_CASE("gp surrogate: condition, append, truncate and predict are the GaussianProcess's, gradients included") {
    const arma::mat x = points_in(20, 3, 1);
    const arma::vec y = targets_at(x);
    auto gp = surrogate({{"kernel", "matern52"},
                         {"lengthscales", "0.3,0.5,0.7"},
                         {"signal_variance", "1.5"},
                         {"noise_variance", "1e-3"},
                         {"mean", "constant"},
                         {"standardise", "true"}});
    CHECK(gp->size() == 0);
    CHECK(gp->provides_gradients());
    gp->condition(x.rows(0, 11), y.subvec(0, 11));
    gp->append(x.rows(12, 19), y.subvec(12, 19));
    REQUIRE(gp->size() == 20);

    dpbo::gp::KernelSpec spec;
    spec.family = dpbo::gp::KernelFamily::Matern52;
    spec.dim = 3;
    spec.lengthscales = {0.3, 0.5, 0.7};
    spec.signal_variance = 1.5;
    dpbo::gp::GpSettings settings;
    settings.noise_variance = 1e-3;
    settings.mean = dpbo::gp::MeanFunction::Constant;
    settings.standardise = true;
    dpbo::gp::GaussianProcess reference(dpbo::gp::make_kernel(spec), settings);
    reference.condition(x, y);

    const arma::mat queries = points_in(9, 3, 2);
    const dpbo::Posterior a = gp->predict(queries);
    const dpbo::Posterior b = reference.predict(queries);
    CHECK(arma::abs(a.mean - b.mean).max() <= 1e-9);
    CHECK(arma::abs(a.variance - b.variance).max() <= 1e-9);

    const arma::rowvec point = queries.row(0);
    const dpbo::PointPosterior with_gradient = gp->predict_with_gradient(point);
    const auto expected = reference.predict_with_gradient(point);
    CHECK(with_gradient.mean == doctest::Approx(expected.mean).epsilon(1e-9));
    CHECK(arma::abs(with_gradient.mean_gradient - expected.mean_gradient).max() <= 1e-9);
    CHECK(arma::abs(with_gradient.variance_gradient - expected.variance_gradient).max() <= 1e-9);
    CHECK(arma::abs(gp->mean_gradient(point) - reference.mean_gradient(point)).max() <= 1e-9);
    CHECK(arma::abs(gp->mean_gradient_weights(point) - reference.mean_gradient_weights(point)).max() <= 1e-9);
    CHECK(arma::abs(gp->gradient_covariance(point) - reference.gradient_covariance(point)).max() <= 1e-9);
    const arma::mat extra = points_in(2, 3, 3);
    CHECK(arma::abs(gp->gradient_covariance_with(point, extra) - reference.gradient_covariance_with(point, extra))
              .max() <= 1e-9);
    CHECK(arma::approx_equal(gp->lengthscales(), arma::vec{0.3, 0.5, 0.7}, "absdiff", 1e-15));

    gp->truncate(12);
    CHECK(gp->size() == 12);
    dpbo::gp::GaussianProcess first(dpbo::gp::make_kernel(spec), settings);
    first.condition(x.rows(0, 11), y.subvec(0, 11));
    CHECK(arma::abs(gp->predict(queries).mean - first.predict(queries).mean).max() <= 1e-9);

    const std::string description = gp->describe();
    CHECK(mentions(description, "matern52"));
    CHECK(mentions(description, "0.3"));
    CHECK(mentions(description, "noise_variance=0.001"));
    CHECK(description.find('\n') == std::string::npos);

    // One model per surrogate: inputs of another dimension are refused.
    CHECK_THROWS_AS(gp->append(arma::mat{{0.1, 0.2}}, arma::vec{1.0}), dpbo::ValidationError);
}

TEST_CASE("gp surrogate: before any data it predicts the prior and length-scales need the dimension") {
    auto gp = surrogate({{"kernel", "rbf"}, {"lengthscale", "0.4"}, {"signal_variance", "2"}});
    const dpbo::Posterior prior = gp->predict(points_in(4, 2, 5));
    CHECK(arma::all(prior.mean == 0.0));
    CHECK(arma::approx_equal(prior.variance, arma::vec(4, arma::fill::value(2.0)), "absdiff", 0.0));
    CHECK(arma::approx_equal(gp->gradient_covariance({0.5, 0.5}), arma::mat(2.0 / 0.16 * arma::eye(2, 2)), "reldiff",
                             1e-14));
    CHECK_THROWS_AS(gp->lengthscales(), dpbo::RunError);
    CHECK(mentions(gp->describe(), "rbf"));
    gp->truncate(0);
    CHECK_THROWS_AS(gp->truncate(1), dpbo::ValidationError);
}

TEST_CASE("gp surrogate: refit_if_due follows the schedule and fixed hyperparameters never refit") {
    const arma::mat x = points_in(30, 2, 7);
    const arma::vec y = targets_at(x);
    dpbo::ExperimentRng rng(9);

    auto fixed = surrogate({{"lengthscale", "0.5"}});
    CHECK_FALSE(fixed->refit_if_due(rng));
    fixed->condition(x, y);
    CHECK_FALSE(fixed->refit_if_due(rng));
    CHECK(arma::all(fixed->lengthscales() == 0.5));

    auto fitted = surrogate({{"kernel", "rbf"},
                             {"ard", "true"},
                             {"fit", "marginal-likelihood"},
                             {"refit_every", "3"},
                             {"restarts", "1"},
                             {"mean", "constant"},
                             {"standardise", "true"}});
    CHECK_FALSE(fitted->refit_if_due(rng));  // no data yet
    CHECK(mentions(fitted->describe(), "not yet run"));
    fitted->condition(x.rows(0, 19), y.subvec(0, 19));
    const arma::mat queries = points_in(5, 2, 8);
    const arma::vec before = fitted->predict(queries).mean;
    CHECK(fitted->refit_if_due(rng));  // the first call with data
    CHECK(arma::any(arma::abs(fitted->lengthscales() - 1.0) > 1e-3));
    CHECK(arma::abs(fitted->predict(queries).mean - before).max() > 1e-6);
    CHECK_FALSE(fitted->refit_if_due(rng));  // nothing added since
    fitted->append(x.rows(20, 21), y.subvec(20, 21));
    CHECK_FALSE(fitted->refit_if_due(rng));  // 2 of 3
    fitted->append(x.rows(22, 22), y.subvec(22, 22));
    CHECK(fitted->refit_if_due(rng));  // 3 added since the last fit
    CHECK(mentions(fitted->describe(), "2 fits"));
    // Fantasies appended and truncated away are not new data.
    fitted->append(x.rows(23, 24), y.subvec(23, 24));
    fitted->truncate(23);
    fitted->append(x.rows(23, 23), y.subvec(23, 23));
    CHECK_FALSE(fitted->refit_if_due(rng));
}

TEST_CASE("gp surrogate: refit_growth spaces the fits by a fraction of the data, refit_every stays the floor") {
    const arma::mat x = points_in(140, 2, 11);
    const arma::vec y = targets_at(x);
    dpbo::ExperimentRng rng(5);
    const auto fits_while_growing = [&](const std::map<std::string, std::string>& keys) {
        std::map<std::string, std::string> all = {
            {"kernel", "rbf"}, {"fit", "marginal-likelihood"}, {"restarts", "0"}, {"fit_noise", "false"}};
        all.insert(keys.begin(), keys.end());
        auto gp = surrogate(all);
        gp->condition(x.rows(0, 39), y.subvec(0, 39));
        std::vector<std::size_t> sizes;
        if (gp->refit_if_due(rng)) sizes.push_back(40);
        for (arma::uword i = 40; i < x.n_rows; ++i) {
            gp->append(x.rows(i, i), y.subvec(i, i));
            if (gp->refit_if_due(rng)) sizes.push_back(i + 1);
        }
        return sizes;
    };
    // 10 % growth: 40 → 44 → 49 (44 + ⌈4.4⌉) → 54 → 60 → 66 → 73 → 81 → 90 → 99 → 109 → 120 → 132.
    CHECK(fits_while_growing({{"refit_growth", "0.1"}}) ==
          std::vector<std::size_t>{40, 44, 49, 54, 60, 66, 73, 81, 90, 99, 109, 120, 132});
    // refit_every is the floor: 40 → 60 → 80 → …, 10 % of the data never reaching 20 points here.
    CHECK(fits_while_growing({{"refit_growth", "0.1"}, {"refit_every", "20"}}) ==
          std::vector<std::size_t>{40, 60, 80, 100, 120, 140});
    // 0: every refit_every points, as without the schedule.
    CHECK(fits_while_growing({{"refit_growth", "0"}, {"refit_every", "25"}}).size() == 5);
    // A fixed-hyperparameter surrogate refuses the key.
    CHECK_THROWS_AS(surrogate({{"refit_growth", "0.1"}}), dpbo::ValidationError);
}
