#include "dpbo/bo/acquisition_optimiser.hpp"

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
#include "box_search.hpp"

// Cost model (n observations, d dimensions, m sweep points): the sweep is one batched posterior,
// O(n²m) in a single triangular solve with m right-hand sides (O(nm) per new observation when the
// loop keeps one sweep and the surrogate caches its predictions there); each local step and each
// DIRECT evaluation is one posterior at a single point, O(n² + nd). Per evaluation a point search
// therefore costs far more than a sweep point. No phase refits the surrogate.

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
        throw ValidationError(
            fmt::format("acquisition optimiser: the box has {} lower and {} upper bounds; allowed: the same "
                        "number (≥ 1) of each, one per dimension",
                        lower.n_elem, upper.n_elem));
    }
    for (arma::uword j = 0; j < lower.n_elem; ++j) {
        if (!std::isfinite(lower(j)) || !std::isfinite(upper(j)) || lower(j) > upper(j)) {
            throw ValidationError(
                fmt::format("acquisition optimiser: dimension {} has bounds [{}, {}]; allowed: finite bounds "
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
            throw RunError(fmt::format("acquisition optimiser ({}): the acquisition is NaN at the point [{}]", phase,
                                       fmt::join(points.row(i), ", ")));
        }
    }
}

// Row indices of the `count` best scores with distinct points, best first; ties keep the lower index.
std::vector<arma::uword> best_distinct_rows(const arma::vec& scores, const arma::mat& points, std::size_t count) {
    std::vector<arma::uword> order(scores.n_elem);
    std::iota(order.begin(), order.end(), arma::uword{0});
    std::stable_sort(order.begin(), order.end(), [&](arma::uword a, arma::uword b) { return scores(a) > scores(b); });
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

namespace {

arma::mat scaled_sweep(const AcquisitionOptimiserSettings& settings, const arma::rowvec& lower,
                       const arma::rowvec& upper, ExperimentRng& rng) {
    if (settings.sweep_points == 0) {
        throw ValidationError(
            fmt::format("acquisition optimiser ({}): sweep_points = 0; allowed: ≥ 1 (the sweep "
                        "seeds every local start)",
                        to_string(settings.strategy)));
    }
    const bool reuse = settings.fixed_unit_sweep != nullptr;
    if (reuse && (settings.fixed_unit_sweep->n_rows != settings.sweep_points ||
                  settings.fixed_unit_sweep->n_cols != lower.n_elem)) {
        throw ValidationError(fmt::format("acquisition optimiser: the fixed sweep is {}×{}; expected {}×{}",
                                          settings.fixed_unit_sweep->n_rows, settings.fixed_unit_sweep->n_cols,
                                          settings.sweep_points, lower.n_elem));
    }
    arma::mat sweep = reuse ? *settings.fixed_unit_sweep : halton_points(settings.sweep_points, lower.n_elem, rng);
    sweep.each_row() %= upper - lower;
    sweep.each_row() += lower;
    // The shift modulo 1 stays below 1, but lower + u·width can round past upper.
    for (arma::uword j = 0; j < sweep.n_cols; ++j) sweep.col(j).clamp(lower(j), upper(j));
    return sweep;
}

// The sweep scored into `search`; returns the scores.
arma::vec score_sweep(const Acquisition& acquisition, const Surrogate& model, const AcquisitionContext& context,
                      const arma::mat& sweep, detail::BoxSearch& search) {
    const arma::vec scores = acquisition.score(model, sweep, context);
    check_scores(scores, sweep, "sweep");
    const arma::uword best_row = scores.index_max();  // the first of tied maxima
    search.consider(sweep.row(best_row), scores(best_row));
    return scores;
}

std::size_t product_or_throw(std::size_t a, std::size_t b, std::size_t c, const char* what) {
    if (b != 0 && a > (std::numeric_limits<std::size_t>::max() - c) / b) {
        throw ValidationError(fmt::format("acquisition optimiser: {} overflows", what));
    }
    return a * b + c;
}

void check_warm_starts(const arma::mat& warm_starts, const arma::rowvec& lower) {
    if (!warm_starts.is_empty() && warm_starts.n_cols != lower.n_elem) {
        throw ValidationError(
            fmt::format("acquisition optimiser: the warm starts have {} columns but the box has {} "
                        "dimensions",
                        warm_starts.n_cols, lower.n_elem));
    }
}

}  // namespace

std::string_view to_string(AcquisitionStrategy strategy) {
    switch (strategy) {
        case AcquisitionStrategy::SweepLocal:
            return "sweep-local";
        case AcquisitionStrategy::Multistart:
            return "multistart";
        case AcquisitionStrategy::Direct:
            return "direct";
        case AcquisitionStrategy::DirectLocal:
            return "direct-local";
        case AcquisitionStrategy::SweepDirect:
            return "sweep-direct";
        case AcquisitionStrategy::BatchedDirect:
            return "batched-direct";
        case AcquisitionStrategy::SweepBatchedDirect:
            return "sweep-batched-direct";
    }
    return "unknown";
}

std::vector<std::string> acquisition_strategy_names() {
    std::vector<std::string> names;
    for (const auto strategy :
         {AcquisitionStrategy::SweepLocal, AcquisitionStrategy::Multistart, AcquisitionStrategy::Direct,
          AcquisitionStrategy::DirectLocal, AcquisitionStrategy::SweepDirect, AcquisitionStrategy::BatchedDirect,
          AcquisitionStrategy::SweepBatchedDirect})
        names.emplace_back(to_string(strategy));
    return names;
}

std::optional<AcquisitionStrategy> acquisition_strategy_named(std::string_view name) {
    for (const auto strategy :
         {AcquisitionStrategy::SweepLocal, AcquisitionStrategy::Multistart, AcquisitionStrategy::Direct,
          AcquisitionStrategy::DirectLocal, AcquisitionStrategy::SweepDirect, AcquisitionStrategy::BatchedDirect,
          AcquisitionStrategy::SweepBatchedDirect})
        if (to_string(strategy) == name) return strategy;
    return std::nullopt;
}

AcquisitionOptimum maximise_in_box(const Acquisition& acquisition, const Surrogate& model,
                                   const AcquisitionContext& context, const arma::rowvec& lower,
                                   const arma::rowvec& upper, const AcquisitionOptimiserSettings& settings,
                                   ExperimentRng& rng) {
    check_box(lower, upper);
    const AcquisitionStrategy strategy = settings.strategy;
    const bool sweeps = strategy == AcquisitionStrategy::SweepLocal || strategy == AcquisitionStrategy::Multistart ||
                        strategy == AcquisitionStrategy::SweepDirect ||
                        strategy == AcquisitionStrategy::SweepBatchedDirect;
    const bool directs = strategy == AcquisitionStrategy::Direct || strategy == AcquisitionStrategy::DirectLocal ||
                         strategy == AcquisitionStrategy::SweepDirect ||
                         strategy == AcquisitionStrategy::BatchedDirect ||
                         strategy == AcquisitionStrategy::SweepBatchedDirect;
    const std::size_t local_budget =
        product_or_throw(settings.local_starts, settings.local_evaluations, 0, "local_starts × local_evaluations");
    std::size_t cap = 0;
    switch (strategy) {
        case AcquisitionStrategy::SweepLocal:
        case AcquisitionStrategy::Multistart:
            cap = local_budget;
            break;
        case AcquisitionStrategy::Direct:
        case AcquisitionStrategy::SweepDirect:
        case AcquisitionStrategy::BatchedDirect:
        case AcquisitionStrategy::SweepBatchedDirect:
            cap = settings.direct_evaluations;
            break;
        case AcquisitionStrategy::DirectLocal:
            cap = product_or_throw(1, settings.local_evaluations, settings.direct_evaluations,
                                   "direct_evaluations + local_evaluations");
            break;
    }
    if (directs && settings.direct_evaluations == 0) {
        throw ValidationError(
            fmt::format("acquisition optimiser ({}): direct_evaluations = 0; allowed: ≥ 1", to_string(strategy)));
    }
    check_warm_starts(settings.warm_starts, lower);

    detail::BoxSearch search(acquisition, model, context, lower, upper, cap);
    std::size_t sweep_evaluations = 0;
    if (sweeps) {
        const arma::mat sweep = scaled_sweep(settings, lower, upper, rng);
        const arma::vec scores = score_sweep(acquisition, model, context, sweep, search);
        sweep_evaluations = sweep.n_rows;
        if (strategy == AcquisitionStrategy::SweepDirect) {
            search.direct(settings.direct_evaluations, rng.derive_seed());
        } else if (strategy == AcquisitionStrategy::SweepBatchedDirect) {
            search.batched_direct(settings.direct_evaluations, rng.derive_seed());
        } else if (strategy == AcquisitionStrategy::SweepLocal) {
            for (const arma::uword row : best_distinct_rows(scores, sweep, settings.local_starts))
                search.local(sweep.row(row), settings.local_evaluations);
        } else {
            // Warm starts first: the previous maximiser and the incumbent are where the acquisition
            // was high last time, and a converged start returns its unspent evaluations.
            std::vector<arma::rowvec> starts;
            for (arma::uword i = 0; i < settings.warm_starts.n_rows; ++i)
                starts.emplace_back(settings.warm_starts.row(i));
            const std::size_t from_sweep = std::min<std::size_t>(sweep.n_rows, local_budget);
            for (const arma::uword row : best_distinct_rows(scores, sweep, from_sweep))
                starts.emplace_back(sweep.row(row));
            for (const arma::rowvec& start : starts) {
                if (search.remaining() == 0 || !search.has_free_coordinates()) break;
                search.local(start, settings.local_evaluations);
            }
        }
    } else if (strategy == AcquisitionStrategy::BatchedDirect) {
        search.batched_direct(settings.direct_evaluations, rng.derive_seed());
    } else {
        // DIRECT's random tie breaks: one seed per search from the experiment's stream.
        search.direct(settings.direct_evaluations, rng.derive_seed());
        if (strategy == AcquisitionStrategy::DirectLocal && search.found())
            search.local(search.best_point(), settings.local_evaluations);
    }
    if (!search.found()) {
        // Nothing free to search (a zero-width box) and no sweep: the box's only point.
        const arma::mat only(lower);
        const arma::vec scores = acquisition.score(model, only, context);
        check_scores(scores, only, "point");
        search.consider(lower, scores(0));
        ++sweep_evaluations;
    }
    AcquisitionOptimum best;
    best.point = search.best_point();
    best.score = search.best_score();
    best.evaluations = sweep_evaluations + search.evaluations();
    return best;
}

std::size_t best_candidate(const Acquisition& acquisition, const Surrogate& model, const AcquisitionContext& context,
                           const arma::mat& candidates, const std::vector<bool>& excluded) {
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

    // The whole set in one call while its posterior fits comfortably: the same matrix every step, so
    // a GP surrogate extends the predictions it cached instead of recomputing them (O(n·m) per new
    // observation instead of O(n²·m), m candidates, while its hyperparameters stay). Excluded rows
    // are scored and then passed over.
    constexpr double kWholeSetEntries = 1 << 24;
    if (count > 0 && (count <= kChunkRows ||
                      static_cast<double>(count) * static_cast<double>(model.size() + 1) <= kWholeSetEntries)) {
        const arma::vec scores = acquisition.score(model, candidates, context);
        check_scores(scores, candidates, "candidate scan");
        for (arma::uword k = 0; k < scores.n_elem; ++k) {
            if (!excluded.empty() && excluded[k]) continue;
            // Strictly greater: the scan runs in index order, so ties keep the lowest index.
            if (!found || scores(k) > best_score) {
                found = true;
                best_score = scores(k);
                best_index = k;
            }
        }
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
            throw ValidationError(
                fmt::format("acquisition optimiser: the pending points have {} columns but the box has {} dimensions",
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
