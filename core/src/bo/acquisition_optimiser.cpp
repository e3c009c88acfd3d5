#include "dpbo/bo/acquisition_optimiser.hpp"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

// Cost model (n observations, d dimensions, m sweep points): the sweep is one batched posterior,
// O(n²m) in a single triangular solve with m right-hand sides; each local step is one posterior
// with gradient at a single point, O(n² + nd). With the defaults (400 sweep points, 3 starts of
// at most 30 steps) the sweep dominates; both phases reuse the surrogate's factor and never refit.

namespace dpbo {

namespace {

// The first `count` primes by trial division against the primes found so far: d is at most a few
// hundred, so this is microseconds and needs no sieve bound guessed in advance.
std::vector<std::uint64_t> first_primes(std::size_t count) {
    std::vector<std::uint64_t> primes;
    primes.reserve(count);
    for (std::uint64_t candidate = 2; primes.size() < count; ++candidate) {
        bool is_prime = true;
        for (const std::uint64_t p : primes) {
            if (p * p > candidate) break;
            if (candidate % p == 0) {
                is_prime = false;
                break;
            }
        }
        if (is_prime) primes.push_back(candidate);
    }
    return primes;
}

// Van der Corput radical inverse of `index` in `base`: its digits mirrored about the point.
double radical_inverse(std::uint64_t index, std::uint64_t base) {
    const double inverse_base = 1.0 / static_cast<double>(base);
    double weight = inverse_base;
    double value = 0.0;
    while (index > 0) {
        value += static_cast<double>(index % base) * weight;
        index /= base;
        weight *= inverse_base;
    }
    return value;
}

void check_box(const arma::rowvec& lower, const arma::rowvec& upper) {
    if (lower.n_elem == 0 || lower.n_elem != upper.n_elem) {
        throw ValidationError(fmt::format(
            "acquisition optimiser: the box has {} lower and {} upper bounds; allowed: the same "
            "number (≥ 1) of each, one per dimension",
            lower.n_elem, upper.n_elem));
    }
    for (arma::uword j = 0; j < lower.n_elem; ++j) {
        if (!std::isfinite(lower(j)) || !std::isfinite(upper(j)) || lower(j) > upper(j)) {
            throw ValidationError(fmt::format(
                "acquisition optimiser: dimension {} has bounds [{}, {}]; allowed: finite bounds "
                "with lower ≤ upper",
                j, lower(j), upper(j)));
        }
    }
}

void check_scores(const arma::vec& scores, const arma::mat& points, const char* phase) {
    if (scores.n_elem != points.n_rows) {
        throw RunError(fmt::format("acquisition optimiser ({}): the acquisition returned {} scores for {} points",
                                   phase, scores.n_elem, points.n_rows));
    }
    for (arma::uword i = 0; i < scores.n_elem; ++i) {
        if (std::isnan(scores(i))) {
            throw RunError(fmt::format("acquisition optimiser ({}): the acquisition is NaN at the point [{}]",
                                       phase, fmt::join(points.row(i), ", ")));
        }
    }
}

struct NloptDeleter {
    void operator()(nlopt_opt_s* opt) const { nlopt_destroy(opt); }
};
using NloptHandle = std::unique_ptr<nlopt_opt_s, NloptDeleter>;

// Everything the C callback needs. NLopt optimises only the free coordinates (upper > lower):
// BOBYQA refuses a zero-width dimension, and a fixed coordinate has nothing to refine.
struct LocalProblem {
    const Acquisition* acquisition = nullptr;
    const Surrogate* model = nullptr;
    const AcquisitionContext* context = nullptr;
    const arma::rowvec* lower = nullptr;
    const arma::rowvec* upper = nullptr;
    const arma::uvec* free = nullptr;
    nlopt_opt_s* opt = nullptr;
    bool use_gradient = false;

    arma::rowvec point;     // full point, reused between evaluations
    arma::rowvec gradient;  // full gradient, reused between evaluations
    arma::rowvec best_point;
    double best_score = -std::numeric_limits<double>::infinity();
    std::size_t evaluations = 0;
    std::exception_ptr failure;

    double evaluate(const double* x, double* grad) {
        for (arma::uword k = 0; k < free->n_elem; ++k) {
            const arma::uword j = (*free)(k);
            // NLopt keeps iterates inside the bounds up to rounding; clamping makes that exact.
            point(j) = std::clamp(x[k], (*lower)(j), (*upper)(j));
        }
        double value = 0.0;
        if (use_gradient) {
            value = acquisition->score_with_gradient(*model, point, *context, gradient);
            if (gradient.n_elem != point.n_elem) {
                throw RunError(fmt::format(
                    "acquisition optimiser (local): the acquisition returned a gradient of {} entries "
                    "for a point of {}",
                    gradient.n_elem, point.n_elem));
            }
            if (grad != nullptr) {
                for (arma::uword k = 0; k < free->n_elem; ++k) grad[k] = gradient((*free)(k));
            }
        } else {
            const arma::mat row(point);
            const arma::vec scores = acquisition->score(*model, row, *context);
            check_scores(scores, row, "local");
            value = scores(0);
        }
        ++evaluations;
        if (std::isnan(value)) {
            throw RunError(fmt::format("acquisition optimiser (local): the acquisition is NaN at the point [{}]",
                                       fmt::join(point, ", ")));
        }
        if (value > best_score) {
            best_score = value;
            best_point = point;
        }
        return value;
    }
};

// A C++ exception must not unwind through NLopt's C frames: keep it, stop NLopt, rethrow after.
double nlopt_objective(unsigned /*n*/, const double* x, double* grad, void* data) {
    auto* problem = static_cast<LocalProblem*>(data);
    try {
        return problem->evaluate(x, grad);
    } catch (...) {
        problem->failure = std::current_exception();
        nlopt_force_stop(problem->opt);
        return 0.0;
    }
}

// Refines `start` inside the box; returns the best point evaluated (never worse than NLopt's
// answer, since every evaluation is tracked) and counts evaluations into `problem`.
void refine_locally(LocalProblem& problem, const arma::rowvec& start, std::size_t max_evaluations) {
    const arma::uvec& free = *problem.free;
    const auto n = static_cast<unsigned>(free.n_elem);
    NloptHandle opt(nlopt_create(problem.use_gradient ? NLOPT_LD_LBFGS : NLOPT_LN_BOBYQA, n));
    if (!opt) throw RunError("acquisition optimiser: NLopt could not create a local optimiser (out of memory?)");
    problem.opt = opt.get();
    problem.point = start;

    std::vector<double> lower_free(n), upper_free(n), x(n), step(n);
    for (unsigned k = 0; k < n; ++k) {
        const arma::uword j = free(k);
        lower_free[k] = (*problem.lower)(j);
        upper_free[k] = (*problem.upper)(j);
        x[k] = start(j);
        // A tenth of the width: BOBYQA's trust region must fit twice into every dimension.
        step[k] = 0.1 * (upper_free[k] - lower_free[k]);
    }
    nlopt_set_lower_bounds(opt.get(), lower_free.data());
    nlopt_set_upper_bounds(opt.get(), upper_free.data());
    nlopt_set_max_objective(opt.get(), nlopt_objective, &problem);
    nlopt_set_maxeval(opt.get(), static_cast<int>(std::min<std::size_t>(max_evaluations, std::numeric_limits<int>::max())));
    nlopt_set_xtol_rel(opt.get(), 1e-10);
    nlopt_set_ftol_rel(opt.get(), 1e-12);
    if (!problem.use_gradient) nlopt_set_initial_step(opt.get(), step.data());

    double value = 0.0;
    const nlopt_result result = nlopt_optimize(opt.get(), x.data(), &value);
    problem.opt = nullptr;
    if (problem.failure) std::rethrow_exception(problem.failure);
    // Running out of evaluations or hitting round-off still leaves the best point evaluated; only
    // a malformed problem or memory exhaustion is an error.
    if (result == NLOPT_INVALID_ARGS || result == NLOPT_OUT_OF_MEMORY) {
        throw RunError(fmt::format("acquisition optimiser: NLopt refused the local problem ({}) in {} dimensions",
                                   nlopt_result_to_string(result), n));
    }
}

// Row indices of the `count` best scores with distinct points, best first; ties keep the lower index.
std::vector<arma::uword> best_distinct_rows(const arma::vec& scores, const arma::mat& points, std::size_t count) {
    std::vector<arma::uword> order(scores.n_elem);
    std::iota(order.begin(), order.end(), arma::uword{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](arma::uword a, arma::uword b) { return scores(a) > scores(b); });
    std::vector<arma::uword> chosen;
    for (const arma::uword row : order) {
        if (chosen.size() == count) break;
        const bool repeated = std::any_of(chosen.begin(), chosen.end(), [&](arma::uword other) {
            return arma::all(points.row(other) == points.row(row));
        });
        if (!repeated) chosen.push_back(row);
    }
    return chosen;
}

}  // namespace

arma::mat halton_points(std::size_t count, std::size_t dim, ExperimentRng& rng) {
    const std::vector<std::uint64_t> bases = first_primes(dim);
    arma::mat points(count, dim);
    // Column-major: each dimension's sequence is one contiguous column. Index 0 (the origin in
    // every base) is skipped so the sequence starts 1/2, 1/3, 1/5, ...
    for (std::size_t j = 0; j < dim; ++j) {
        double* column = points.colptr(j);
        for (std::size_t i = 0; i < count; ++i) column[i] = radical_inverse(i + 1, bases[j]);
    }
    // Cranley–Patterson rotation: one uniform shift per dimension, modulo 1. It keeps the
    // low-discrepancy structure and makes every point marginally uniform.
    const arma::rowvec shift = rng.uniform(1, dim);
    points.each_row() += shift;
    points -= arma::floor(points);
    return points;
}

AcquisitionOptimum maximise_in_box(const Acquisition& acquisition, const Surrogate& model,
                                   const AcquisitionContext& context, const arma::rowvec& lower,
                                   const arma::rowvec& upper, const AcquisitionOptimiserSettings& settings,
                                   ExperimentRng& rng) {
    check_box(lower, upper);
    if (settings.sweep_points == 0) {
        throw ValidationError("acquisition optimiser: sweep_points = 0; allowed: ≥ 1 (the sweep seeds every local start)");
    }
    const arma::rowvec width = upper - lower;

    const bool reuse = settings.fixed_unit_sweep != nullptr;
    if (reuse && (settings.fixed_unit_sweep->n_rows != settings.sweep_points ||
                  settings.fixed_unit_sweep->n_cols != lower.n_elem)) {
        throw ValidationError(fmt::format("acquisition optimiser: the fixed sweep is {}×{}; expected {}×{}",
                                          settings.fixed_unit_sweep->n_rows, settings.fixed_unit_sweep->n_cols,
                                          settings.sweep_points, lower.n_elem));
    }
    arma::mat sweep = reuse ? *settings.fixed_unit_sweep : halton_points(settings.sweep_points, lower.n_elem, rng);
    sweep.each_row() %= width;
    sweep.each_row() += lower;
    // The shift modulo 1 stays below 1, but lower + u·width can round past upper.
    for (arma::uword j = 0; j < sweep.n_cols; ++j) sweep.col(j).clamp(lower(j), upper(j));

    const arma::vec scores = acquisition.score(model, sweep, context);
    check_scores(scores, sweep, "sweep");

    AcquisitionOptimum best;
    const arma::uword best_row = scores.index_max();  // the first of tied maxima
    best.point = sweep.row(best_row);
    best.score = scores(best_row);
    best.evaluations = sweep.n_rows;

    const arma::uvec free = arma::find(width > 0.0);
    if (settings.local_starts == 0 || settings.local_evaluations == 0 || free.is_empty()) return best;

    LocalProblem problem;
    problem.acquisition = &acquisition;
    problem.model = &model;
    problem.context = &context;
    problem.lower = &lower;
    problem.upper = &upper;
    problem.free = &free;
    problem.use_gradient = acquisition.provides_gradient() && model.provides_gradients();

    for (const arma::uword row : best_distinct_rows(scores, sweep, settings.local_starts)) {
        refine_locally(problem, sweep.row(row), settings.local_evaluations);
    }
    best.evaluations += problem.evaluations;
    if (problem.best_score > best.score) {
        best.score = problem.best_score;
        best.point = problem.best_point;
    }
    return best;
}

std::size_t best_candidate(const Acquisition& acquisition, const Surrogate& model,
                           const AcquisitionContext& context, const arma::mat& candidates,
                           const std::vector<bool>& excluded) {
    const std::size_t count = candidates.n_rows;
    if (!excluded.empty() && excluded.size() != count) {
        throw ValidationError(fmt::format(
            "acquisition optimiser: {} exclusion flags for {} candidates; allowed: none, or one per candidate",
            excluded.size(), count));
    }
    // Chunks bound the memory of the batch posterior (n × chunk) while keeping it BLAS-3.
    constexpr std::size_t kChunkRows = 4096;
    bool found = false;
    std::size_t best_index = 0;
    double best_score = -std::numeric_limits<double>::infinity();

    const auto consider = [&](const arma::vec& scores, const arma::mat& points, const auto& index_of) {
        check_scores(scores, points, "candidate scan");
        for (arma::uword k = 0; k < scores.n_elem; ++k) {
            // Strictly greater: the scan runs in index order, so ties keep the lowest index.
            if (!found || scores(k) > best_score) {
                found = true;
                best_score = scores(k);
                best_index = index_of(k);
            }
        }
    };

    if (excluded.empty() && count <= kChunkRows) {
        if (count > 0) consider(acquisition.score(model, candidates, context), candidates, [](arma::uword k) { return k; });
    } else {
        std::vector<arma::uword> kept;
        kept.reserve(std::min(count, kChunkRows));
        for (std::size_t begin = 0; begin < count; begin += kChunkRows) {
            const std::size_t end = std::min(count, begin + kChunkRows);
            kept.clear();
            for (std::size_t i = begin; i < end; ++i) {
                if (excluded.empty() || !excluded[i]) kept.push_back(i);
            }
            if (kept.empty()) continue;
            const arma::mat chunk = candidates.rows(arma::uvec(kept));
            consider(acquisition.score(model, chunk, context), chunk, [&](arma::uword k) { return kept[k]; });
        }
    }
    if (!found) {
        throw RunError(count == 0 ? std::string("acquisition optimiser: the candidate set is empty; nothing to choose")
                                  : fmt::format("acquisition optimiser: all {} candidates are excluded; nothing "
                                                "left to choose",
                                                count));
    }
    return best_index;
}

arma::mat greedy_batch_in_box(const Acquisition& acquisition, const Surrogate& model, AcquisitionContext context,
                              std::size_t batch_size, const arma::rowvec& lower, const arma::rowvec& upper,
                              const AcquisitionOptimiserSettings& settings, ExperimentRng& rng) {
    check_box(lower, upper);
    arma::mat batch(batch_size, lower.n_elem);
    if (context.pending.n_cols != lower.n_elem) {
        if (!context.pending.is_empty()) {
            throw ValidationError(fmt::format(
                "acquisition optimiser: the pending points have {} columns but the box has {} dimensions",
                context.pending.n_cols, lower.n_elem));
        }
        context.pending.set_size(0, lower.n_elem);
    }
    for (std::size_t i = 0; i < batch_size; ++i) {
        const AcquisitionOptimum choice = maximise_in_box(acquisition, model, context, lower, upper, settings, rng);
        batch.row(i) = choice.point;
        context.pending.insert_rows(context.pending.n_rows, choice.point);
    }
    return batch;
}

}  // namespace dpbo
