// Batches on several threads (dpbo run --workers N): each worker evaluates a contiguous slice with
// its own objective instance and its own generator; the base class then checks the merged batch and
// adds observation noise on the calling thread, as for a serial batch.
#include <algorithm>
#include <future>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

ParallelEvaluator::ParallelEvaluator(std::size_t workers, std::vector<std::shared_ptr<Objective>> replicas)
    : workers_(workers), replicas_(std::move(replicas)) {
    if (workers < 2)
        throw ValidationError(fmt::format("parallel evaluation: {} workers; expected at least 2 (one worker is the "
                                          "serial evaluator)",
                                          workers));
}

Evaluations ParallelEvaluator::evaluate_batch(Objective& objective, const arma::mat& points,
                                              const EvaluationRequest& request) {
    const std::size_t b = points.n_rows;
    const std::size_t slices = std::min(workers_, b);
    if (slices < 2) return objective.evaluate(points, request);
    const bool shared = objective.thread_safe();
    if (!shared && replicas_.size() < slices - 1)
        throw RunError(fmt::format("parallel evaluation: {} is not thread-safe and has {} replicas for {} workers",
                                   objective.describe_origin(), replicas_.size(), slices));
    // The batch's own generator (see Evaluator::evaluate) is split once more, per slice.
    const std::uint64_t base = request.rng != nullptr ? request.rng->seed() : 0;
    std::vector<std::future<Evaluations>> futures;
    std::vector<std::size_t> counts;
    std::size_t first = 0;
    for (std::size_t s = 0; s < slices; ++s) {
        const std::size_t count = b / slices + (s < b % slices ? 1 : 0);
        counts.push_back(count);
        Objective& serving = shared || s == 0 ? objective : *replicas_[s - 1];
        const arma::mat slice = points.rows(first, first + count - 1);
        futures.push_back(std::async(std::launch::async, [&serving, slice, request, base, s] {
            EvaluationRequest own = request;
            std::optional<ExperimentRng> rng;
            if (request.rng != nullptr) {
                rng.emplace(sub_seed(base, s));
                own.rng = &*rng;
            }
            return serving.evaluate(slice, own);
        }));
        first += count;
    }
    // Every slice is waited for before any failure is reported: no thread outlives the batch.
    std::vector<Evaluations> parts;
    std::exception_ptr failure;
    for (auto& future : futures) {
        try {
            parts.push_back(future.get());
        } catch (...) {
            if (!failure) failure = std::current_exception();
            parts.emplace_back();
        }
    }
    if (failure) std::rethrow_exception(failure);
    // A slice of the wrong length would shift every later point's values onto another point.
    for (std::size_t s = 0; s < slices; ++s)
        if (parts[s].values.n_rows != counts[s])
            throw RunError(fmt::format("{} returned {} values for a slice of {} points", objective.describe_origin(),
                                       parts[s].values.n_rows, counts[s]));
    const auto join = [&](auto member) {
        std::decay_t<decltype(parts.front().*member)> out;
        for (const Evaluations& part : parts) out = arma::join_cols(out, part.*member);
        return out;
    };
    Evaluations merged;
    merged.points = points;
    merged.values = join(&Evaluations::values);
    merged.per_record = join(&Evaluations::per_record);
    merged.auxiliary = join(&Evaluations::auxiliary);
    // Candidate rows are kept when every slice gave one per point (the contract allows none at all).
    if (std::all_of(parts.begin(), parts.end(),
                    [](const Evaluations& e) { return e.candidate_rows.n_elem == e.values.n_rows; }))
        merged.candidate_rows = join(&Evaluations::candidate_rows);
    return merged;
}

}  // namespace dpbo
