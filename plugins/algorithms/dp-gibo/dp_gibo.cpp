// DP-GIBO (Algorithm 1 of the DP-GIBO paper, seed 003; the fixed-batch Algorithm 1 of seed 000):
// private local Bayesian optimisation of f(θ) = (1/n) Σ_i L(θ, x_i). Each iteration t:
//   1. choose a batch z around θ_t by greedily minimising Tr Σ∇(θ_t | D ∪ z) (acquisition
//      'gibo-trace') — the smallest batch reaching bias_tolerance, at most max_batch; or a fixed b;
//   2. evaluate the per-record losses at z (b × n) and form every record's posterior mean gradient
//      at once, G = A·Y with A = ∇k(θ, D)(K + σ²I)⁻¹ (d × |D|) and Y the |D| × n losses;
//   3. clip each record's gradient to norm B, average, and add N(0, (2B√T/(nμ))² I) noise from the
//      privacy-noise source (μ/√T-GDP per step, μ-GDP for the path);
//   4. step with the chosen rule (plain, AdaGrad, Adam, momentum) and project onto the box.
// Everything after step 3 and every choice of locations is post-processing, so the whole path is
// μ-GDP whatever the data and whatever B (Theorem 3.1).
//
// Deliberate differences from the authors' code (JurajMarusic/DPGIBO): the batch is chosen greedily
// by a quasi-random sweep of the local box plus derivative-free refinement, not by 1000 Adam steps
// on all b locations jointly; and with bias_tolerance the batch size adapts (seed 003).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dp_gibo_run.hpp"
#include "dp_gibo_settings.hpp"
#include "memory_bound.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'dp-gibo'";

class DpGibo final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .integer("iterations", {.fallback = 25,
                                    .lower = 1,
                                    .unit = "steps",
                                    .doc = "T: gradient releases (the μ budget is split evenly over them)"})
            .real("mu", {.fallback = 1.0,
                         .lower = 0.0,
                         .lower_inclusive = false,
                         .doc = "μ of the μ-GDP guarantee for the whole path θ⁽¹⁾…θ⁽ᵀ⁾"})
            .real("clipping_bound", {.fallback = 1.0,
                                     .lower = 0.0,
                                     .lower_inclusive = false,
                                     .doc = "B: each record's gradient estimate is clipped to this L2 norm"})
            .real("equivalent_delta", {.fallback = 1e-5,
                                       .lower = 0.0,
                                       .upper = 1.0,
                                       .lower_inclusive = false,
                                       .upper_inclusive = false,
                                       .doc = "δ at which the (ε, δ)-DP equivalent of the μ-GDP guarantee is "
                                              "reported"})
            .real("bias_tolerance",
                  {.lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "ε of Algorithm 1 (seed 003; not a privacy ε): each batch is the smallest that brings "
                          "Tr Σ∇(θ) to ε or below, at most max_batch. Give this or batch_size"})
            .integer("batch_size", {.lower = 1,
                                    .unit = "points",
                                    .doc = "a fixed batch of b new points per iteration (seed 000's Algorithm 1; "
                                           "absent with bias_tolerance absent: d + 1, as the authors' code)"})
            .integer("max_batch", {.lower = 1,
                                   .unit = "points",
                                   .doc = "cap on the adaptive batch (absent: d + 1; with observation noise the "
                                          "tolerance may be unreachable)"});
        dpbo::add_starting_point_parameters(schema);
        schema
            .real("local_box",
                  {.fallback = 1.0,
                   .lower = 0.0,
                   .lower_inclusive = false,
                   .unit = "objective units",
                   .doc = "new points are chosen in θ ± local_box (within the box; in natural-log units on a "
                          "log-scaled dimension); the default is the default kernel's length-scale, where a "
                          "stationary kernel learns a gradient best; a value wider than the box means anywhere in it"})
            .integer("reuse_points", {.lower = 0,
                                      .unit = "points",
                                      .doc = "only this many earlier points, the nearest to θ, stay in the model with "
                                             "their losses (the authors' closest_cache; 0: only the new batch); "
                                             "absent: every earlier point, D_t = D_{t−1} ∪ z as in Algorithm 1"})
            .boolean("centre_losses", true,
                     "subtract from each record's losses their mean over the model's points before the GP "
                     "estimates its gradient. A per-record map, so the privacy argument is unchanged. The paper's "
                     "zero-mean GP (false) reads a record's constant level as a bump and turns it into a spurious "
                     "gradient whenever the points are not symmetric about θ: on gp-lengthscales its estimate "
                     "is 0.56 cosine-aligned with the true gradient, the centred one 0.99")
            .boolean("track_objective", true,
                     "also record f(θ_t) and the distance to a known optimum in evaluation-only trace columns "
                     "(not released; costs one extra evaluation per iteration outside the budget)")
            .integer("sweep_points", {.fallback = 64,
                                      .lower = 1,
                                      .doc = "quasi-random points of the local box scored, with the 4d axis points "
                                             "θ ± r·e_j (r = local_box/2, local_box), for every chosen point"})
            .integer("local_starts", {.fallback = 0,
                                      .lower = 0,
                                      .doc = "best sweep points also refined by derivative-free local search (slower; "
                                             "the axis points already bring the trace close to what it finds)"})
            .integer("local_evaluations",
                     {.fallback = 60, .lower = 1, .doc = "acquisition evaluations per local start"});
        dpbo::add_step_rule_parameters(schema, "adagrad", 0.3);
        return schema;
    }

    explicit DpGibo(const dpbo::ParameterSet& p) {
        settings_.privacy.mu = p.real("mu");
        settings_.privacy.steps = static_cast<std::size_t>(p.integer("iterations"));
        dpbo::memory::require(kOwner, fmt::format("iterations = {}", settings_.privacy.steps),
                              static_cast<double>(settings_.privacy.steps) * 256.0,
                              "a trace row and a ledger entry per step, about 256 bytes each at least");
        settings_.privacy.clipping_bound = p.real("clipping_bound");
        settings_.privacy.equivalent_delta = p.real("equivalent_delta");
        if (p.has("bias_tolerance") && p.has("batch_size")) {
            throw dpbo::ValidationError(fmt::format(
                "{}: bias_tolerance = {} and batch_size = {} were both given; allowed: one of them (adaptive or "
                "fixed batches)",
                kOwner, p.real("bias_tolerance"), p.integer("batch_size")));
        }
        if (p.has("max_batch") && p.has("batch_size")) {
            throw dpbo::ValidationError(fmt::format(
                "{}: max_batch = {} applies to adaptive batches (bias_tolerance); with batch_size = {} remove it",
                kOwner, p.integer("max_batch"), p.integer("batch_size")));
        }
        if (p.has("bias_tolerance")) settings_.bias_tolerance = p.real("bias_tolerance");
        if (p.has("batch_size")) settings_.batch_size = static_cast<std::size_t>(p.integer("batch_size"));
        if (p.has("max_batch")) settings_.max_batch = static_cast<std::size_t>(p.integer("max_batch"));
        settings_.start = dpbo::starting_point_settings(p, kOwner);
        if (p.has("local_box")) settings_.local_box = p.real("local_box");
        if (p.has("reuse_points")) settings_.reuse_points = static_cast<std::size_t>(p.integer("reuse_points"));
        settings_.centre_losses = p.boolean("centre_losses");
        settings_.track_objective = p.boolean("track_objective");
        settings_.optimiser.sweep_points = static_cast<std::size_t>(p.integer("sweep_points"));
        settings_.optimiser.local_starts = static_cast<std::size_t>(p.integer("local_starts"));
        settings_.optimiser.local_evaluations = static_cast<std::size_t>(p.integer("local_evaluations"));
        settings_.step = dpbo::step_rule_settings(p);
    }

    std::vector<dpbo::Role> roles() const override {
        return {
            {"surrogate",
             dpbo::ModuleKind::Surrogate,
             true,
             "gp",
             "the GP whose posterior mean gradient estimates each record's gradient: fixed hyperparameters in the "
             "objective's coordinates, never fitted (it sees only locations); noise_variance is the σ² of "
             "Algorithm 1. Default: RBF with length-scale 1, as the paper",
             {{"kernel", "rbf"},
              {"mean", "zero"},
              {"standardise", "false"},
              {"fit", "none"},
              {"noise_variance", "1e-6"}}},
            {"acquisition",
             dpbo::ModuleKind::Acquisition,
             true,
             "gibo-trace",
             "chooses the points that most reduce the uncertainty of the gradient at θ (locations only)",
             {}},
            {"accountant",
             dpbo::ModuleKind::Accountant,
             true,
             "gdp",
             "composes the T Gaussian gradient releases (μ-GDP composition is exact for them); its (ε, δ) "
             "equivalent is reported at equivalent_delta",
             {{"delta", fmt::format("{:.17g}", settings_.privacy.equivalent_delta)}}},
        };
    }

    dpbo::RunResult run(dpbo::RunContext& context) override { return dpbo::dp_gibo::run_dp_gibo(context, settings_); }

private:
    dpbo::dp_gibo::DpGiboSettings settings_;
};

}  // namespace

DPBO_PLUGIN(DpGibo, "dp-gibo", "1.0.0",
            "DP-GIBO: μ-GDP local Bayesian optimisation by noisy gradient steps on per-record-clipped GP "
            "gradient estimates (adaptive or fixed batches)",
            "Sopa, Marusic, Avella-Medina & Cunningham, Scalable Differentially Private Bayesian Optimization, §3.1, "
            "Algorithm 1 (the earlier version's Algorithms 1-2)")
