#include "dp_gibo_run_size.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "memory_bound.hpp"

namespace dpbo::dp_gibo {

namespace {

// Σ_{j=0}^{c−1} j².
double sum_of_squares(double c) { return c <= 1.0 ? 0.0 : (c - 1.0) * c * (2.0 * c - 1.0) / 6.0; }

std::string batch_setting(const DpGiboSettings& settings, std::size_t batch, std::size_t dim) {
    if (settings.batch_size) return fmt::format("batch_size = {}", batch);
    if (settings.max_batch) return fmt::format("max_batch = {}", batch);
    return fmt::format(
        "the default batch of d + 1 = {} points for the objective's {} dimensions (set batch_size or "
        "max_batch)",
        batch, dim);
}

}  // namespace

RunSize estimate_run_size(const DpGiboSettings& settings, std::size_t batch, std::size_t dim, std::size_t records) {
    const double b = static_cast<double>(batch), d = static_cast<double>(dim), n = static_cast<double>(records);
    const double steps = static_cast<double>(settings.privacy.steps);
    RunSize size;
    size.candidates = settings.optimiser.sweep_points + 4 * dim;
    const double m = static_cast<double>(size.candidates);
    // Points in the model before iteration t's batch: (t − 1)·b when every point is kept, at most
    // reuse_points otherwise. Σ_t of their squares, in closed form (T may be large).
    double squares = 0.0, largest = 0.0;
    if (!settings.reuse_points) {
        squares = b * b * sum_of_squares(steps);
        largest = (steps - 1.0) * b;
    } else {
        const double kept = static_cast<double>(*settings.reuse_points);
        const double growing = std::min(steps, b > 0.0 ? std::floor(kept / b) + 1.0 : steps);
        squares = b * b * sum_of_squares(growing) + (steps - growing) * kept * kept;
        largest = std::min(kept, (steps - 1.0) * b);
    }
    size.largest_model = static_cast<std::size_t>(largest);
    // Each of the b greedy picks with p points pending solves the model's factor (n_t × n_t) against
    // the d gradient and m candidate columns and the p pending ones (n_t²(d + m + p)), factorises the
    // pending block (p³/3) and solves it against the candidates (p²(d + m)); summed over p < b. The
    // gp surrogate's gradient_trace_with_each (core/bo/src/gp/gaussian_process.cpp) is this.
    size.batch_work =
        squares * (b * (d + m) + b * b / 2.0) + steps * (b * b * b * b / 12.0 + b * b * b * (d + m) / 3.0);
    const double model = largest + b;
    size.model_bytes = 8.0 * (model * model + model * (n + d + m) + b * b);
    size.candidate_bytes = 8.0 * 4.0 * m * d;  // the sweep, the axis points, both joined, their kernel gradients
    return size;
}

void require_feasible_run(const DpGiboSettings& settings, std::size_t batch, std::size_t dim, std::size_t records,
                          const char* owner) {
    const RunSize size = estimate_run_size(settings, batch, dim, records);
    memory::require(owner,
                    fmt::format("the objective's dimension d = {} (e.g. objective.dim) with sweep_points = {}", dim,
                                settings.optimiser.sweep_points),
                    size.candidate_bytes,
                    fmt::format("the {} candidates (sweep_points + 4d) of d coordinates scored for every batch point, "
                                "8 bytes each, in four working copies",
                                size.candidates));
    memory::require(
        owner,
        fmt::format("{} over iterations = {}{}", batch_setting(settings, batch, dim), settings.privacy.steps,
                    settings.reuse_points ? fmt::format(" with reuse_points = {}", *settings.reuse_points)
                                          : std::string(" (every point kept in the model)")),
        size.model_bytes,
        fmt::format("the surrogate's factor of up to {} points, 8 bytes per entry, and their {} losses",
                    size.largest_model + batch, records));
    if (size.batch_work > kLargestBatchWork) {
        throw ValidationError(fmt::format(
            "{}: {} over iterations = {} would cost about {:.2g} floating-point operations to choose the batches "
            "(each of the b greedy picks solves the model of up to {} points against the {} candidates); the limit is "
            "{:.0e} (about three hours at 1e10 a second). Allowed: a smaller batch_size (or max_batch), fewer "
            "iterations, or reuse_points to cap the model",
            owner, batch_setting(settings, batch, dim), settings.privacy.steps, size.batch_work, size.largest_model,
            size.candidates, kLargestBatchWork));
    }
}

}  // namespace dpbo::dp_gibo
