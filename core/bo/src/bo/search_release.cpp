#include "dpbo/bo/search_release.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "memory_bound.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "front_search.hpp"
#include "search_memory.hpp"

namespace dpbo {

namespace {

bool is_better(Sense sense, double candidate, double incumbent) {
    return sense == Sense::Minimise ? candidate < incumbent : candidate > incumbent;
}

std::size_t best_index(const arma::vec& values, Sense sense) {
    return sense == Sense::Minimise ? values.index_min() : values.index_max();
}

constexpr const char* kNeighbouring = "replace one record";
constexpr const char* kProtectedUnit = "one record of the data behind the objective";

// Each of the k values moves by at most Δ, so the vector moves by at most Δ√k in L2, Δk in L1, Δ in L∞.
std::string_view sensitivity_factor(SensitivityNorm norm) {
    switch (norm) {
        case SensitivityNorm::L2:
            return "√k";
        case SensitivityNorm::L1:
            return "k";
        case SensitivityNorm::LInf:
            return "1";
    }
    return "k";
}

PrivacyStatement exact_release_statement() {
    return PrivacyStatement::not_private({"the best evaluated point and its exact objective value",
                                          "the best exact objective value after every batch (trace)"},
                                         "no mechanism was attached, so objective values are released exactly");
}

PrivacyStatement noisy_release_statement(const Mechanism& mechanism, std::size_t k, double per_value,
                                         double sensitivity) {
    // The guarantee's notion is the claim; the ledger's composition gives the numbers.
    PrivacyStatement statement = mechanism.guarantee();
    statement.neighbouring = kNeighbouring;
    statement.protected_unit = kProtectedUnit;
    statement.released = {fmt::format("the k = {} objective values with noise", k),
                          "the best point and its noisy value (post-processing of the noisy values)"};
    statement.assumptions.push_back(
        fmt::format("|f_x(θ) − f_x'(θ)| ≤ Δ={} for neighbouring datasets at every θ (stated by the user, not "
                    "verified)",
                    per_value));
    statement.assumptions.push_back("the evaluated points are chosen independently of the data");
    // The mechanism's own Δ is the vector's sensitivity; say how it follows from the per-value one.
    const std::string application = fmt::format(
        "applied once to the vector of k = {} values, whose {} sensitivity is {} = {}·{} for "
        "the per-value sensitivity {}",
        k, to_string(mechanism.sensitivity_norm()), sensitivity, per_value,
        sensitivity_factor(mechanism.sensitivity_norm()), per_value);
    statement.mechanism = statement.mechanism.empty() ? application : statement.mechanism + "; " + application;
    return statement;
}

arma::mat scalar(double value) { return arma::mat(1, 1, arma::fill::value(value)); }

// The guarantee assumes the evaluated points are chosen independently of the data, and the best of
// them is released as it is. Over candidate rows that are the data (a table's own records) that
// point would be a row of the data, unprivatised, and k the number of rows: refused, as dp-ucb
// refuses such a Λ. A finite space without FiniteCandidates is refused by the host before any run.
void refuse_sensitive_candidates(const std::string& owner, const Objective& objective) {
    if (!objective.space().is_finite()) return;
    const auto* finite = capability<FiniteCandidates>(objective);
    if (finite != nullptr && !finite->candidates().sensitive()) return;
    throw ValidationError(fmt::format(
        "{}: a mechanism is attached, but the points to search are the candidate rows of {}, which are "
        "sensitive data: best_point would be one of them, released as it is, while the guarantee assumes points "
        "chosen independently of the data. Search such rows with po-gp-ucb (its curator releases them privately "
        "first) or over rows already released (--objective curator); without a mechanism the run is stated not "
        "private",
        owner, objective.describe_origin()));
}

// The sensitivity of the vector of k released values, from the per-value Δ the user set. Where it
// overflows, the key is named with the largest value allowed — not the derived inf the mechanism
// would name (value_sensitivity = 1e308 gave "sensitivity = inf is not allowed").
double released_values_sensitivity(SensitivityNorm norm, double value_sensitivity, std::size_t k,
                                   const std::string& owner) {
    const double sensitivity = vector_sensitivity(norm, value_sensitivity, k);
    if (std::isfinite(sensitivity)) return sensitivity;
    const double factor = vector_sensitivity(norm, 1.0, k);
    throw ValidationError(
        fmt::format("{}: algorithm.value_sensitivity = {} makes the {} sensitivity of the k = {} released values, {}·Δ "
                    "= {}·{}, overflow the double range; allowed: algorithm.value_sensitivity <= {:.6g} for k = {}",
                    owner, value_sensitivity, to_string(norm), k, sensitivity_factor(norm), factor, value_sensitivity,
                    std::numeric_limits<double>::max() / factor, k));
}

// Calibrates the mechanism; its refusal (a noise scale the secure sampler cannot draw at, ...) is
// reported as one of the key the user set.
void calibrate_for_values(Mechanism& mechanism, double value_sensitivity, std::size_t k, const std::string& owner) {
    const double sensitivity = released_values_sensitivity(mechanism.sensitivity_norm(), value_sensitivity, k, owner);
    try {
        mechanism.calibrate(sensitivity);
    } catch (const ValidationError& refusal) {
        throw ValidationError(fmt::format(
            "{}: algorithm.value_sensitivity = {} (the {} sensitivity {} of the k = {} "
            "released values) cannot calibrate the mechanism: {}",
            owner, value_sensitivity, to_string(mechanism.sensitivity_norm()), sensitivity, k, refusal.what()));
    }
}

}  // namespace

void check_value_sensitivity(const std::string& owner, bool has_mechanism, std::optional<double> value_sensitivity) {
    if (has_mechanism && !value_sensitivity) {
        throw ValidationError(
            fmt::format("{}: a mechanism is attached but algorithm.value_sensitivity is not set; it is "
                        "required with a mechanism: give Δ, the most one objective value can change when one "
                        "record is replaced (a real > 0, e.g. algorithm.value_sensitivity=0.1)",
                        owner));
    }
    if (!has_mechanism && value_sensitivity) {
        throw ValidationError(
            fmt::format("{}: algorithm.value_sensitivity = {} was given without a mechanism; it only "
                        "calibrates mechanism noise, so without one it would mean nothing — attach a "
                        "mechanism or remove algorithm.value_sensitivity",
                        owner, *value_sensitivity));
    }
}

BestRelease release_best(const arma::mat& points, const arma::vec& exact_values, Sense sense,
                         const std::shared_ptr<Mechanism>& mechanism, std::optional<double> value_sensitivity,
                         PrivacyLedger& ledger) {
    const std::size_t k = exact_values.n_elem;
    if (k == 0 || points.n_rows != k) {
        throw RunError(
            fmt::format("release of the best point: {} points for {} values; need k ≥ 1 of each", points.n_rows, k));
    }
    BestRelease release;
    if (!mechanism) {
        release.released_values = exact_values;
        release.privacy = exact_release_statement();
    } else {
        if (!value_sensitivity) {
            throw ValidationError(
                "release of the best point: a mechanism needs the per-value sensitivity "
                "(value_sensitivity)");
        }
        const double sensitivity = vector_sensitivity(mechanism->sensitivity_norm(), *value_sensitivity, k);
        calibrate_for_values(*mechanism, *value_sensitivity, k, "release of the best point");
        ledger.set_scope(kNeighbouring, kProtectedUnit);
        release.released_values =
            mechanism->release(exact_values, ledger, fmt::format("the {} evaluated objective values", k));
        release.privacy = noisy_release_statement(*mechanism, k, *value_sensitivity, sensitivity);
    }
    release.best_index = best_index(release.released_values, sense);
    release.best_point = points.row(release.best_index);
    return release;
}

RunResult run_data_independent_search(RunContext& context, const DataIndependentSearch& search) {
    if (search.point_count == 0 || search.batch_size == 0 || !search.points) {
        throw RunError(
            fmt::format("{}: a search needs at least one point, a batch size ≥ 1 and a point source", search.owner));
    }
    if (context.objective.output_count() > 1) return run_front_search(context, search);
    check_value_sensitivity(search.owner, context.role<Mechanism>("mechanism") != nullptr, search.value_sensitivity);
    if (context.role<Mechanism>("mechanism") != nullptr) refuse_sensitive_candidates(search.owner, context.objective);
    if (const auto mechanism = context.role<Mechanism>("mechanism"); mechanism && search.value_sensitivity) {
        // Up front, before any evaluation: a sensitivity that overflows or a noise scale the sampler
        // cannot draw at, for the k = point_count values released at the end (release_best calibrates
        // again for the k actually evaluated, fewer if the run is stopped early).
        calibrate_for_values(*mechanism, *search.value_sensitivity, search.point_count, search.owner);
    }
    if (search.reference) {
        throw ValidationError(
            fmt::format("{}: reference is for objectives with two outputs (the hypervolume of "
                        "their front); the objective {} has one — remove it",
                        search.owner, context.objective.describe_origin()));
    }
    Objective& objective = context.objective;
    const Sense sense = objective.sense();
    const bool is_private = context.role<Mechanism>("mechanism") != nullptr;
    const bool optimum_known = known_optimum(objective).has_value();

    RunResult result;
    // Exact values are released when nothing is private; with a mechanism they are for judging only.
    std::vector<TraceColumn> columns{
        {"iteration", false}, {"evaluations", false}, {"best_true_value_so_far", is_private}};
    if (optimum_known) columns.push_back({"simple_regret", is_private});
    result.trace.set_columns(std::move(columns));

    // A mechanism privatises the k values at once, so every value (and its point, to name the best
    // after the noise) is kept and the noisy values are released; without one only the best so far
    // is kept, and the search runs in the memory of one batch whatever k is.
    const std::shared_ptr<Mechanism> mechanism = context.role<Mechanism>("mechanism");
    const std::size_t dim = objective.space().dim();
    memory::require(search.owner,
                    fmt::format("{} points in {} dimensions, in batches of {}{}", search.point_count, dim,
                                search.batch_size, is_private ? ", with a mechanism" : ""),
                    memory::search_bytes({.points = static_cast<double>(search.point_count),
                                          .batch = static_cast<double>(search.batch_size),
                                          .dim = static_cast<double>(dim),
                                          .keeps_every_point = is_private,
                                          .released_numbers_per_point = is_private ? 1.0 : 0.0}),
                    is_private ? "every point and value are kept for the one release of all noisy values"
                               : "a batch at a time, and a trace row per batch");
    arma::mat points;
    arma::vec values;
    if (is_private) {
        points.set_size(search.point_count, dim);
        values.set_size(search.point_count);
    }
    const EvaluationRequest request{.per_record = false, .rng = &context.rng};
    context.observer.on_start((search.point_count + search.batch_size - 1) / search.batch_size);
    result.stop_reason = search.completion_reason;

    std::size_t evaluated = 0;
    double best_so_far = 0.0;
    arma::rowvec best_point_so_far;
    arma::rowvec best_auxiliary_so_far;  // the objective's auxiliary outputs at the best (a test error)
    for (std::size_t iteration = 1; evaluated < search.point_count; ++iteration) {
        const std::size_t count = std::min(search.batch_size, search.point_count - evaluated);
        const Evaluations batch = context.evaluator.evaluate(objective, search.points(evaluated, count), request);
        if (batch.size() != count) {
            throw RunError(fmt::format("{}: asked for {} evaluations, the objective returned {}", search.owner, count,
                                       batch.size()));
        }
        if (is_private) {
            points.rows(evaluated, evaluated + count - 1) = batch.points;
            values.subvec(evaluated, evaluated + count - 1) = batch.values;
        }
        // Strictly better only: the first of equal values stays, as the first index of the best does.
        const std::size_t batch_best = best_index(batch.values, sense);
        if (evaluated == 0 || is_better(sense, batch.values(batch_best), best_so_far)) {
            best_so_far = batch.values(batch_best);
            best_point_so_far = batch.points.row(batch_best);
            if (batch.auxiliary.n_cols > 0) best_auxiliary_so_far = batch.auxiliary.row(batch_best);
        }
        evaluated += count;

        std::vector<double> row{static_cast<double>(iteration), static_cast<double>(evaluated), best_so_far};
        if (optimum_known) row.push_back(*objective.regret(best_so_far));
        result.trace.add_row(std::move(row));
        context.observer.on_iteration(iteration, result.trace);
        if (evaluated < search.point_count && context.observer.should_stop()) {
            result.stop_reason = "observer";
            break;
        }
    }

    BestRelease release;
    double true_best = best_so_far;
    if (is_private) {
        const arma::vec exact_values = values.head(evaluated);
        release = release_best(points.head_rows(evaluated), exact_values, sense, mechanism, search.value_sensitivity,
                               context.ledger);
        true_best = exact_values(release.best_index);
    } else {
        // What release_best would give without a mechanism, from the best kept on the way.
        release.best_point = best_point_so_far;
        release.released_values = arma::vec{best_so_far};
        release.privacy = exact_release_statement();
    }
    const double released_best = release.released_values(release.best_index);

    result.released.push_back(
        {"best_point", "the evaluated point with the best released value", arma::mat(release.best_point)});
    result.released.push_back({"best_value",
                               is_private ? "the noisy value of best_point (post-processing of noisy_values)"
                                          : "the exact objective value at best_point",
                               scalar(released_best)});
    if (is_private) {
        result.released.push_back({"noisy_values", "every evaluated value plus mechanism noise, in evaluation order",
                                   arma::mat(release.released_values)});
    }
    result.evaluation_only.push_back({"best_point_true_value",
                                      "the objective value observed at best_point, before any privacy noise",
                                      scalar(true_best)});
    if (optimum_known) {
        result.evaluation_only.push_back({"simple_regret",
                                          "distance of best_point_true_value from the known optimum value",
                                          scalar(*objective.regret(true_best))});
    }
    if (!is_private) {
        // The auxiliary outputs of the best point (e.g. a private trial's test error), for judging.
        const std::vector<AuxiliaryOutput> auxiliary = objective.auxiliary_outputs();
        for (std::size_t a = 0; a < auxiliary.size() && a < best_auxiliary_so_far.n_elem; ++a)
            result.evaluation_only.push_back(
                {"best_point_" + auxiliary[a].name,
                 "the objective's auxiliary output '" + auxiliary[a].name + "' at best_point: " + auxiliary[a].doc,
                 scalar(best_auxiliary_so_far(a))});
    }
    result.privacy = std::move(release.privacy);
    result.evaluations = context.evaluator.evaluations();
    return result;
}

}  // namespace dpbo
