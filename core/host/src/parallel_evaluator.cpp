// Batches on several threads (dpbo run --workers N): each worker evaluates a contiguous slice with
// its own objective instance and its own generator; the base class then checks the merged batch and
// adds observation noise on the calling thread, as for a serial batch.
#include <future>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/parallel_evaluator.hpp"
#include "dpbo/host/batch_slices.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

ParallelEvaluator::ParallelEvaluator(std::size_t workers, std::vector<std::shared_ptr<Objective>> replicas)
    : workers_(workers), replicas_(std::move(replicas)) {
    if (workers < 2)
        throw ValidationError(
            fmt::format("parallel evaluation: {} workers; expected at least 2 (one worker is the "
                        "serial evaluator)",
                        workers));
}

Evaluations ParallelEvaluator::evaluate_batch(Objective& objective, const arma::mat& points,
                                              const EvaluationRequest& request) {
    const std::vector<BatchSlice> slices = batch_slices(points.n_rows, workers_);
    if (slices.size() < 2) return objective.evaluate(points, request);
    const bool shared = thread_safe(objective);
    if (!shared && replicas_.size() < slices.size() - 1)
        throw RunError(fmt::format("parallel evaluation: {} is not thread-safe and has {} replicas for {} workers",
                                   objective.describe_origin(), replicas_.size(), slices.size()));
    // The batch's own generator (see Evaluator::evaluate) is split once more, per slice.
    const std::uint64_t base = request.rng != nullptr ? request.rng->seed() : 0;
    // A trial's privacy noise is split the same way: slice s draws from the s-th source keyed from
    // the batch's trial stream, so no two slices share bits and W workers draw the same per slice.
    std::vector<PrivacyNoiseSource> slice_trial_noise = slice_trial_noise_sources(request, slices.size());
    std::vector<std::future<Evaluations>> futures;
    for (std::size_t s = 0; s < slices.size(); ++s) {
        Objective& serving = shared || s == 0 ? objective : *replicas_[s - 1];
        const arma::mat slice = points.rows(slices[s].first, slices[s].first + slices[s].count - 1);
        // The call guard is per thread: each worker has its own, so that a fatal signal in a slice
        // names the objective as one on the calling thread does.
        const std::string who = serving.describe_origin();
        PrivacyNoiseSource* trial_noise = slice_trial_noise.empty() ? nullptr : &slice_trial_noise[s];
        futures.push_back(std::async(std::launch::async, [&serving, slice, request, base, s, who, trial_noise] {
            EvaluationRequest own = request;
            std::optional<ExperimentRng> rng;
            if (request.rng != nullptr) {
                rng.emplace(slice_seed(base, s));
                own.rng = &*rng;
            }
            own.trial_noise = trial_noise;
            return call_into_module(who, "evaluating points", [&] { return serving.evaluate(slice, own); });
        }));
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
    return merge_slices(points, slices, parts, objective.describe_origin());
}

}  // namespace dpbo
