#include "logistic_training.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::logreg_validation {
namespace {

constexpr double kGradientTolerance = 1e-10;
constexpr int kMaxNewtonIterations = 100;
// Relative size of an objective decrease that doubles still resolve (a few hundred ulps).
constexpr double kResolvableDecrease = 1e-13;

// log(1 + exp(−z)) without overflow for any z.
double logistic_loss(double z) { return std::max(-z, 0.0) + std::log1p(std::exp(-std::fabs(z))); }
// 1 / (1 + exp(z)) without overflow.
double sigmoid_of_minus(double z) { return z >= 0.0 ? std::exp(-z) / (1.0 + std::exp(-z)) : 1.0 / (1.0 + std::exp(z)); }

double objective(const SparseRows& rows, const arma::vec& w, double lambda) {
    const arma::vec z = rows.labels % margins(rows, w);
    double sum = 0.0;
    for (const double zi : z) sum += logistic_loss(zi);
    return sum / static_cast<double>(rows.rows()) + 0.5 * lambda * arma::dot(w, w);
}

}  // namespace

arma::vec margins(const SparseRows& rows, const arma::vec& w) {
    arma::vec out(rows.rows());
    for (std::size_t r = 0; r < rows.rows(); ++r) {
        double sum = 0.0;
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) sum += rows.value[k] * w[rows.index[k]];
        out[r] = sum;
    }
    return out;
}

arma::vec train_logistic(const SparseRows& rows, std::size_t features, double lambda, const std::string& owner) {
    const double n = static_cast<double>(rows.rows());
    arma::vec w(features, arma::fill::zeros);
    double current = objective(rows, w, lambda);
    for (int iteration = 0; iteration < kMaxNewtonIterations; ++iteration) {
        // Gradient and Hessian of the objective; the sparse rows make the Hessian Σ_r d_r x_r x_rᵀ
        // cost (nonzeros per row)² per row.
        const arma::vec z = rows.labels % margins(rows, w);
        arma::vec gradient = lambda * w;
        arma::mat hessian(features, features, arma::fill::zeros);
        for (std::size_t r = 0; r < rows.rows(); ++r) {
            const double s = sigmoid_of_minus(z[r]);  // σ(−z_r)
            const double g = -rows.labels[r] * s / n;
            const double d = s * (1.0 - s) / n;
            for (std::size_t a = rows.starts[r]; a < rows.starts[r + 1]; ++a) {
                gradient[rows.index[a]] += g * rows.value[a];
                for (std::size_t b = rows.starts[r]; b < rows.starts[r + 1]; ++b)
                    hessian(rows.index[a], rows.index[b]) += d * rows.value[a] * rows.value[b];
            }
        }
        if (arma::norm(gradient) <= kGradientTolerance) return w;
        hessian.diag() += lambda;
        arma::vec step;
        if (!arma::solve(step, arma::symmatu(hessian), gradient, arma::solve_opts::likely_sympd))
            throw dpbo::RunError(
                fmt::format("{}: the Newton system at lambda = {} could not be solved", owner, lambda));
        const double slope = arma::dot(gradient, step);  // the decrease a full step promises, doubled
        // Near w_λ that decrease falls below the objective's rounding, and comparing objective
        // values would reject good steps: there Newton's full step is taken (quadratic convergence).
        if (slope <= kResolvableDecrease * std::max(1.0, std::fabs(current))) {
            w -= step;
            current = objective(rows, w, lambda);
            continue;
        }
        // Farther out, backtracking (Armijo) keeps every step a descent step.
        double t = 1.0;
        arma::vec candidate = w - step;
        double next = objective(rows, candidate, lambda);
        while (next > current - 1e-4 * t * slope && t > 1e-12) {
            t *= 0.5;
            candidate = w - t * step;
            next = objective(rows, candidate, lambda);
        }
        if (next > current - 1e-4 * t * slope)
            throw dpbo::RunError(
                fmt::format("{}: Newton's line search found no descent at lambda = {}", owner, lambda));
        w = candidate;
        current = next;
    }
    throw dpbo::RunError(fmt::format("{}: Newton's method did not converge within {} iterations at lambda = {}", owner,
                                     kMaxNewtonIterations, lambda));
}

}  // namespace dpbo::logreg_validation
