#include "lipschitz_variant.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/bo/loop.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "kusner_constants.hpp"
#include "private_releases.hpp"

namespace dpbo::dp_ucb {

namespace {

constexpr const char* kNeighbouring = "replace one record of the validation data (V and V' differ in one individual)";
constexpr const char* kProtectedUnit = "one validation record";

// The inner BO's trace, with every column that depends on the data marked evaluation-only: only
// f_BO + noise is released (Algorithm 3 line 6), never the path or the values.
class EvaluationOnlyStatistics final : public dpbo::LoopStatistics {
public:
    std::vector<dpbo::TraceColumn> columns(const dpbo::BoLoop& loop) const override {
        std::vector<dpbo::TraceColumn> columns = standard_.columns(loop);
        for (auto& column : columns)
            column.evaluation_only = column.name != "iteration" && column.name != "evaluations";
        return columns;
    }
    std::vector<double> row(const dpbo::BoLoop& loop, double score, double cpu_seconds) const override {
        return standard_.row(loop, score, cpu_seconds);
    }

private:
    dpbo::StandardStatistics standard_;
};

struct Assumption2 {
    double lipschitz = 0.0;           // L
    double gain_bound = 0.0;          // g*
    double validation_records = 0.0;  // m
    double lambda_min = 0.0;
    double lambda_max = 0.0;
};

// The constant `name` among `constants`, or nullopt.
std::optional<double> constant_named(const std::vector<dpbo::DeclaredConstant>& constants, std::string_view name) {
    for (const auto& constant : constants)
        if (constant.name == name) return constant.value;
    return std::nullopt;
}

Assumption2 declared_assumption2(const dpbo::Objective& objective) {
    // None when the objective has no DeclaredConstants: the message below then says it declares none.
    const std::vector<dpbo::DeclaredConstant> constants = dpbo::declared_constants(objective);
    std::vector<std::string> missing;
    for (const std::string& name : assumption2_constant_names())
        if (!constant_named(constants, name)) missing.push_back(name);
    if (!missing.empty()) {
        std::vector<std::string> declared;
        for (const auto& constant : constants) declared.push_back(constant.name);
        throw dpbo::ValidationError(fmt::format(
            "{}: variant = lipschitz (Algorithm 3, line 5) needs the objective's Assumption-2 constants, but {} does "
            "not declare {}; it declares {}. Use an objective that declares lipschitz, gain_bound, "
            "validation_records, lambda_min and lambda_max (e.g. logreg-validation)",
            kOwner, objective.describe_origin(), fmt::join(missing, ", "),
            declared.empty() ? std::string("none") : fmt::format("{}", fmt::join(declared, ", "))));
    }
    Assumption2 a{*constant_named(constants, "lipschitz"), *constant_named(constants, "gain_bound"),
                  *constant_named(constants, "validation_records"), *constant_named(constants, "lambda_min"),
                  *constant_named(constants, "lambda_max")};
    const auto positive = [&](const char* name, double value) {
        if (!(std::isfinite(value) && value > 0.0))
            throw dpbo::ValidationError(fmt::format("{}: {} declares {} = {}; Algorithm 3 needs a finite value > 0",
                                                    kOwner, objective.describe_origin(), name, value));
    };
    positive("lipschitz", a.lipschitz);
    positive("gain_bound", a.gain_bound);
    positive("validation_records", a.validation_records);
    positive("lambda_min", a.lambda_min);
    positive("lambda_max", a.lambda_max);
    if (!(a.lambda_min <= a.lambda_max))
        throw dpbo::ValidationError(fmt::format("{}: {} declares lambda_min = {} > lambda_max = {}", kOwner,
                                                objective.describe_origin(), a.lambda_min, a.lambda_max));
    return a;
}

dpbo::ReleasedValue scalar(std::string name, std::string description, double value) {
    return {std::move(name), std::move(description), arma::mat{value}};
}

}  // namespace

const std::vector<std::string>& assumption2_constant_names() {
    static const std::vector<std::string> names = {"lipschitz", "gain_bound", "validation_records", "lambda_min",
                                                   "lambda_max"};
    return names;
}

dpbo::RunResult run_lipschitz_variant(dpbo::RunContext& context, const DpUcbSettings& s) {
    dpbo::Objective& objective = context.objective;
    if (objective.output_count() != 1)
        throw dpbo::ValidationError(fmt::format("{}: needs an objective with one output; {} declares {}", kOwner,
                                                objective.describe_origin(), objective.output_count()));
    const Assumption2 a = declared_assumption2(objective);
    const auto mechanism = context.role<dpbo::Mechanism>("mechanism");
    if (!mechanism) throw dpbo::ValidationError(fmt::format("{}: needs a mechanism", kOwner));
    // Algorithm 3 line 5 / Theorem 7: Δ = min{g*/m, L/(m λ_min)} + (λ_max − λ_min)L/(λ_max λ_min).
    const double record_term =
        std::min(a.gain_bound / a.validation_records, a.lipschitz / (a.validation_records * a.lambda_min));
    const double sensitivity =
        lipschitz_sensitivity(a.lipschitz, a.gain_bound, a.validation_records, a.lambda_min, a.lambda_max);
    mechanism->calibrate(sensitivity);
    require_epsilon(*mechanism, "mechanism", s.epsilon);

    // Algorithm 3 line 2: any BO for T steps; here the open loop with the run's surrogate and
    // acquisition (its privacy does not depend on which).
    dpbo::BoLoopSettings bo;
    bo.budget = s.budget;
    bo.initial_points = s.initial_points;
    bo.optimiser = s.optimiser;
    dpbo::BoLoopPolicies policies;
    policies.statistics = std::make_shared<EvaluationOnlyStatistics>();
    dpbo::BoLoop loop(context, bo, "dp-ucb", policies);
    const dpbo::RunResult inner = loop.run();
    const double sign = objective.sense() == dpbo::Sense::Maximise ? 1.0 : -1.0;
    // Algorithm 3 line 3: f_BO = max_t f_V(w_λt), in the maximisation sense.
    const double f_bo = sign * loop.best_value();

    context.ledger.set_scope(kNeighbouring, kProtectedUnit);
    const double released =
        sign * release_privately(*mechanism, f_bo, 0.0, context.ledger, "f~_L = f_BO + Laplace (Algorithm 3 line 6)");

    dpbo::RunResult result;
    result.released.push_back(scalar("f_tilde",
                                     "f̃_L = f_BO + Laplace noise (Algorithm 3 lines 5–6), in the "
                                     "objective's sense",
                                     released));
    result.released.push_back(scalar("laplace_scale",
                                     "(1/ε) min{g*/m, L/(m λ_min)} + (λ_max − λ_min)L/(ε λ_max λ_min) (Algorithm 3 "
                                     "line 5)",
                                     mechanism->noise_scale()));
    result.released.push_back(scalar("laplace_scale_record_term", "(1/ε) min{g*/m, L/(m λ_min)} (Algorithm 3 line 5)",
                                     record_term / s.epsilon));
    result.released.push_back(scalar("laplace_scale_lambda_term",
                                     "(λ_max − λ_min)L/(ε λ_max λ_min) (Algorithm 3 line 5, Theorem 7)",
                                     (sensitivity - record_term) / s.epsilon));
    result.evaluation_only.push_back(
        scalar("f_bo", "f_BO, the best observed value (Algorithm 3 line 3), not released", sign * f_bo));
    result.evaluation_only.push_back(scalar("released_value_error", "|f̃_L − f_BO|", std::abs(released - sign * f_bo)));
    result.evaluation_only.push_back({"best_point", "the point of f_BO, not released", arma::mat(loop.best_point())});
    if (const auto regret = objective.regret(sign * f_bo))
        result.evaluation_only.push_back(scalar("regret_f_bo", "of f_BO against the known optimum", *regret));

    dpbo::PrivacyStatement& privacy = result.privacy;
    privacy.notion = dpbo::PrivacyNotion::PureDP;
    privacy.neighbouring = kNeighbouring;
    privacy.protected_unit = kProtectedUnit;
    privacy.released = {fmt::format("f~_L = f_BO + Laplace(b = {}) (Algorithm 3 lines 5-6)", mechanism->noise_scale()),
                        "the public constants of the run (the Laplace scale and its terms)"};
    privacy.assumptions = {
        fmt::format("Assumption 2 as {} declares it: the validation score is -(1/m) sum g with g L-Lipschitz in w and "
                    "g <= g*, the model w_lambda minimises a lambda-strongly convex objective with a 1-Lipschitz "
                    "convex training loss on non-sensitive training data, lambda in [lambda_min, lambda_max]; L = {}, "
                    "g* = {}, m = {}, lambda_min = {}, lambda_max = {}",
                    objective.describe_origin(), a.lipschitz, a.gain_bound, a.validation_records, a.lambda_min,
                    a.lambda_max),
        fmt::format("then f_BO moves by at most {} between neighbours whatever the BO run evaluates (Theorem 7): the "
                    "guarantee holds for every dataset, with no distributional assumption",
                    sensitivity)};
    privacy.mechanism =
        fmt::format("Kusner et al. (2015) Algorithm 3: BO for T = {} steps with {} and {}, then {}", s.budget,
                    context.roles.all().at("surrogate")->describe_origin(),
                    context.roles.all().at("acquisition")->describe_origin(), mechanism->guarantee().mechanism);
    result.trace = inner.trace;
    result.evaluations = context.evaluator.evaluations();
    result.stop_reason = inner.stop_reason;
    return result;
}

}  // namespace dpbo::dp_ucb
