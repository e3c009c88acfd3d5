#pragma once
// ε-SVR trained by libsvm on a precomputed kernel. libsvm's precomputed format gives every
// training row as svm_node[0] = (0, row serial number), then (j, K(row, j)) for j = 1..n, then the
// terminator (−1); the node arrays are allocated once per training set and only their values are
// rewritten for each new kernel. Predictions are left to the caller as one matrix–vector product
// over the support vectors, f(x) = Σ_s coefficients_s K(x, x_s) − offset, instead of building
// node arrays for every validation row.
#include <cstddef>
#include <vector>

#include <armadillo>
#include <libsvm/svm.h>

namespace dpbo::svr_tuning {

struct SvrFit {
    arma::uvec support;      // training rows that are support vectors (0-based)
    arma::vec coefficients;  // α_s − α*_s of each support vector
    double offset = 0.0;     // libsvm's ρ

    // Predictions from the kernel between new points (rows) and the support vectors (columns).
    arma::vec predict(const arma::mat& kernel_to_support) const { return kernel_to_support * coefficients - offset; }
};

class PrecomputedSvr {
public:
    // `tolerance` is libsvm's stopping criterion (its eps).
    PrecomputedSvr(const arma::vec& targets, double tolerance);
    PrecomputedSvr(const PrecomputedSvr&) = delete;
    PrecomputedSvr& operator=(const PrecomputedSvr&) = delete;
    PrecomputedSvr(PrecomputedSvr&&) = default;  // the node buffer keeps its address
    PrecomputedSvr& operator=(PrecomputedSvr&&) = default;

    // Trains on the n × n kernel of the training rows with tube width `epsilon` and cost `cost`.
    // Throws dpbo::RunError (naming `owner`) when libsvm refuses the parameters.
    SvrFit fit(const arma::mat& kernel, double epsilon, double cost, const char* owner);

private:
    std::vector<double> targets_;
    std::vector<svm_node> nodes_;  // n rows of n + 2 nodes
    std::vector<svm_node*> rows_;
    double tolerance_;
    double cache_megabytes_;
};

}  // namespace dpbo::svr_tuning
