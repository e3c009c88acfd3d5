#include "precomputed_svr.hpp"

#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::svr_tuning {
namespace {

void discard_libsvm_output(const char*) {}

// libsvm prints its progress to stdout, which belongs to the host (results, --json). Its printer
// is global to the process and may outlive this plugin, so it is set only around training and
// reset to libsvm's default (a null printer) afterwards.
class QuietLibsvm {
public:
    QuietLibsvm() { svm_set_print_string_function(&discard_libsvm_output); }
    ~QuietLibsvm() { svm_set_print_string_function(nullptr); }
    QuietLibsvm(const QuietLibsvm&) = delete;
    QuietLibsvm& operator=(const QuietLibsvm&) = delete;
};

struct ModelDeleter {
    void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};

}  // namespace

PrecomputedSvr::PrecomputedSvr(const arma::vec& targets, double tolerance)
    : targets_(targets.begin(), targets.end()), tolerance_(tolerance) {
    const std::size_t n = targets_.size();
    const std::size_t stride = n + 2;
    nodes_.resize(n * stride);
    rows_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        svm_node* row = &nodes_[i * stride];
        row[0] = {0, static_cast<double>(i + 1)};
        for (std::size_t j = 1; j <= n; ++j) row[j].index = static_cast<int>(j);
        row[n + 1] = {-1, 0.0};
        rows_[i] = row;
    }
    // Enough for every kernel row libsvm caches (single precision) plus its bookkeeping, so no
    // row is evicted and recomputed during training.
    const double bytes = 4.0 * static_cast<double>(n) * static_cast<double>(n) + 64.0 * n;
    cache_megabytes_ = std::ceil(bytes / (1024.0 * 1024.0)) + 1.0;
}

SvrFit PrecomputedSvr::fit(const arma::mat& kernel, double epsilon, double cost, const char* owner) {
    const std::size_t n = targets_.size();
    if (kernel.n_rows != n || kernel.n_cols != n) {
        throw dpbo::RunError(
            fmt::format("{}: a {}×{} kernel for {} training rows", owner, kernel.n_rows, kernel.n_cols, n));
    }
    // The kernel is symmetric, so column i (contiguous in memory) is row i.
    const std::size_t stride = n + 2;
    for (std::size_t i = 0; i < n; ++i) {
        svm_node* row = &nodes_[i * stride];
        const double* column = kernel.colptr(i);
        for (std::size_t j = 0; j < n; ++j) row[j + 1].value = column[j];
    }

    svm_problem problem{};
    problem.l = static_cast<int>(n);
    problem.y = targets_.data();
    problem.x = rows_.data();

    svm_parameter parameter{};
    parameter.svm_type = EPSILON_SVR;
    parameter.kernel_type = PRECOMPUTED;
    parameter.cache_size = cache_megabytes_;
    parameter.eps = tolerance_;
    parameter.C = cost;
    parameter.p = epsilon;
    parameter.shrinking = 1;
    parameter.probability = 0;
    if (const char* refusal = svm_check_parameter(&problem, &parameter)) {
        throw dpbo::RunError(
            fmt::format("{}: libsvm refuses the SVR with epsilon = {} and C = {}: {}", owner, epsilon, cost, refusal));
    }

    std::unique_ptr<svm_model, ModelDeleter> model;
    {
        QuietLibsvm quiet;
        model.reset(svm_train(&problem, &parameter));
    }
    if (!model) throw dpbo::RunError(fmt::format("{}: libsvm returned no model", owner));

    const int support_count = svm_get_nr_sv(model.get());
    std::vector<int> serials(static_cast<std::size_t>(support_count));
    svm_get_sv_indices(model.get(), serials.data());
    SvrFit fit;
    fit.support.set_size(serials.size());
    fit.coefficients.set_size(serials.size());
    for (std::size_t s = 0; s < serials.size(); ++s) {
        fit.support(s) = static_cast<arma::uword>(serials[s] - 1);
        fit.coefficients(s) = model->sv_coef[0][s];
    }
    fit.offset = model->rho[0];
    return fit;
}

}  // namespace dpbo::svr_tuning
