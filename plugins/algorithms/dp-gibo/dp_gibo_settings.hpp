#pragma once
// The parameters of one DP-GIBO run, validated by the plugin's schema before a run starts.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/privacy/private_gradient.hpp"
#include "dpbo/bo/starting_point.hpp"
#include "dpbo/bo/step_rule.hpp"

namespace dpbo::dp_gibo {

struct DpGiboSettings {
    dpbo::PrivateGradientSettings privacy;  // mu, steps = T, clipping_bound, records (from the objective)
    // Adaptive batch (seed 003, Algorithm 1): the smallest b whose greedy batch pushes Tr Σ∇(θ) to
    // bias_tolerance or below, at most max_batch. Fixed batch (seed 000, Algorithm 1): batch_size.
    std::optional<double> bias_tolerance;
    std::optional<std::size_t> batch_size;
    std::optional<std::size_t> max_batch;  // absent: d + 1
    dpbo::StartingPoint start;
    std::optional<double> local_box;          // half-width of θ ± δ in the objective's units; absent: the whole box
    std::optional<std::size_t> reuse_points;  // nearest earlier points kept in the model; absent: all
    bool centre_losses = true;                // subtract each record's mean loss over the model's points
    bool track_objective = true;              // evaluation-only columns: f(θ_t) and the distance to the optimum
    dpbo::StepRuleSettings step;
    dpbo::AcquisitionOptimiserSettings optimiser;
};

}  // namespace dpbo::dp_gibo
