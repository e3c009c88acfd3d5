#pragma once
// What a DP-GIBO run will cost, estimated before its first evaluation so that a batch or a dimension
// far past what the machine can do is refused by name (exit 2) instead of ending in bad_alloc or
// running for days. `batch_size = 100000` ran on unrefused (its batches alone would take about 10²³
// operations); `objective.dim = 100000` ended in std::bad_alloc.
#include <cstddef>

#include "dp_gibo_settings.hpp"

namespace dpbo::dp_gibo {

// Floating-point operations of choosing the batches, past which a run is refused: about three hours
// at 10¹⁰ operations a second (batch_size = 200 with the defaults is about 7·10¹², eight minutes).
inline constexpr double kLargestBatchWork = 1e14;

struct RunSize {
    double batch_work = 0.0;        // floating-point operations of the greedy batch choices
    double model_bytes = 0.0;       // the surrogate's factor, the model's points and losses, the batch's block
    double candidate_bytes = 0.0;   // the candidates scored for each point of a batch, with their solves
    std::size_t largest_model = 0;  // points in the model at the last iteration, before its batch
    std::size_t candidates = 0;     // sweep_points + 4d
};

// `batch` is the most new points an iteration takes (batch_size, or max_batch for adaptive batches).
RunSize estimate_run_size(const DpGiboSettings& settings, std::size_t batch, std::size_t dim, std::size_t records);

// Throws ValidationError naming the setting that drives the estimate past the machine's memory or
// kLargestBatchWork: the objective's dimension, batch_size (or max_batch, or their default d + 1),
// iterations, reuse_points.
void require_feasible_run(const DpGiboSettings& settings, std::size_t batch, std::size_t dim, std::size_t records,
                          const char* owner);

}  // namespace dpbo::dp_gibo
