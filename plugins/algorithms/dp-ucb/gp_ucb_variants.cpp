#include "gp_ucb_variants.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "candidate_set.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"
#include "gp_ucb_phase.hpp"
#include "information_gain.hpp"
#include "kusner_constants.hpp"
#include "private_releases.hpp"

namespace dpbo::dp_ucb {

namespace {

// Algorithm 2 observes exactly; the posterior update still divides by √(σ²_{t−1}(x) + jitter), and
// the jitter keeps that finite where the prior makes a candidate (numerically) determined by others.
constexpr double kNoiseFreeJitter = 1e-10;

constexpr const char* kNeighbouring = "replace one record of the validation data (V and V' differ in one individual)";
constexpr const char* kProtectedUnit = "one validation record";

void check_observation_noise(const DpUcbSettings& s, const dpbo::Objective& objective, double sigma) {
    if (s.variant == Variant::Noisy && !(sigma > 0.0))
        throw dpbo::ValidationError(fmt::format(
            "{}: variant = noisy (Algorithm 1) needs observation noise sigma > 0, but {} declares "
            "observation_noise_stddev = {}; use variant = noise-free (Algorithm 2) or an objective with noise",
            kOwner, objective.describe_origin(), sigma));
    if (s.variant == Variant::NoiseFree && sigma != 0.0)
        throw dpbo::ValidationError(
            fmt::format("{}: variant = noise-free (Algorithm 2) needs exact observations, but {} declares "
                        "observation_noise_stddev = {}; use variant = noisy (Algorithm 1)",
                        kOwner, objective.describe_origin(), sigma));
}

std::unique_ptr<dpbo::gp::Kernel> normalised_kernel(const DpUcbSettings& s, std::size_t dim) {
    if (s.lengthscales.size() != 1 && s.lengthscales.size() != dim)
        throw dpbo::ValidationError(fmt::format("{}: lengthscale has {} entries; give 1 or one per dimension ({})",
                                                kOwner, s.lengthscales.size(), dim));
    dpbo::gp::KernelSpec spec;
    spec.family = s.kernel;
    spec.dim = dim;
    spec.lengthscales = arma::vec(s.lengthscales);
    // Assumption 1's k₂ is normalised, k₂(λ, λ) = 1 (σ_V,t ≤ 1 in Theorem 1's proof).
    spec.signal_variance = 1.0;
    return dpbo::gp::make_kernel(spec);
}

dpbo::ReleasedValue scalar(std::string name, std::string description, double value) {
    return {std::move(name), std::move(description), arma::mat{value}};
}

// The exact value of f at `points` (evaluation-only figures; no observation noise, not counted).
arma::vec exact_values(dpbo::RunContext& context, const arma::mat& points) {
    dpbo::EvaluationRequest request;
    request.rng = &context.rng;
    request.exact = true;
    return context.objective.evaluate(points, request).values.col(0);
}

}  // namespace

dpbo::RunResult run_gp_ucb_variant(dpbo::RunContext& context, const DpUcbSettings& s) {
    dpbo::Objective& objective = context.objective;
    const bool noisy = s.variant == Variant::Noisy;
    const char* algorithm = noisy ? "Algorithm 1" : "Algorithm 2";
    if (objective.output_count() != 1)
        throw dpbo::ValidationError(fmt::format("{}: needs an objective with one output; {} declares {}", kOwner,
                                                objective.describe_origin(), objective.output_count()));
    const double sigma = dpbo::observation_noise_stddev(objective);
    check_observation_noise(s, objective, sigma);
    const auto selection = context.role<dpbo::Selection>("selection");
    const auto mechanism = context.role<dpbo::Mechanism>("mechanism");
    if (!selection || !mechanism)
        throw dpbo::ValidationError(fmt::format("{}: needs a selection and a mechanism", kOwner));

    const CandidateSet lambda = build_candidate_set(s, objective);
    const std::size_t count = lambda.rows.n_rows;
    const std::size_t dim = lambda.rows.n_cols;
    if (!noisy && s.budget > count)
        throw dpbo::ValidationError(
            fmt::format("{}: variant = noise-free evaluates each candidate at most once, but "
                        "budget = {} exceeds the {} candidates",
                        kOwner, s.budget, count));
    const auto kernel = normalised_kernel(s, dim);
    const double sign = objective.sense() == dpbo::Sense::Maximise ? 1.0 : -1.0;
    const double noise_variance = noisy ? sigma * sigma : kNoiseFreeJitter;

    // γ_T for Algorithm 1, line 14: data-independent, computed before anything is observed.
    InformationGain gain;
    if (noisy) gain = greedy_information_gain(lambda.rows, *kernel, noise_variance, s.budget);

    // Every sensitivity is public (Λ, T, δ, σ, 1 − k₁, A, τ): both releases are calibrated, and a
    // module at another ε refused, before anything is evaluated.
    // Release 1, Algorithm 1 line 12 (Theorem 1; for Algorithm 2 by the remark opening §4): λ̃ with
    // quality μ_T and sensitivity 2√β_{T+1} + c, c from line 9.
    const double beta_T = beta(s.budget, count, s.delta);
    const double beta_next = beta(s.budget + 1, count, s.delta);
    const double c_selection = c_noisy(s.one_minus_k1, count, s.delta);
    const double delta_q = quality_sensitivity(s.budget, count, s.delta, c_selection);
    selection->calibrate(delta_q);
    require_epsilon(*selection, "selection", s.epsilon);

    // Release 2: the validation gain with Laplace noise.
    double sensitivity = 0.0;  // Δ, the scale is Δ/ε
    double c_value = 0.0;
    double first_term = 0.0;  // the γ_T term (noisy) or de Freitas et al.'s term (noise-free), before /ε
    double q = 0.0;
    double c1_value = 0.0;
    if (noisy) {
        // Algorithm 1 lines 9–15: ṽ = max_t v_t + Lap(√(C₁β_Tγ_T)/(ε√T) + c/ε + q/ε).
        c_value = c_selection;
        q = q_noise(sigma, s.delta);
        c1_value = c1(sigma);
        first_term = regret_term(c1_value, beta_T, gain.bound, s.budget);
        sensitivity = first_term + c_value + q;
    } else {
        // Algorithm 2 lines 3–5: f̃ = f(λ_T) + Lap((A/ε) e^{−Tτ/(log T)^{d/4}} + c/ε).
        c_value = c_noise_free(s.one_minus_k1, count, s.delta);
        first_term = noise_free_regret_term(s.a, s.tau, s.budget, dim);
        sensitivity = first_term + c_value;
    }
    mechanism->calibrate(sensitivity);
    require_epsilon(*mechanism, "mechanism", s.epsilon);

    const GpUcbPhase phase =
        run_gp_ucb_phase(context, lambda.rows, *kernel, noise_variance, s.delta, s.budget, noisy, sign);

    context.ledger.set_scope(kNeighbouring, kProtectedUnit);
    const std::size_t chosen = select_privately(*selection, phase.final_mean, s.delta, context.ledger,
                                                fmt::format("lambda~ ({} line 12)", algorithm));
    const arma::rowvec lambda_tilde = lambda.rows.row(chosen);
    // Algorithm 1 line 13: max_t v_t; Algorithm 2 line 5: f(λ_T). Maximisation sense.
    const double value = noisy ? phase.model_values.max() : phase.model_values(s.budget - 1);
    const double released_value = sign * release_privately(*mechanism, value, s.delta, context.ledger,
                                                           noisy ? "v~ = max_t v_t + Laplace (Algorithm 1 line 15)"
                                                                 : "f~ = f(lambda_T) + Laplace (Algorithm 2 line 5)");

    const double eps = s.epsilon;
    dpbo::RunResult result;
    result.released.push_back({"lambda_tilde",
                               fmt::format("λ̃, the private near-maximiser of μ_T over Λ ({} line 12, {})", algorithm,
                                           selection->describe_origin()),
                               arma::mat(lambda_tilde)});
    result.released.push_back(scalar(noisy ? "v_tilde" : "f_tilde",
                                     noisy ? "ṽ = max_t v_t + Laplace noise (Algorithm 1 lines 13–15)"
                                           : "f̃ = f(λ_T) + Laplace noise (Algorithm 2 lines 4–5)",
                                     released_value));
    // The constants below depend only on public settings (Λ, T, δ, σ, 1 − k₁, the kernel, A, τ).
    result.released.push_back(scalar("candidate_count", "|Λ|", static_cast<double>(count)));
    result.released.push_back(scalar("beta_T", "β_T (Algorithm 1 line 4)", beta_T));
    result.released.push_back(scalar("beta_T_plus_1", "β_{T+1} (Algorithm 1 line 4, used in line 12)", beta_next));
    result.released.push_back(scalar("c_selection", "c = 2√((1 − k₁) log(3|Λ|/δ)) (Algorithm 1 line 9)", c_selection));
    result.released.push_back(scalar("quality_sensitivity", "2√β_{T+1} + c (Algorithm 1 line 12, Theorem 1)", delta_q));
    result.released.push_back(scalar("laplace_scale",
                                     noisy ? "√(C₁β_Tγ_T)/(ε√T) + c/ε + q/ε (Algorithm 1 line 14)"
                                           : "(A/ε) exp(−Tτ/(log T)^{d/4}) + c/ε (Algorithm 2 line 4)",
                                     mechanism->noise_scale()));
    if (noisy) {
        result.released.push_back(scalar("q", "q = σ√(8 log(3/δ)) (Algorithm 1 line 10)", q));
        result.released.push_back(scalar("C1", "C₁ = 8/log(1 + σ⁻²) (Algorithm 1 line 11)", c1_value));
        result.released.push_back(scalar(
            "gamma_T_greedy", "greedy information gain of T observations over Λ (a lower bound on γ_T)", gain.greedy));
        result.released.push_back(scalar("gamma_T_bound",
                                         "greedy/(1 − 1/e) ≥ γ_T (Nemhauser et al. 1978), the γ_T of Algorithm 1 "
                                         "line 14",
                                         gain.bound));
        result.released.push_back(
            scalar("laplace_scale_gamma_term", "√(C₁β_Tγ_T)/(ε√T) (Algorithm 1 line 14)", first_term / eps));
        result.released.push_back(scalar("laplace_scale_c_term", "c/ε (Algorithm 1 line 14)", c_value / eps));
        result.released.push_back(scalar("laplace_scale_q_term", "q/ε (Algorithm 1 line 14)", q / eps));
    } else {
        result.released.push_back(scalar("c_value", "c = 2√((1 − k₁) log(2|Λ|/δ)) (Algorithm 2 line 3)", c_value));
        result.released.push_back(
            scalar("laplace_scale_decay_term", "(A/ε) exp(−Tτ/(log T)^{d/4}) (Algorithm 2 line 4)", first_term / eps));
        result.released.push_back(scalar("laplace_scale_c_term", "c/ε (Algorithm 2 line 4)", c_value / eps));
    }

    // Evaluation-only: figures computed from the data without privatisation.
    const double best_observed = sign * phase.model_values.max();
    result.evaluation_only.push_back(
        scalar("best_observed_value", "max_t v_t (Algorithm 1 line 13), not released", best_observed));
    result.evaluation_only.push_back(scalar("released_value_error", noisy ? "|ṽ − max_t v_t|" : "|f̃ − f(λ_T)|",
                                            std::abs(released_value - sign * value)));
    const double f_tilde_point = exact_values(context, lambda.rows.row(chosen))(0);
    result.evaluation_only.push_back(scalar("f_lambda_tilde", "f(λ̃), exact", f_tilde_point));
    if (s.evaluate_candidates) {
        const arma::vec f = sign * exact_values(context, lambda.rows);
        const double best = f.max();
        double best_evaluated = -std::numeric_limits<double>::infinity();
        for (const std::size_t row : phase.rows) best_evaluated = std::max(best_evaluated, f(row));
        result.evaluation_only.push_back(
            scalar("regret_lambda_tilde", "f(λ*) − f(λ̃) over Λ, exact", best - sign * f_tilde_point));
        result.evaluation_only.push_back(scalar("regret_best_evaluated",
                                                "f(λ*) − max_t f(λ_t): the non-private GP-UCB run's best, exact",
                                                best - best_evaluated));
        result.evaluation_only.push_back(scalar("regret_uniform_candidate",
                                                "f(λ*) − mean over Λ of f: the expected regret of a uniformly random λ",
                                                best - arma::mean(f)));
    } else if (const auto regret = objective.regret(f_tilde_point)) {
        result.evaluation_only.push_back(
            scalar("regret_lambda_tilde", "f* − f(λ̃), the objective's known optimum", *regret));
    }
    if (!noisy) result.evaluation_only.push_back(scalar("f_lambda_T", "f(λ_T), not released", sign * value));

    // The statement's words; its numbers are the ledger's.
    dpbo::PrivacyStatement& privacy = result.privacy;
    privacy.notion = dpbo::PrivacyNotion::ApproxDP;
    privacy.neighbouring = kNeighbouring;
    privacy.protected_unit = kProtectedUnit;
    privacy.conditional_on = fmt::format(
        "Assumption 1 of Kusner et al. (2015): the validation functions of all datasets are jointly a GP with "
        "covariance k1(V, V') k2(lambda, lambda'), k2 = {} (normalised), 1 - k1(V, V') = {} for neighbours; not a "
        "worst-case guarantee",
        kernel->describe(), s.one_minus_k1);
    privacy.released = {
        fmt::format("lambda~ in Lambda = {}, by {} with quality mu_T and sensitivity 2 sqrt(beta_(T+1)) + c = {} "
                    "({} line 12)",
                    lambda.description, selection->describe_origin(), delta_q, algorithm),
        noisy ? fmt::format("v~ = max_t v_t + Laplace(b = {}) (Algorithm 1 lines 13-15)", mechanism->noise_scale())
              : fmt::format("f~ = f(lambda_T) + Laplace(b = {}) (Algorithm 2 lines 4-5)", mechanism->noise_scale()),
        "the public constants of the run (|Lambda|, beta_T, beta_(T+1), c, the Laplace scale and its terms" +
            std::string(noisy ? ", q, C1, gamma_T's greedy value and bound)" : ")")};
    privacy.assumptions = {
        fmt::format("Assumption 1 (see the notion) with 1 - k1(V, V') = {} stated by the user, not verified",
                    s.one_minus_k1),
        fmt::format("under it, with probability at least 1 - delta = 1 - {}, mu_T moves by at most {} between "
                    "neighbours (Theorem 1) and the released value by at most {} ({}): each mechanism is pure "
                    "epsilon-DP for that bound and the failure probability delta is charged beside it as a (0, delta) "
                    "event, so each release is (epsilon, delta)-DP and the two together (2 epsilon, 2 delta)-DP",
                    s.delta, delta_q, sensitivity, noisy ? "Theorem 3" : "Theorem 5"),
        noisy ? fmt::format("gamma_T in line 14 is the upper bound {} = greedy {} / (1 - 1/e) on the maximum "
                            "information gain of T = {} observations over Lambda (Nemhauser, Wolsey & Fisher 1978); "
                            "sigma = {} is the objective's declared observation noise",
                            gain.bound, gain.greedy, s.budget, sigma)
              : fmt::format(
                    "that on every dataset this run's last point lambda_T meets f(lambda*) - f(lambda_T) <= A "
                    "exp(-T tau / (log T)^(d/4)) with the user's A = {} and tau = {} (not verified): de Freitas, "
                    "Smola & Zoghi (2012, Theorem 2) prove such a bound for their own search, not for the GP-UCB "
                    "over Lambda run here, which never evaluates a candidate twice, so its last point need not "
                    "be near the best (docs/methods/dp-ucb.md finds the bound broken at T = 100 on synthetic-gp); "
                    "observations are exact (sigma = 0)",
                    s.a, s.tau),
        "the kernel and Lambda are fixed by the user, independent of the data (a kernel fitted on the validation "
        "data would make the prior, and every sensitivity bound, data-dependent)"};
    privacy.mechanism = fmt::format(
        "Kusner et al. (2015) {}: GP-UCB over Lambda (beta_t = 2 log(|Lambda| t^2 pi^2 / "
        "(3 delta)), line 4), then {}; then {}",
        algorithm, selection->guarantee().mechanism, mechanism->guarantee().mechanism);
    result.trace = phase.trace;
    result.evaluations = context.evaluator.evaluations();
    result.stop_reason = "budget";
    return result;
}

}  // namespace dpbo::dp_ucb
