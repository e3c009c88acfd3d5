#include "dp_ucb_settings.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::dp_ucb {

std::string to_string(Variant variant) {
    switch (variant) {
        case Variant::Noisy:
            return "noisy";
        case Variant::NoiseFree:
            return "noise-free";
        case Variant::Lipschitz:
            return "lipschitz";
    }
    return "unknown";
}

dpbo::ParameterSchema dp_ucb_schema() {
    dpbo::ParameterSchema schema;
    schema
        .choice("variant", {"noisy", "noise-free", "lipschitz"}, "noisy",
                "noisy: Algorithm 1 (GP-UCB, release λ̃ and ṽ; needs observation noise σ > 0); noise-free: "
                "Algorithm 2 (release λ̃ and f(λ_T); σ = 0); lipschitz: Algorithm 3 (any BO, release f_BO; needs "
                "the objective's declared Assumption-2 constants)")
        .integer("budget", {.fallback = 50,
                            .lower = 1,
                            .unit = "evaluations",
                            .doc = "T, the evaluations of the BO run (Algorithm 1 line 3, Algorithm 2 line 2, "
                                   "Algorithm 3 line 2)"})
        .real("epsilon", {.lower = 0.0,
                          .lower_inclusive = false,
                          .required = true,
                          .doc = "ε of each release (Algorithm 1 lines 12 and 14, Algorithm 2 line 4, Algorithm 3 "
                                 "line 5); the selection and mechanism roles get it by default and must keep it"})
        .real("delta", {.lower = 0.0,
                        .upper = 1.0,
                        .lower_inclusive = false,
                        .upper_inclusive = false,
                        .doc = "δ of each release (noisy, noise-free: required; Algorithm 1 lines 4, 9, 10, "
                               "Algorithm 2 line 3): the probability that a sensitivity bound fails under "
                               "Assumption 1"})
        .real("one_minus_k1", {.lower = 0.0,
                               .upper = 2.0,
                               .doc = "1 − k₁(V, V′), how far apart neighbouring datasets' validation functions may "
                                      "be under Assumption 1 (noisy, noise-free: required, no default; Algorithm 1 "
                                      "line 9, Algorithm 2 line 3)"})
        .real("A", {.lower = 0.0,
                    .lower_inclusive = false,
                    .doc = "A of de Freitas et al. (2012)'s bound (noise-free: required, the paper gives no "
                           "value; Algorithm 2 line 4)"})
        .real("tau", {.lower = 0.0,
                      .lower_inclusive = false,
                      .doc = "τ of de Freitas et al. (2012)'s bound (noise-free: required, the paper gives no "
                             "value; Algorithm 2 line 4)"})
        .choice("kernel", {"se", "matern52"}, "se",
                "k₂ of Assumption 1, normalised (k₂(λ, λ) = 1): squared exponential or Matérn 5/2. Fixed by the "
                "user, never fitted: a kernel fitted on the sensitive validation data would make the prior, and "
                "so every sensitivity bound, depend on the data")
        .real_list("lengthscale", std::nullopt,
                   "k₂'s length-scale(s) in the objective's units, one for all dimensions or one per dimension "
                   "(noisy, noise-free: required)")
        .text("candidates", std::string("objective"),
              "the finite set Λ (noisy, noise-free): 'objective' (the objective's own finite set), 'grid' "
              "(per_dimension points per dimension over its box), 'quasi-random' (candidate_count shifted Halton "
              "points, seeded by candidate_seed) or the path of a CSV file, one candidate per line, one column per "
              "dimension ('#' lines are comments)")
        .integer("per_dimension", {.fallback = 10, .lower = 2, .doc = "candidates = grid: points per dimension"})
        .integer("candidate_count", {.fallback = 1000, .lower = 1, .doc = "candidates = quasi-random: |Λ|"})
        .integer("candidate_seed", {.fallback = 0,
                                    .lower = 0,
                                    .doc = "candidates = quasi-random: fixes the Halton shift (public, "
                                           "data-independent)"})
        .boolean("evaluate_candidates", false,
                 "evaluation-only: evaluate f exactly at every candidate, to report the regret of λ̃ and of a "
                 "uniformly random candidate")
        .integer("initial_points", {.fallback = 5,
                                    .lower = 1,
                                    .unit = "evaluations",
                                    .doc = "lipschitz: the inner BO's quasi-random design (at most budget)"});
    // lipschitz: the inner BO maximises its acquisition as every BO loop does, with the same keys.
    dpbo::add_acquisition_optimiser_keys(schema);
    return schema;
}

namespace {

[[noreturn]] void refuse(const std::string& what) { throw dpbo::ValidationError(fmt::format("{}: {}", kOwner, what)); }

}  // namespace

DpUcbSettings dp_ucb_settings(const dpbo::ParameterSet& p) {
    DpUcbSettings s;
    const std::string& variant = p.text("variant");
    s.variant = variant == "noise-free"  ? Variant::NoiseFree
                : variant == "lipschitz" ? Variant::Lipschitz
                                         : Variant::Noisy;
    s.budget = static_cast<std::size_t>(p.integer("budget"));
    s.epsilon = p.real("epsilon");
    s.kernel =
        p.text("kernel") == "matern52" ? dpbo::gp::KernelFamily::Matern52 : dpbo::gp::KernelFamily::SquaredExponential;
    s.candidates = p.text("candidates");
    s.per_dimension = static_cast<std::size_t>(p.integer("per_dimension"));
    s.candidate_count = static_cast<std::size_t>(p.integer("candidate_count"));
    s.candidate_seed = static_cast<std::uint64_t>(p.integer("candidate_seed"));
    s.evaluate_candidates = p.boolean("evaluate_candidates");
    s.initial_points = static_cast<std::size_t>(p.integer("initial_points"));

    const auto need = [&](const char* key, const char* why) {
        if (!p.has(key)) refuse(fmt::format("variant = {} needs {} ({}); it has no default", variant, key, why));
    };
    const auto not_for = [&](std::initializer_list<const char*> keys, const char* why) {
        for (const char* key : keys)
            if (p.given_by_user(key)) refuse(fmt::format("{} does not apply to variant = {} ({})", key, variant, why));
    };
    if (s.variant == Variant::Lipschitz) {
        not_for({"delta", "one_minus_k1", "A", "tau", "lengthscale", "kernel", "candidates", "per_dimension",
                 "candidate_count", "candidate_seed", "evaluate_candidates"},
                "Algorithm 3 is ε-DP under Assumption 2 for any BO run over the objective's space; its inner BO "
                "is set through the surrogate and acquisition roles");
        if (s.initial_points > s.budget)
            refuse(fmt::format("initial_points = {} exceeds budget = {}", s.initial_points, s.budget));
        s.optimiser = dpbo::acquisition_optimiser_settings(p);
        return s;
    }
    not_for({"initial_points"}, "only the lipschitz variant runs a BO loop with an initial design");
    not_for({"optimiser", "acquisition_evaluations", "direct_evaluations", "local_starts", "local_evaluations"},
            "only the lipschitz variant maximises an acquisition over a box; Algorithms 1 and 2 scan the "
            "candidate set whole");
    need("delta", "Algorithm 1 lines 4, 9, 10 / Algorithm 2 line 3");
    need("one_minus_k1", "1 − k₁(V, V′) of Assumption 1, Algorithm 1 line 9 / Algorithm 2 line 3");
    need("lengthscale", "the kernel k₂ of Assumption 1");
    s.delta = p.real("delta");
    s.one_minus_k1 = p.real("one_minus_k1");
    s.lengthscales = p.real_list("lengthscale");
    for (const double l : s.lengthscales)
        if (!(std::isfinite(l) && l > 0.0)) refuse(fmt::format("lengthscale = {} is not allowed; need finite > 0", l));
    if (s.variant == Variant::NoiseFree) {
        need("A", "de Freitas et al. (2012)'s constant, Algorithm 2 line 4; the paper gives no value");
        need("tau", "de Freitas et al. (2012)'s constant, Algorithm 2 line 4; the paper gives no value");
        s.a = p.real("A");
        s.tau = p.real("tau");
        // (log T)^{d/4} of Algorithm 2 line 4 is 0 at T = 1.
        if (s.budget < 2)
            refuse(
                fmt::format("variant = noise-free needs budget >= 2 (Algorithm 2 line 4 divides by "
                            "(log T)^(d/4)); budget = {}",
                            s.budget));
    } else {
        not_for({"A", "tau"}, "de Freitas et al.'s constants belong to Algorithm 2 (variant = noise-free)");
    }
    const bool grid = s.candidates == "grid";
    const bool quasi = s.candidates == "quasi-random";
    if (!grid) not_for({"per_dimension"}, "it applies to candidates = grid");
    if (!quasi) not_for({"candidate_count", "candidate_seed"}, "they apply to candidates = quasi-random");
    return s;
}

}  // namespace dpbo::dp_ucb
