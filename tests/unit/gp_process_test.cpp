// GaussianProcess: the posterior against the closed form computed naively (explicit inverses are
// fine here, as the independent reference), gradients against finite differences, the block
// updates against full refits, and the documented refusals.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/kernel.hpp"

namespace {

using dpbo::gp::GaussianProcess;
using dpbo::gp::GpSettings;
using dpbo::gp::KernelFamily;
using dpbo::gp::KernelSpec;
using dpbo::gp::MeanFunction;

struct NamedSpec {
    std::string name;
    KernelSpec spec;
};

std::vector<NamedSpec> all_kernels(std::size_t dim) {
    std::vector<NamedSpec> kernels;
    KernelSpec spec;
    spec.dim = dim;
    spec.signal_variance = 1.3;
    spec.family = KernelFamily::SquaredExponential;
    spec.lengthscales = {0.4};
    kernels.push_back({"squared exponential, isotropic", spec});
    spec.lengthscales = arma::linspace(0.3, 0.6, dim);
    kernels.push_back({"squared exponential, ARD", spec});
    spec.family = KernelFamily::Matern52;
    spec.lengthscales = {0.4};
    kernels.push_back({"Matérn 5/2, isotropic", spec});
    spec.lengthscales = arma::linspace(0.3, 0.6, dim);
    kernels.push_back({"Matérn 5/2, ARD", spec});
    spec.family = KernelFamily::Polynomial;
    spec.polynomial_offset = 0.7;
    spec.polynomial_degree = 3;
    kernels.push_back({"polynomial, degree 3", spec});
    return kernels;
}

GpSettings settings_with(double noise, MeanFunction mean, bool standardise) {
    GpSettings settings;
    settings.noise_variance = noise;
    settings.mean = mean;
    settings.standardise = standardise;
    return settings;
}

GaussianProcess make_gp(const KernelSpec& spec, const GpSettings& settings) {
    return GaussianProcess(dpbo::gp::make_kernel(spec), settings);
}

// A smooth, non-trivial function of the inputs.
arma::vec targets_at(const arma::mat& points) {
    arma::vec y(points.n_rows);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const arma::rowvec x = points.row(i);
        y[i] = std::sin(3.0 * x[0]) + 0.5 * std::cos(2.0 * x[x.n_elem - 1]) + 0.3 * arma::accu(x) + 2.0;
    }
    return y;
}

arma::mat data_points(std::size_t n, std::size_t dim, unsigned seed) {
    arma::arma_rng::set_seed(seed);
    return arma::randu(n, dim);
}

// The posterior as Rasmussen & Williams (2006, ch. 2) write it, with the documented offset and scale,
// through explicit inverses.
struct ClosedForm {
    ClosedForm(const KernelSpec& spec, const GpSettings& settings, const arma::mat& x, const arma::vec& y)
        : kernel(dpbo::gp::make_kernel(spec)), points(x) {
        offset = settings.mean == MeanFunction::Constant ? arma::mean(y) : 0.0;
        scale = settings.standardise ? arma::stddev(y) : 1.0;
        noisy_gram = kernel->cross(x, x) + settings.noise_variance * arma::eye(x.n_rows, x.n_rows);
        inverse = arma::inv(noisy_gram);
        weights = inverse * ((y - offset) / scale);
        centred = (y - offset) / scale;
    }
    double mean(const arma::rowvec& x) const {
        return offset + scale * arma::as_scalar(kernel->cross(x, points) * weights);
    }
    double covariance(const arma::rowvec& x, const arma::rowvec& z) const {
        return scale * scale *
               arma::as_scalar(kernel->cross(x, z) - kernel->cross(x, points) * inverse * kernel->cross(points, z));
    }
    arma::mat gradient_covariance(const arma::rowvec& x) const {
        const arma::mat g = kernel->cross_gradient(x, points);
        return scale * scale * (kernel->gradient_prior_covariance(x) - g * inverse * g.t());
    }
    double log_likelihood() const {
        double sign = 0.0;
        double log_det = 0.0;
        arma::log_det(log_det, sign, noisy_gram);
        return -0.5 * arma::dot(centred, weights) - 0.5 * log_det -
               0.5 * static_cast<double>(centred.n_elem) * std::log(2.0 * arma::datum::pi);
    }

    std::unique_ptr<dpbo::gp::Kernel> kernel;
    arma::mat points;
    double offset = 0.0;
    double scale = 1.0;
    arma::mat noisy_gram;
    arma::mat inverse;
    arma::vec weights;
    arma::vec centred;
};

// Central differences with the Richardson error estimate (see gp_kernel_test.cpp): the tolerance
// is |D(h) − D(h/2)|, three times the estimated O(h²) truncation error of D(h/2), plus a floor
// for rounding: posterior quantities here carry ~1e-13 absolute error (condition numbers ~1e2–1e3
// with noise 1e-2), divided by 2h = 1e-3 → ~1e-10; the floor is 1e-8.
struct Difference {
    double estimate;
    double tolerance;
};

Difference central_difference(const std::function<double(double)>& f, double step = 1e-3, double floor = 1e-8) {
    const auto quotient = [&](double h) { return (f(h) - f(-h)) / (2.0 * h); };
    const double coarse = quotient(step);
    const double fine = quotient(step / 2.0);
    return {fine, std::abs(coarse - fine) + floor};
}

}  // namespace

TEST_CASE("the posterior mean and variance equal the closed form on small cases, for every kernel and mean") {
    const arma::mat x = data_points(8, 2, 11);
    const arma::vec y = targets_at(x);
    const arma::mat queries = data_points(6, 2, 12);
    const std::vector<GpSettings> variants = {settings_with(1e-2, MeanFunction::Zero, false),
                                              settings_with(1e-2, MeanFunction::Constant, true),
                                              settings_with(1e-3, MeanFunction::Zero, true)};
    for (const auto& [name, spec] : all_kernels(2)) {
        for (const GpSettings& settings : variants) {
            INFO(name << ", constant mean " << (settings.mean == MeanFunction::Constant) << ", standardise "
                      << settings.standardise);
            GaussianProcess gp = make_gp(spec, settings);
            gp.condition(x, y);
            const ClosedForm reference(spec, settings, x, y);
            CHECK(gp.target_offset() == doctest::Approx(reference.offset).epsilon(1e-14));
            CHECK(gp.target_scale() == doctest::Approx(reference.scale).epsilon(1e-14));
            const dpbo::Posterior posterior = gp.predict(queries);
            REQUIRE(posterior.mean.n_elem == queries.n_rows);
            REQUIRE(posterior.variance.n_elem == queries.n_rows);
            for (arma::uword i = 0; i < queries.n_rows; ++i) {
                CHECK(posterior.mean[i] == doctest::Approx(reference.mean(queries.row(i))).epsilon(1e-9));
                const double variance = reference.covariance(queries.row(i), queries.row(i));
                CHECK(std::abs(posterior.variance[i] - variance) <= 1e-9 * (1.0 + variance));
            }
            CHECK(gp.log_marginal_likelihood() == doctest::Approx(reference.log_likelihood()).epsilon(1e-9));
            // At the data, with little noise, the mean nearly interpolates.
            const dpbo::Posterior at_data = gp.predict(x);
            CHECK(arma::abs(at_data.mean - y).max() < 0.2);
            CHECK(arma::all(at_data.variance >= 0.0));
        }
    }
}

TEST_CASE("predict_with_gradient and mean_gradient match differences of the posterior mean and variance") {
    const arma::mat x = data_points(9, 3, 21);
    const arma::vec y = targets_at(x);
    const arma::rowvec point = {0.45, 0.3, 0.6};
    for (const auto& [name, spec] : all_kernels(3)) {
        INFO(name);
        GaussianProcess gp = make_gp(spec, settings_with(1e-2, MeanFunction::Constant, true));
        gp.condition(x, y);
        const GaussianProcess::PointPrediction prediction = gp.predict_with_gradient(point);
        const dpbo::Posterior at_point = gp.predict(arma::mat(point));
        CHECK(prediction.mean == doctest::Approx(at_point.mean[0]).epsilon(1e-12));
        CHECK(prediction.variance == doctest::Approx(at_point.variance[0]).epsilon(1e-10));
        const arma::vec mean_gradient = gp.mean_gradient(point);
        REQUIRE(mean_gradient.n_elem == 3);
        REQUIRE(prediction.variance_gradient.n_elem == 3);
        for (arma::uword j = 0; j < 3; ++j) {
            const auto moved = [&](double h) {
                arma::mat shifted = point;
                shifted(0, j) += h;
                return gp.predict(shifted);
            };
            const Difference mean = central_difference([&](double h) { return moved(h).mean[0]; });
            const Difference variance = central_difference([&](double h) { return moved(h).variance[0]; });
            INFO("coordinate " << j);
            CHECK(std::abs(mean_gradient[j] - mean.estimate) <= mean.tolerance);
            CHECK(std::abs(prediction.mean_gradient[j] - mean.estimate) <= mean.tolerance);
            CHECK(std::abs(prediction.variance_gradient[j] - variance.estimate) <= variance.tolerance);
        }
    }
}

TEST_CASE("the posterior gradient covariance equals the closed form and differences of the posterior covariance") {
    const arma::mat x = data_points(7, 2, 31);
    const arma::vec y = targets_at(x);
    const arma::rowvec point = {0.4, 0.55};
    for (const auto& [name, spec] : all_kernels(2)) {
        INFO(name);
        const GpSettings settings = settings_with(1e-2, MeanFunction::Zero, true);
        GaussianProcess gp = make_gp(spec, settings);
        gp.condition(x, y);
        const ClosedForm reference(spec, settings, x, y);
        const arma::mat covariance = gp.gradient_covariance(point);
        REQUIRE(covariance.n_rows == 2);
        REQUIRE(covariance.n_cols == 2);
        const arma::mat expected = reference.gradient_covariance(point);
        CHECK(arma::abs(covariance - expected).max() <= 1e-9 * (1.0 + arma::abs(expected).max()));
        CHECK(arma::approx_equal(covariance, covariance.t(), "absdiff", 0.0));

        // Σ∇ = ∂²c(x, x')/∂x∂x'ᵀ at x' = x for the closed-form posterior covariance c. Mixed second
        // differences with h = 2e-3 (Richardson tolerance as above; the rounding of c, ~1e-14, is
        // divided by 4h² = 4e-6 here, hence the floor 1e-6).
        for (arma::uword i = 0; i < 2; ++i) {
            for (arma::uword j = 0; j < 2; ++j) {
                const auto mixed = [&](double h) {
                    arma::rowvec plus_i = point;
                    arma::rowvec minus_i = point;
                    plus_i[i] += h;
                    minus_i[i] -= h;
                    arma::rowvec plus_j = point;
                    arma::rowvec minus_j = point;
                    plus_j[j] += h;
                    minus_j[j] -= h;
                    return (reference.covariance(plus_i, plus_j) - reference.covariance(plus_i, minus_j) -
                            reference.covariance(minus_i, plus_j) + reference.covariance(minus_i, minus_j)) /
                           (4.0 * h * h);
                };
                const double coarse = mixed(2e-3);
                const double fine = mixed(1e-3);
                INFO("entry (" << i << ", " << j << ")");
                CHECK(std::abs(covariance(i, j) - fine) <= std::abs(coarse - fine) + 1e-6);
            }
        }
    }
}

TEST_CASE("gradient_covariance_with equals the gradient covariance of a GP conditioned on the extra points too") {
    const arma::mat x = data_points(10, 3, 41);
    const arma::vec y = targets_at(x);
    const arma::rowvec point = {0.5, 0.4, 0.35};
    for (const auto& [name, spec] : all_kernels(3)) {
        for (const arma::uword extra_count : {1u, 3u}) {
            INFO(name << ", " << extra_count << " extra points");
            const arma::mat extra = data_points(extra_count, 3, 42 + extra_count);
            const GpSettings settings = settings_with(1e-3, MeanFunction::Zero, false);
            GaussianProcess gp = make_gp(spec, settings);
            gp.condition(x, y);
            GaussianProcess bigger = make_gp(spec, settings);
            // The values at the extra points never enter Σ∇; any will do.
            bigger.condition(arma::join_cols(x, extra), arma::join_cols(y, arma::vec(extra_count, arma::fill::ones)));
            const arma::mat expected = bigger.gradient_covariance(point);
            const arma::mat with = gp.gradient_covariance_with(point, extra);
            CHECK(arma::abs(with - expected).max() <= 1e-9);
            // The GP itself is unchanged.
            CHECK(gp.size() == x.n_rows);
        }
    }
    // With no data at all the block update starts from the prior.
    KernelSpec spec;
    spec.dim = 2;
    spec.lengthscales = {0.5};
    GaussianProcess empty = make_gp(spec, settings_with(1e-3, MeanFunction::Zero, false));
    const arma::mat extra = data_points(4, 2, 47);
    GaussianProcess full = make_gp(spec, settings_with(1e-3, MeanFunction::Zero, false));
    full.condition(extra, arma::zeros(4));
    CHECK(arma::abs(empty.gradient_covariance_with({0.3, 0.3}, extra) - full.gradient_covariance({0.3, 0.3})).max() <=
          1e-12);
}

TEST_CASE("appending blocks of points equals conditioning on all of them at once") {
    const arma::mat x = data_points(30, 2, 51);
    const arma::vec y = targets_at(x);
    const arma::mat queries = data_points(12, 2, 52);
    const arma::rowvec point = {0.3, 0.7};
    // Several block sizes, k = 1 and k > 1, in one sequence 10 → 11 → 13 → 18 → 30.
    const std::vector<arma::uword> ends = {10, 11, 13, 18, 30};
    for (const auto& [name, spec] : all_kernels(2)) {
        INFO(name);
        const GpSettings settings = settings_with(1e-4, MeanFunction::Constant, true);
        GaussianProcess incremental = make_gp(spec, settings);
        arma::uword start = 0;
        for (arma::uword end : ends) {
            incremental.append(x.rows(start, end - 1), y.subvec(start, end - 1));
            start = end;
            GaussianProcess full = make_gp(spec, settings);
            full.condition(x.rows(0, end - 1), y.subvec(0, end - 1));
            INFO("after " << end << " points");
            REQUIRE(incremental.size() == end);
            CHECK(incremental.jitter() == full.jitter());
            const dpbo::Posterior a = incremental.predict(queries);
            const dpbo::Posterior b = full.predict(queries);
            CHECK(arma::abs(a.mean - b.mean).max() <= 1e-9);
            CHECK(arma::abs(a.variance - b.variance).max() <= 1e-9);
            CHECK(std::abs(incremental.log_marginal_likelihood() - full.log_marginal_likelihood()) <= 1e-9);
            CHECK(arma::abs(incremental.mean_gradient(point) - full.mean_gradient(point)).max() <= 1e-9);
            CHECK(arma::abs(incremental.gradient_covariance(point) - full.gradient_covariance(point)).max() <= 1e-9);
            CHECK(arma::abs(incremental.solve(arma::ones(end)) - full.solve(arma::ones(end))).max() <=
                  1e-9 * arma::abs(full.solve(arma::ones(end))).max());
        }
    }
}

TEST_CASE("truncate keeps the leading block: it equals conditioning on the first n points") {
    const arma::mat x = data_points(25, 3, 61);
    const arma::vec y = targets_at(x);
    const arma::mat queries = data_points(8, 3, 62);
    for (const auto& [name, spec] : all_kernels(3)) {
        INFO(name);
        const GpSettings settings = settings_with(1e-4, MeanFunction::Constant, true);
        GaussianProcess gp = make_gp(spec, settings);
        gp.condition(x, y);
        gp.truncate(17);
        GaussianProcess reference = make_gp(spec, settings);
        reference.condition(x.rows(0, 16), y.subvec(0, 16));
        REQUIRE(gp.size() == 17);
        CHECK(arma::approx_equal(gp.points(), reference.points(), "absdiff", 0.0));
        CHECK(gp.target_offset() == doctest::Approx(reference.target_offset()).epsilon(1e-14));
        const dpbo::Posterior a = gp.predict(queries);
        const dpbo::Posterior b = reference.predict(queries);
        CHECK(arma::abs(a.mean - b.mean).max() <= 1e-9);
        CHECK(arma::abs(a.variance - b.variance).max() <= 1e-9);
        CHECK(std::abs(gp.log_marginal_likelihood() - reference.log_marginal_likelihood()) <= 1e-9);

        // Fantasised points appended and truncated away leave the model as it was.
        gp.append(queries.rows(0, 2), arma::vec{5.0, -5.0, 0.0});
        gp.truncate(17);
        const dpbo::Posterior c = gp.predict(queries);
        CHECK(arma::abs(c.mean - b.mean).max() <= 1e-9);

        gp.truncate(0);
        CHECK(gp.size() == 0);
        const dpbo::Posterior prior = gp.predict(queries);
        CHECK(arma::abs(prior.mean).max() == 0.0);
        CHECK(arma::approx_equal(prior.variance, gp.kernel().diagonal(queries), "absdiff", 1e-14));
        CHECK_THROWS_AS(gp.truncate(1), dpbo::ValidationError);
    }
}

TEST_CASE("mean_gradient_weights times the centred targets equals mean_gradient and one product serves many targets") {
    const arma::mat x = data_points(12, 3, 71);
    const arma::vec y = targets_at(x);
    const arma::rowvec point = {0.2, 0.5, 0.8};
    for (const auto& [name, spec] : all_kernels(3)) {
        for (const MeanFunction mean : {MeanFunction::Zero, MeanFunction::Constant}) {
            INFO(name << ", constant mean " << (mean == MeanFunction::Constant));
            GaussianProcess gp = make_gp(spec, settings_with(1e-3, mean, true));
            gp.condition(x, y);
            const arma::mat weights = gp.mean_gradient_weights(point);
            REQUIRE(weights.n_rows == 3);
            REQUIRE(weights.n_cols == x.n_rows);
            const arma::vec expected = gp.mean_gradient(point);
            const arma::vec product = weights * (y - gp.target_offset());
            CHECK(arma::abs(product - expected).max() <= 1e-9 * (1.0 + arma::abs(expected).max()));

            // Per-record targets Y (n × r): A·Y holds the mean gradient of a GP conditioned on each
            // column (zero mean; standardisation does not change A).
            arma::mat per_record(x.n_rows, 2);
            per_record.col(0) = y % y;
            per_record.col(1) = arma::sin(x.col(1) * 4.0);
            const arma::mat all = weights * per_record;
            if (mean == MeanFunction::Zero) {
                for (arma::uword r = 0; r < 2; ++r) {
                    GaussianProcess single = make_gp(spec, settings_with(1e-3, MeanFunction::Zero, true));
                    single.condition(x, per_record.col(r));
                    const arma::vec gradient = single.mean_gradient(point);
                    CHECK(arma::abs(all.col(r) - gradient).max() <= 1e-9 * (1.0 + arma::abs(gradient).max()));
                }
            }
        }
    }
}

TEST_CASE("the log marginal likelihood gradient matches differences in every log-hyperparameter and log σ²") {
    const arma::mat x = data_points(15, 2, 81);
    const arma::vec y = targets_at(x);
    for (const auto& [name, spec] : all_kernels(2)) {
        INFO(name);
        GaussianProcess gp = make_gp(spec, settings_with(2e-2, MeanFunction::Constant, true));
        gp.condition(x, y);
        const arma::vec gradient = gp.log_marginal_likelihood_gradient();
        const arma::vec theta = gp.kernel().log_hyperparameters();
        REQUIRE(gradient.n_elem == theta.n_elem + 1);
        // The likelihood is O(10); its rounding (~1e-12) over 2h = 1e-3 gives the floor 1e-7.
        for (arma::uword i = 0; i < theta.n_elem; ++i) {
            const Difference numeric = central_difference(
                [&](double h) {
                    GaussianProcess moved(gp);
                    arma::vec shifted = theta;
                    shifted[i] += h;
                    moved.kernel().set_log_hyperparameters(shifted);
                    moved.refactorise();
                    return moved.log_marginal_likelihood();
                },
                1e-3, 1e-7);
            INFO(gp.kernel().hyperparameter_names()[i] << ": analytic " << gradient[i] << ", differences "
                                                       << numeric.estimate);
            CHECK(std::abs(gradient[i] - numeric.estimate) <= numeric.tolerance);
        }
        const Difference noise = central_difference(
            [&](double h) {
                GaussianProcess moved(gp);
                moved.set_noise_variance(gp.noise_variance() * std::exp(h));
                moved.refactorise();
                return moved.log_marginal_likelihood();
            },
            1e-3, 1e-7);
        INFO("log noise variance: analytic " << gradient[theta.n_elem] << ", differences " << noise.estimate);
        CHECK(std::abs(gradient[theta.n_elem] - noise.estimate) <= noise.tolerance);
    }
}

TEST_CASE("non-finite targets and coordinates are refused naming the offending point and the data stay as they were") {
    KernelSpec spec;
    spec.dim = 2;
    spec.lengthscales = {0.5};
    GaussianProcess gp = make_gp(spec, settings_with(1e-4, MeanFunction::Zero, false));
    const arma::mat x = {{0.1, 0.2}, {0.3, 0.4}, {0.5, 0.6}, {0.7, 0.8}};
    gp.condition(x, {1.0, 2.0, 3.0, 4.0});
    const auto refusal = [&](const std::function<void()>& action) {
        try {
            action();
        } catch (const dpbo::ValidationError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    const std::string nan_message = refusal([&] {
        gp.condition(x, {1.0, 2.0, std::numeric_limits<double>::quiet_NaN(), 4.0});
    });
    CHECK(nan_message.find("point 2") != std::string::npos);
    CHECK(nan_message.find("0.5, 0.6") != std::string::npos);
    CHECK(nan_message.find("nan") != std::string::npos);
    const std::string inf_message = refusal([&] {
        gp.append(arma::mat{{0.9, 0.1}}, arma::vec{std::numeric_limits<double>::infinity()});
    });
    CHECK(inf_message.find("point 0") != std::string::npos);
    CHECK(inf_message.find("0.9, 0.1") != std::string::npos);
    CHECK(inf_message.find("inf") != std::string::npos);
    const std::string coordinate_message = refusal([&] {
        gp.append(arma::mat{{0.9, std::numeric_limits<double>::quiet_NaN()}}, arma::vec{1.0});
    });
    CHECK(coordinate_message.find("point 0") != std::string::npos);
    CHECK(refusal([&] { gp.condition(x, {1.0, 2.0}); }).find("4 points but 2 targets") != std::string::npos);
    CHECK(refusal([&] {
              gp.append(arma::mat{{0.1, 0.2, 0.3}}, arma::vec{1.0});
          }).find("3 columns") != std::string::npos);
    // Nothing of the refused data was kept.
    CHECK(gp.size() == 4);
    CHECK(arma::approx_equal(gp.targets(), arma::vec{1.0, 2.0, 3.0, 4.0}, "absdiff", 0.0));
}

TEST_CASE("duplicate points: jitter escalation rescues them, and without room to escalate the error names the rows") {
    KernelSpec spec;
    spec.dim = 2;
    spec.lengthscales = {0.5};
    const arma::mat x = {{0.25, 0.75}, {0.5, 0.5}, {0.9, 0.1}, {0.25, 0.75}};
    const arma::vec y = {1.0, 0.0, -1.0, 1.0};

    // Noise-free duplicates make K singular; the first rung of jitter restores definiteness.
    GaussianProcess rescued = make_gp(spec, settings_with(0.0, MeanFunction::Zero, false));
    rescued.condition(x, y);
    CHECK(rescued.jitter() > 0.0);
    CHECK(rescued.jitter() <= 1e-4);
    const dpbo::Posterior posterior = rescued.predict(x);
    CHECK(posterior.mean.is_finite());
    CHECK(std::abs(posterior.mean[0] - 1.0) < 1e-3);

    // With a ladder whose largest rung adds nothing in double precision, the factorisation fails.
    GpSettings no_room = settings_with(0.0, MeanFunction::Zero, false);
    no_room.jitter_start = 1e-300;
    no_room.jitter_max = 1e-300;
    GaussianProcess failing = make_gp(spec, no_room);
    std::string message = "no error";
    try {
        failing.condition(x, y);
    } catch (const dpbo::RunError& error) {
        message = error.what();
    }
    CHECK(message.find("duplicate points") != std::string::npos);
    CHECK(message.find("rows 0 and 3") != std::string::npos);
    CHECK(message.find("jitter") != std::string::npos);
    CHECK(failing.size() == 0);  // the refused data were not kept

    // A length-scale so small that the scaled distances overflow.
    spec.lengthscales = {1e-200};
    GaussianProcess vanishing = make_gp(spec, settings_with(1e-6, MeanFunction::Zero, false));
    message = "no error";
    try {
        vanishing.condition(arma::mat{{0.1, 0.2}, {0.3, 0.4}, {0.5, 0.9}}, arma::vec{1.0, 2.0, 3.0});
    } catch (const dpbo::RunError& error) {
        message = error.what();
    }
    CHECK(message.find("length-scale") != std::string::npos);
    CHECK(message.find("1e-200") != std::string::npos);
}

TEST_CASE("an empty GP predicts its prior, and copies are independent") {
    for (const auto& [name, spec] : all_kernels(2)) {
        INFO(name);
        GaussianProcess gp = make_gp(spec, settings_with(1e-3, MeanFunction::Constant, true));
        const arma::mat queries = data_points(5, 2, 91);
        const dpbo::Posterior prior = gp.predict(queries);
        CHECK(arma::all(prior.mean == 0.0));
        CHECK(arma::approx_equal(prior.variance, gp.kernel().diagonal(queries), "absdiff", 0.0));
        CHECK(arma::approx_equal(gp.gradient_covariance(queries.row(0)),
                                 gp.kernel().gradient_prior_covariance(queries.row(0)), "absdiff", 1e-15));
        CHECK(gp.log_marginal_likelihood() == 0.0);

        const arma::mat x = data_points(6, 2, 92);
        gp.condition(x, targets_at(x));
        GaussianProcess copy(gp);
        arma::vec theta = copy.kernel().log_hyperparameters();
        theta += 0.5;
        copy.kernel().set_log_hyperparameters(theta);
        copy.refactorise();
        CHECK(arma::abs(gp.kernel().log_hyperparameters() - (theta - 0.5)).max() < 1e-15);
        CHECK(std::abs(copy.log_marginal_likelihood() - gp.log_marginal_likelihood()) > 1e-6);

        // Conditioning on its own points (arguments aliasing the GP's members) with new targets.
        gp.condition(gp.points(), 2.0 * gp.targets());
        GaussianProcess reference = make_gp(spec, settings_with(1e-3, MeanFunction::Constant, true));
        reference.condition(x, 2.0 * targets_at(x));
        REQUIRE(gp.size() == x.n_rows);
        CHECK(arma::abs(gp.predict(queries).mean - reference.predict(queries).mean).max() <= 1e-12);
    }
}
