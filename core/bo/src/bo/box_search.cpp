#include "box_search.hpp"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "dpbo/surrogate.hpp"
#include "batched_direct.hpp"

namespace dpbo::detail {

namespace {

struct NloptDeleter {
    void operator()(nlopt_opt_s* opt) const { nlopt_destroy(opt); }
};
using NloptHandle = std::unique_ptr<nlopt_opt_s, NloptDeleter>;

double nlopt_objective(unsigned /*n*/, const double* x, double* grad, void* data) {
    return static_cast<BoxSearch*>(data)->callback(x, grad);
}

// Batches of DIRECT centres stay below the GP surrogate's threshold for remembering a query set
// (GaussianProcess's kMinimumCachedQueries, 32): a larger batch would replace the loop's cached
// sweep, which the next iteration would then pay for in full. Splitting costs nothing measurable:
// 31 points already make the posterior's triangular solve a matrix (BLAS-3) operation.
constexpr arma::uword kDirectChunkRows = 31;

int clamp_to_int(std::size_t value) {
    return static_cast<int>(std::min<std::size_t>(value, static_cast<std::size_t>(std::numeric_limits<int>::max())));
}

}  // namespace

BoxSearch::BoxSearch(const Acquisition& acquisition, const Surrogate& model, const AcquisitionContext& context,
                     const arma::rowvec& lower, const arma::rowvec& upper, std::size_t cap)
    : acquisition_(acquisition),
      model_(model),
      context_(context),
      lower_(lower),
      upper_(upper),
      free_(arma::find(upper > lower)),
      cap_(cap),
      gradient_available_(acquisition.provides_gradient() && model.provides_gradients()) {}

void BoxSearch::consider(const arma::rowvec& point, double score) {
    if (score > best_score_) {
        best_score_ = score;
        best_point_ = point;
    }
}

double BoxSearch::callback(const double* x, double* grad) noexcept {
    try {
        return evaluate(x, grad);
    } catch (...) {
        failure_ = std::current_exception();
        nlopt_force_stop(running_);
        return 0.0;
    }
}

double BoxSearch::evaluate(const double* x, double* grad) {
    // The hard cap: NLopt's own maxeval is honoured by most but not all of its algorithms (L-BFGS
    // may finish a line search past it), and the budget is a promise to the user.
    if (evaluations_ >= run_limit_) {
        nlopt_force_stop(running_);
        return best_score_;
    }
    for (arma::uword k = 0; k < free_.n_elem; ++k) {
        const arma::uword j = free_(k);
        // NLopt keeps iterates inside the bounds up to rounding; clamping makes that exact.
        point_(j) = std::clamp(x[k], lower_(j), upper_(j));
    }
    double value = 0.0;
    if (use_gradient_) {
        value = acquisition_.score_with_gradient(model_, point_, context_, gradient_);
        if (gradient_.n_elem != point_.n_elem) {
            throw RunError(fmt::format(
                "acquisition optimiser (local): the acquisition returned a gradient of {} entries for a point of {}",
                gradient_.n_elem, point_.n_elem));
        }
        if (grad != nullptr) {
            for (arma::uword k = 0; k < free_.n_elem; ++k) grad[k] = gradient_(free_(k));
        }
    } else {
        const arma::mat row(point_);
        const arma::vec scores = acquisition_.score(model_, row, context_);
        if (scores.n_elem != 1) {
            throw RunError(
                fmt::format("acquisition optimiser: the acquisition returned {} scores for 1 point", scores.n_elem));
        }
        value = scores(0);
    }
    ++evaluations_;
    if (std::isnan(value)) {
        throw RunError(
            fmt::format("acquisition optimiser: the acquisition is NaN at the point [{}]", fmt::join(point_, ", ")));
    }
    consider(point_, value);
    return value;
}

void BoxSearch::run(nlopt_opt_s* opt, const arma::rowvec& start, std::size_t max_evaluations, bool gradient) {
    const auto n = static_cast<unsigned>(free_.n_elem);
    std::vector<double> lower_free(n), upper_free(n), x(n);
    for (unsigned k = 0; k < n; ++k) {
        const arma::uword j = free_(k);
        lower_free[k] = lower_(j);
        upper_free[k] = upper_(j);
        x[k] = std::clamp(start(j), lower_(j), upper_(j));
    }
    point_ = start;
    for (arma::uword j = 0; j < point_.n_elem; ++j) point_(j) = std::clamp(point_(j), lower_(j), upper_(j));
    nlopt_set_lower_bounds(opt, lower_free.data());
    nlopt_set_upper_bounds(opt, upper_free.data());
    nlopt_set_max_objective(opt, nlopt_objective, this);
    nlopt_set_maxeval(opt, clamp_to_int(max_evaluations));

    running_ = opt;
    use_gradient_ = gradient;
    run_limit_ = evaluations_ + max_evaluations;
    double value = 0.0;
    const nlopt_result result = nlopt_optimize(opt, x.data(), &value);
    running_ = nullptr;
    if (failure_) {
        const std::exception_ptr kept = failure_;
        failure_ = nullptr;
        std::rethrow_exception(kept);
    }
    // Running out of evaluations or hitting round-off still leaves the best point evaluated; only
    // a malformed problem or memory exhaustion is an error.
    if (result == NLOPT_INVALID_ARGS || result == NLOPT_OUT_OF_MEMORY) {
        throw RunError(fmt::format("acquisition optimiser: NLopt refused the problem ({}) in {} dimensions",
                                   nlopt_result_to_string(result), n));
    }
}

void BoxSearch::local(const arma::rowvec& start, std::size_t max_evaluations) {
    max_evaluations = std::min(max_evaluations, remaining());
    if (max_evaluations == 0 || free_.is_empty()) return;
    const auto n = static_cast<unsigned>(free_.n_elem);
    NloptHandle opt(nlopt_create(gradient_available_ ? NLOPT_LD_LBFGS : NLOPT_LN_BOBYQA, n));
    if (!opt) throw RunError("acquisition optimiser: NLopt could not create a local optimiser (out of memory?)");
    nlopt_set_xtol_rel(opt.get(), 1e-10);
    nlopt_set_ftol_rel(opt.get(), 1e-12);
    if (!gradient_available_) {
        // A tenth of the width: BOBYQA's trust region must fit twice into every dimension.
        std::vector<double> step(n);
        for (unsigned k = 0; k < n; ++k) step[k] = 0.1 * (upper_(free_(k)) - lower_(free_(k)));
        nlopt_set_initial_step(opt.get(), step.data());
    }
    run(opt.get(), start, max_evaluations, gradient_available_);
}

void BoxSearch::direct(std::size_t max_evaluations, std::uint64_t seed) {
    max_evaluations = std::min(max_evaluations, remaining());
    if (max_evaluations == 0 || free_.is_empty()) return;
    NloptHandle opt(nlopt_create(NLOPT_GN_DIRECT_L_RAND, static_cast<unsigned>(free_.n_elem)));
    if (!opt) throw RunError("acquisition optimiser: NLopt could not create DIRECT (out of memory?)");
    // NLopt's generator is thread-local (checked at build time by NLopt), so seeding it right
    // before the search makes the search reproducible without touching other threads' searches.
    nlopt_srand(static_cast<unsigned long>(seed));
    // DIRECT starts from the box's centre whatever the start; the start only fixes the non-free coordinates.
    run(opt.get(), 0.5 * (lower_ + upper_), max_evaluations, false);
}

void BoxSearch::batched_direct(std::size_t max_evaluations, std::uint64_t seed) {
    max_evaluations = std::min(max_evaluations, remaining());
    if (max_evaluations == 0 || free_.is_empty()) return;
    // The fixed coordinates sit at their (single) bound value.
    const arma::rowvec base = 0.5 * (lower_ + upper_);
    const BatchScorer scorer = [&](const arma::mat& unit) {
        arma::vec scores(unit.n_rows);
        for (arma::uword begin = 0; begin < unit.n_rows; begin += kDirectChunkRows) {
            const arma::uword rows = std::min<arma::uword>(kDirectChunkRows, unit.n_rows - begin);
            arma::mat points = arma::repmat(base, rows, 1);
            for (arma::uword k = 0; k < free_.n_elem; ++k) {
                const arma::uword j = free_(k);
                const double width = upper_(j) - lower_(j);
                for (arma::uword i = 0; i < rows; ++i)
                    points(i, j) = std::clamp(lower_(j) + unit(begin + i, k) * width, lower_(j), upper_(j));
            }
            const arma::vec chunk = acquisition_.score(model_, points, context_);
            if (chunk.n_elem != rows) {
                throw RunError(
                    fmt::format("acquisition optimiser (DIRECT-L): the acquisition returned {} scores for "
                                "{} points",
                                chunk.n_elem, rows));
            }
            evaluations_ += rows;
            for (arma::uword i = 0; i < rows; ++i) {
                if (std::isnan(chunk(i))) {
                    throw RunError(fmt::format("acquisition optimiser: the acquisition is NaN at the point [{}]",
                                               fmt::join(points.row(i), ", ")));
                }
                consider(points.row(i), chunk(i));
            }
            scores.subvec(begin, begin + rows - 1) = chunk;
        }
        return scores;
    };
    batched_direct_l(free_.n_elem, max_evaluations, seed, scorer);
}

}  // namespace dpbo::detail
