#include "front_search.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "memory_bound.hpp"
#include "search_memory.hpp"
#include "auxiliary_names.hpp"
#include "dpbo/bo/front_figures.hpp"
#include "dpbo/bo/pareto.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

namespace {

std::vector<Sense> output_senses(const std::vector<Output>& outputs) {
    std::vector<Sense> senses;
    for (const Output& output : outputs) senses.push_back(output.sense);
    return senses;
}

PrivacyStatement front_statement(const std::vector<Output>& outputs, const std::vector<AuxiliaryOutput>& auxiliary) {
    std::string names;
    for (const Output& output : outputs) names += (names.empty() ? "" : ", ") + output.name;
    std::vector<std::string> released{fmt::format("every evaluated point with its exact outputs ({})", names),
                                      "the empirical Pareto front of those outputs"};
    if (!auxiliary.empty())
        released.push_back(fmt::format("every point's auxiliary outputs ({})", auxiliary_names(auxiliary)));
    return PrivacyStatement::not_private(
        std::move(released),
        "a several-output search releases its outputs exactly: the front is for trusted analysts (DPareto's "
        "threat model). An output that is a privacy parameter (e.g. epsilon) is the guarantee of the learner "
        "trained at that point, as the objective computes it, not a cost of this run");
}

}  // namespace

RunResult run_front_search(RunContext& context, const DataIndependentSearch& search) {
    Objective& objective = context.objective;
    const std::vector<Output> outputs = objective.outputs();
    const std::vector<Sense> senses = output_senses(outputs);
    if (context.role<Mechanism>("mechanism")) {
        throw ValidationError(
            fmt::format("{}: the objective {} has {} outputs; a search over several outputs releases its Pareto front "
                        "exactly and cannot privatise it — remove the mechanism",
                        search.owner, objective.describe_origin(), outputs.size()));
    }
    if (search.value_sensitivity) {
        throw ValidationError(
            fmt::format("{}: value_sensitivity applies to one-output objectives with a mechanism; "
                        "the objective has {} outputs — remove it",
                        search.owner, outputs.size()));
    }
    if (search.reference && (outputs.size() != 2 || search.reference->n_elem != 2)) {
        throw ValidationError(
            fmt::format("{}: reference has {} numbers for an objective with {} outputs; the "
                        "hypervolume is computed for two outputs with a two-number reference",
                        search.owner, search.reference->n_elem, outputs.size()));
    }

    RunResult result;
    std::vector<TraceColumn> columns{{"iteration", false}, {"evaluations", false}, {"front_size", false}};
    if (search.reference) columns.push_back({"hypervolume", false});
    result.trace.set_columns(std::move(columns));

    // Every point and its outputs are released, so all are kept, and written into the result.
    const double dim = static_cast<double>(objective.space().dim());
    const double output_count = static_cast<double>(outputs.size() + objective.auxiliary_outputs().size());
    memory::require(search.owner,
                    fmt::format("{} points in {} dimensions, in batches of {}", search.point_count,
                                objective.space().dim(), search.batch_size),
                    memory::search_bytes({.points = static_cast<double>(search.point_count),
                                          .batch = static_cast<double>(search.batch_size),
                                          .dim = dim,
                                          .outputs = output_count,
                                          .keeps_every_point = true,
                                          .released_numbers_per_point = dim + output_count}),
                    "every point and its outputs are kept and released");
    arma::mat points(search.point_count, objective.space().dim());
    arma::mat values(search.point_count, outputs.size());
    const std::vector<AuxiliaryOutput> auxiliary_outputs = objective.auxiliary_outputs();
    arma::mat auxiliary(search.point_count, auxiliary_outputs.size());
    const EvaluationRequest request{.per_record = false, .rng = &context.rng};
    context.observer.on_start((search.point_count + search.batch_size - 1) / search.batch_size);
    result.stop_reason = search.completion_reason;

    std::size_t evaluated = 0;
    // The front so far, ascending indices of the evaluated points. The front of everything evaluated
    // is the front of the last front and the new batch (a point dominated by any point is dominated by
    // a point of the front), so each batch costs (front + batch)², not (points evaluated)².
    arma::uvec front;
    for (std::size_t iteration = 1; evaluated < search.point_count; ++iteration) {
        const std::size_t count = std::min(search.batch_size, search.point_count - evaluated);
        const Evaluations batch = context.evaluator.evaluate(objective, search.points(evaluated, count), request);
        if (batch.size() != count) {
            throw RunError(fmt::format("{}: asked for {} evaluations, the objective returned {}", search.owner, count,
                                       batch.size()));
        }
        points.rows(evaluated, evaluated + count - 1) = batch.points;
        values.rows(evaluated, evaluated + count - 1) = batch.values;
        if (!auxiliary_outputs.empty()) auxiliary.rows(evaluated, evaluated + count - 1) = batch.auxiliary;
        const arma::uvec candidates =
            arma::join_cols(front, arma::regspace<arma::uvec>(evaluated, 1, evaluated + count - 1));
        front = candidates.elem(non_dominated(values.rows(candidates), senses));
        evaluated += count;

        // The hypervolume of the front is that of every point: a dominated point adds no area.
        std::vector<double> row{static_cast<double>(iteration), static_cast<double>(evaluated),
                                static_cast<double>(front.n_elem)};
        if (search.reference) row.push_back(hypervolume_2d(values.rows(front), *search.reference, senses));
        result.trace.add_row(std::move(row));
        context.observer.on_iteration(iteration, result.trace);
        if (evaluated < search.point_count && context.observer.should_stop()) {
            result.stop_reason = "observer";
            break;
        }
    }

    const arma::mat evaluated_points = points.head_rows(evaluated);
    const arma::mat evaluated_values = values.head_rows(evaluated);
    std::string names;
    for (const Output& output : outputs) names += (names.empty() ? "" : ", ") + output.name;
    result.released.push_back({"points", "every evaluated point, in evaluation order", evaluated_points});
    result.released.push_back(
        {"values", fmt::format("the exact outputs ({}) of every point, in evaluation order", names), evaluated_values});
    result.released.push_back({"pareto_points", "the evaluated points no other evaluated point dominates",
                               arma::mat(evaluated_points.rows(front))});
    result.released.push_back(
        {"pareto_values", fmt::format("their outputs ({})", names), arma::mat(evaluated_values.rows(front))});
    if (!auxiliary_outputs.empty()) {
        const arma::mat evaluated_auxiliary = auxiliary.head_rows(evaluated);
        result.released.push_back({"auxiliary",
                                   fmt::format("the auxiliary outputs ({}) of every point, in evaluation order",
                                               auxiliary_names(auxiliary_outputs)),
                                   evaluated_auxiliary});
        result.released.push_back(
            {"pareto_auxiliary", "those of the front's points", arma::mat(evaluated_auxiliary.rows(front))});
    }
    if (search.reference) {
        result.released.push_back({"hypervolume",
                                   fmt::format("the area the front dominates up to the reference ({}, {}), exact",
                                               (*search.reference)(0), (*search.reference)(1)),
                                   arma::mat(1, 1,
                                             arma::fill::value(hypervolume_2d(arma::mat(evaluated_values.rows(front)),
                                                                              *search.reference, senses)))});
    }
    result.privacy = front_statement(outputs, auxiliary_outputs);
    result.figures = front_figures(outputs, "{/job/algorithm/name}", search.reference.has_value());
    result.evaluations = context.evaluator.evaluations();
    return result;
}

}  // namespace dpbo
