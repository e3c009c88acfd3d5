// The Surrogate interface's defaults: a surrogate without gradients or several outputs refuses those
// requests with a clear error.
#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo {

Surrogate::~Surrogate() = default;

namespace {
ValidationError no_gradients(const char* what) {
    return ValidationError(
        fmt::format("this surrogate does not provide {}; use one whose kernel is differentiable "
                    "(e.g. 'gp')",
                    what));
}
}  // namespace

PointPosterior Surrogate::predict_with_gradient(const arma::rowvec& /*point*/) const {
    throw no_gradients("posterior gradients");
}
arma::vec Surrogate::mean_gradient(const arma::rowvec& /*point*/) const {
    throw no_gradients("posterior mean gradients");
}
arma::mat Surrogate::mean_gradient_weights(const arma::rowvec& /*point*/) const {
    throw no_gradients("posterior mean gradient weights");
}
arma::mat Surrogate::gradient_covariance(const arma::rowvec& /*point*/) const {
    throw no_gradients("posterior gradient covariances");
}
arma::mat Surrogate::gradient_covariance_with(const arma::rowvec& /*point*/, const arma::mat& /*extra*/) const {
    throw no_gradients("posterior gradient covariances");
}
arma::vec Surrogate::gradient_trace_with_each(const arma::rowvec& point, const arma::mat& pending,
                                              const arma::mat& candidates) const {
    arma::mat extra(pending.n_rows + 1, candidates.n_cols);
    if (pending.n_rows > 0) extra.head_rows(pending.n_rows) = pending;
    arma::vec traces(candidates.n_rows);
    for (arma::uword i = 0; i < candidates.n_rows; ++i) {
        extra.row(pending.n_rows) = candidates.row(i);
        traces(i) = arma::trace(gradient_covariance_with(point, extra));
    }
    return traces;
}
arma::vec Surrogate::lengthscales() const { throw no_gradients("length-scales"); }

namespace {
// The one column a single-output surrogate models, or a refusal naming the count given.
arma::vec single_output(const arma::mat& points, const arma::mat& targets, const char* method) {
    if (targets.n_cols != 1) {
        throw ValidationError(
            fmt::format("this surrogate models a single output, but {} was given targets with {} "
                        "columns (one per output); pass one column, or use a surrogate with "
                        "several outputs (e.g. 'gp')",
                        method, targets.n_cols));
    }
    if (targets.n_rows != points.n_rows) {
        throw ValidationError(fmt::format("{} was given {} points but {} target rows; expected one row per point",
                                          method, points.n_rows, targets.n_rows));
    }
    return targets.col(0);
}
}  // namespace

void Surrogate::condition_outputs(const arma::mat& points, const arma::mat& targets) {
    condition(points, single_output(points, targets, "condition_outputs"));
}
void Surrogate::append_outputs(const arma::mat& points, const arma::mat& targets) {
    append(points, single_output(points, targets, "append_outputs"));
}
MultiPosterior Surrogate::predict_outputs(const arma::mat& points) const {
    Posterior posterior = predict(points);
    return MultiPosterior{arma::mat(std::move(posterior.mean)), arma::mat(std::move(posterior.variance))};
}

}  // namespace dpbo
