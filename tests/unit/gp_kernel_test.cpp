// The covariance functions of the GP layer: values against the textbook formulas written out
// independently, and every analytic derivative against central finite differences.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/kernel.hpp"

namespace {

using dpbo::gp::KernelFamily;
using dpbo::gp::KernelSpec;

struct NamedSpec {
    std::string name;
    KernelSpec spec;
};

// Every kernel the layer offers, in 3-D, with length-scales and variances away from 1 so that a
// missing factor cannot hide.
std::vector<NamedSpec> all_kernels() {
    std::vector<NamedSpec> kernels;
    KernelSpec spec;
    spec.dim = 3;
    spec.signal_variance = 1.7;
    spec.family = KernelFamily::SquaredExponential;
    spec.lengthscales = {0.6};
    kernels.push_back({"squared exponential, isotropic", spec});
    spec.lengthscales = {0.3, 0.7, 1.2};
    kernels.push_back({"squared exponential, ARD", spec});
    spec.family = KernelFamily::Matern52;
    spec.lengthscales = {0.6};
    kernels.push_back({"Matérn 5/2, isotropic", spec});
    spec.lengthscales = {0.3, 0.7, 1.2};
    kernels.push_back({"Matérn 5/2, ARD", spec});
    spec.family = KernelFamily::Polynomial;
    spec.polynomial_offset = 0.8;
    spec.polynomial_degree = 3;
    kernels.push_back({"polynomial, degree 3", spec});
    return kernels;
}

// Central differences D(h) = f' + c h² + O(h⁴). From D(h) and D(h/2), f' − D(h/2) = (D(h) − D(h/2))/3
// + O(h⁴), so |D(h) − D(h/2)| is three times the estimated truncation error of D(h/2): that is the
// tolerance, plus a rounding floor. With h = 1e-3 and length-scales ≥ 0.3 the O(h⁴) remainder is
// ~(h/ℓ)⁴ ≈ 1e-10 relative, far inside. Rounding: kernel values carry ~1e-14 absolute error (the
// expanded squared distances), divided by 2h = 1e-3 in each quotient: ~1e-11; the floor is 1e-9.
constexpr double kStep = 1e-3;
constexpr double kRoundingFloor = 1e-9;

struct Difference {
    arma::mat estimate;   // D(h/2)
    arma::mat tolerance;  // |D(h) − D(h/2)| + floor, entrywise
};

Difference central_difference(const std::function<arma::mat(double)>& f) {
    const auto quotient = [&](double h) { return arma::mat((f(h) - f(-h)) / (2.0 * h)); };
    const arma::mat coarse = quotient(kStep);
    const arma::mat fine = quotient(kStep / 2.0);
    return {fine, arma::abs(coarse - fine) + kRoundingFloor};
}

void check_close(const arma::mat& analytic, const Difference& numeric, const std::string& what) {
    REQUIRE(analytic.n_rows == numeric.estimate.n_rows);
    REQUIRE(analytic.n_cols == numeric.estimate.n_cols);
    for (arma::uword i = 0; i < analytic.n_elem; ++i) {
        INFO(what << ", entry " << i << ": analytic " << analytic[i] << ", differences " << numeric.estimate[i]);
        CHECK(std::abs(analytic[i] - numeric.estimate[i]) <= numeric.tolerance[i]);
    }
}

arma::mat test_points() {
    return {{0.1, 0.2, 0.3}, {0.8, 0.3, 0.5}, {0.4, 0.9, 0.1}, {0.55, 0.5, 0.45}, {0.9, 0.05, 0.7}};
}

// The formulas as a reader would write them, one pair at a time.
double textbook_value(const KernelSpec& spec, const arma::rowvec& x, const arma::rowvec& y) {
    if (spec.family == KernelFamily::Polynomial) {
        return spec.signal_variance * std::pow(arma::dot(x, y) + spec.polynomial_offset, spec.polynomial_degree);
    }
    double r2 = 0.0;
    for (arma::uword j = 0; j < x.n_elem; ++j) {
        const double l = spec.lengthscales.n_elem == 1 ? spec.lengthscales[0] : spec.lengthscales[j];
        r2 += (x[j] - y[j]) * (x[j] - y[j]) / (l * l);
    }
    if (spec.family == KernelFamily::SquaredExponential) return spec.signal_variance * std::exp(-0.5 * r2);
    const double r = std::sqrt(r2);
    return spec.signal_variance * (1.0 + std::sqrt(5.0) * r + 5.0 * r2 / 3.0) * std::exp(-std::sqrt(5.0) * r);
}

}  // namespace

TEST_CASE("every kernel's values, diagonal and symmetry match the textbook formulas") {
    const arma::mat a = test_points();
    const arma::mat b = {{0.3, 0.3, 0.3}, {0.0, 1.0, 0.5}};
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        const auto kernel = dpbo::gp::make_kernel(spec);
        const arma::mat cross = kernel->cross(a, b);
        REQUIRE(cross.n_rows == a.n_rows);
        REQUIRE(cross.n_cols == b.n_rows);
        for (arma::uword i = 0; i < a.n_rows; ++i) {
            for (arma::uword j = 0; j < b.n_rows; ++j) {
                CHECK(cross(i, j) == doctest::Approx(textbook_value(spec, a.row(i), b.row(j))).epsilon(1e-12));
            }
        }
        const arma::mat gram = kernel->cross(a, a);
        CHECK(arma::approx_equal(gram, gram.t(), "absdiff", 1e-14));
        const arma::vec diagonal = kernel->diagonal(a);
        for (arma::uword i = 0; i < a.n_rows; ++i) {
            CHECK(diagonal[i] == doctest::Approx(textbook_value(spec, a.row(i), a.row(i))).epsilon(1e-13));
            CHECK(gram(i, i) == doctest::Approx(diagonal[i]).epsilon(1e-13));
        }
    }
}

TEST_CASE("cross_gradient matches central differences of the kernel for every kernel") {
    const arma::mat b = test_points();
    const arma::rowvec x = {0.35, 0.6, 0.25};
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        const auto kernel = dpbo::gp::make_kernel(spec);
        const arma::mat analytic = kernel->cross_gradient(x, b);
        REQUIRE(analytic.n_rows == 3);
        REQUIRE(analytic.n_cols == b.n_rows);
        for (arma::uword i = 0; i < 3; ++i) {
            const Difference numeric = central_difference([&](double h) {
                arma::rowvec shifted = x;
                shifted[i] += h;
                return arma::mat(kernel->cross(shifted, b));  // 1 × m
            });
            check_close(analytic.row(i), numeric, name + ", ∂/∂x_" + std::to_string(i));
        }
        // At the point itself a stationary kernel is flat.
        if (spec.family != KernelFamily::Polynomial) {
            CHECK(arma::abs(kernel->cross_gradient(x, arma::mat(x))).max() == 0.0);
        }
    }
}

TEST_CASE("gradient_prior_covariance matches mixed second differences of the kernel for every kernel") {
    const arma::rowvec x = {0.35, 0.6, 0.25};
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        const auto kernel = dpbo::gp::make_kernel(spec);
        const arma::mat analytic = kernel->gradient_prior_covariance(x);
        REQUIRE(analytic.n_rows == 3);
        REQUIRE(analytic.n_cols == 3);
        // Column j of ∂²k/∂x∂x'ᵀ at x' = x is the difference of ∇ₓk(x, x') in x'_j.
        for (arma::uword j = 0; j < 3; ++j) {
            const Difference numeric = central_difference([&](double h) {
                arma::rowvec other = x;
                other[j] += h;
                return kernel->cross_gradient(x, arma::mat(other));  // d × 1
            });
            check_close(analytic.col(j), numeric, name + ", column " + std::to_string(j));
        }
    }
}

TEST_CASE("gradient_prior_covariance has the closed forms σ_f² Λ⁻², (5/3) σ_f² Λ⁻² and the polynomial one") {
    const arma::rowvec x = {0.35, 0.6, 0.25};
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        const auto kernel = dpbo::gp::make_kernel(spec);
        arma::mat expected;
        if (spec.family == KernelFamily::Polynomial) {
            const double u = arma::dot(x, x) + spec.polynomial_offset;
            const double p = spec.polynomial_degree;
            expected = spec.signal_variance *
                       (p * std::pow(u, p - 1.0) * arma::eye(3, 3) + p * (p - 1.0) * std::pow(u, p - 2.0) * x.t() * x);
        } else {
            const arma::vec lengthscales = spec.lengthscales.n_elem == 1
                                               ? arma::vec(3, arma::fill::value(spec.lengthscales[0]))
                                               : spec.lengthscales;
            const double factor = spec.family == KernelFamily::Matern52 ? 5.0 / 3.0 : 1.0;
            expected = arma::diagmat(factor * spec.signal_variance / arma::square(lengthscales));
        }
        CHECK(arma::approx_equal(kernel->gradient_prior_covariance(x), expected, "reldiff", 1e-13));
    }
}

TEST_CASE("gram_hyperparameter_gradients match central differences in the log-hyperparameters for every kernel") {
    const arma::mat a = test_points();
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        const auto kernel = dpbo::gp::make_kernel(spec);
        const arma::vec theta = kernel->log_hyperparameters();
        const std::vector<arma::mat> analytic = kernel->gram_hyperparameter_gradients(a);
        REQUIRE(analytic.size() == theta.n_elem);
        REQUIRE(kernel->hyperparameter_names().size() == theta.n_elem);
        for (arma::uword i = 0; i < theta.n_elem; ++i) {
            const Difference numeric = central_difference([&](double h) {
                auto moved = kernel->clone();
                arma::vec shifted = theta;
                shifted[i] += h;
                moved->set_log_hyperparameters(shifted);
                return moved->cross(a, a);
            });
            check_close(analytic[i], numeric, name + ", " + kernel->hyperparameter_names()[i]);
        }
    }
}

TEST_CASE("log-hyperparameters are laid out as documented and round-trip") {
    for (const auto& [name, spec] : all_kernels()) {
        INFO(name);
        auto kernel = dpbo::gp::make_kernel(spec);
        const arma::vec theta = kernel->log_hyperparameters();
        if (spec.family == KernelFamily::Polynomial) {
            REQUIRE(theta.n_elem == 2);
            CHECK(theta[0] == doctest::Approx(std::log(spec.polynomial_offset)));
            CHECK(arma::all(kernel->lengthscales() == 1.0));
        } else {
            REQUIRE(theta.n_elem == spec.lengthscales.n_elem + 1);
            CHECK(arma::approx_equal(arma::vec(theta.head(spec.lengthscales.n_elem)), arma::log(spec.lengthscales),
                                     "absdiff", 1e-15));
            CHECK(kernel->lengthscales().n_elem == 3);
        }
        CHECK(theta[theta.n_elem - 1] == doctest::Approx(std::log(spec.signal_variance)));
        CHECK(kernel->signal_variance() == doctest::Approx(spec.signal_variance));

        arma::vec moved = theta + 0.25;
        kernel->set_log_hyperparameters(moved);
        CHECK(arma::approx_equal(kernel->log_hyperparameters(), moved, "absdiff", 1e-14));
        CHECK(kernel->signal_variance() == doctest::Approx(spec.signal_variance * std::exp(0.25)));
        // A clone is independent of the original.
        auto copy = kernel->clone();
        kernel->set_log_hyperparameters(theta);
        CHECK(arma::approx_equal(copy->log_hyperparameters(), moved, "absdiff", 1e-14));
        CHECK_THROWS_AS(kernel->set_log_hyperparameters(arma::vec(theta.n_elem + 1, arma::fill::zeros)),
                        dpbo::ValidationError);
        CHECK(!kernel->describe().empty());
    }
}

TEST_CASE("make_kernel refuses invalid specifications, naming the field") {
    const auto message = [](const KernelSpec& spec) {
        try {
            dpbo::gp::make_kernel(spec);
        } catch (const dpbo::ValidationError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    KernelSpec spec;
    spec.dim = 2;
    spec.lengthscales = {0.5, 0.5, 0.5};
    CHECK(message(spec).find("lengthscales") != std::string::npos);
    spec.lengthscales = {0.5, 0.0};
    CHECK(message(spec).find("lengthscales") != std::string::npos);
    spec.lengthscales = {0.5};
    spec.signal_variance = -1.0;
    CHECK(message(spec).find("signal_variance") != std::string::npos);
    spec.signal_variance = 1.0;
    spec.dim = 0;
    CHECK(message(spec).find("dim") != std::string::npos);
    spec.dim = 2;
    spec.family = KernelFamily::Polynomial;
    spec.polynomial_degree = 0;
    CHECK(message(spec).find("polynomial_degree") != std::string::npos);
    spec.polynomial_degree = 2;
    spec.polynomial_offset = 0.0;
    CHECK(message(spec).find("polynomial_offset") != std::string::npos);
    spec.polynomial_offset = 1.0;
    CHECK(message(spec) == "no error");

    const auto kernel = dpbo::gp::make_kernel(KernelSpec{});
    CHECK_THROWS_AS(kernel->cross(arma::mat(2, 3, arma::fill::zeros), arma::mat(2, 1, arma::fill::zeros)),
                    dpbo::ValidationError);
}
