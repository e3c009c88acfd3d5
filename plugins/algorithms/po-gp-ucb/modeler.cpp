#include "modeler.hpp"

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "released_rows.hpp"

namespace dpbo::po_gp_ucb {

namespace {

// The standard trace, with the simple regret marked evaluation-only: the curator computes it from the
// optimum of its sensitive responses, so it is no part of what the modeler learns.
class ModelerStatistics final : public dpbo::LoopStatistics {
public:
    std::vector<dpbo::TraceColumn> columns(const dpbo::BoLoop& loop) const override {
        std::vector<dpbo::TraceColumn> columns = standard_.columns(loop);
        for (auto& column : columns)
            if (column.name == "simple_regret") column.evaluation_only = true;
        return columns;
    }
    std::vector<double> row(const dpbo::BoLoop& loop, double score, double cpu_seconds) const override {
        return standard_.row(loop, score, cpu_seconds);
    }

private:
    dpbo::StandardStatistics standard_;
};

}  // namespace

dpbo::RunResult run_modeler(dpbo::RunContext& context, const dpbo::BoLoopSettings& settings,
                            const std::string& algorithm) {
    const dpbo::Objective& rows = context.objective;
    const auto* finite = dpbo::capability<dpbo::FiniteCandidates>(rows);
    if (finite == nullptr || !finite->candidates().released())
        throw dpbo::ValidationError(fmt::format("algorithm '{}': the modeler searches released rows only; {} is {}",
                                                algorithm, rows.describe_origin(),
                                                rows.space().is_finite() ? "a set of sensitive rows" : "a box"));
    if (rows.output_count() != 1)
        throw dpbo::ValidationError(fmt::format("algorithm '{}': {} has {} outputs; GP-UCB maximises one", algorithm,
                                                rows.describe_origin(), rows.output_count()));
    dpbo::BoLoopPolicies policies;
    policies.statistics = std::make_shared<ModelerStatistics>();
    dpbo::BoLoop loop(context, settings, algorithm, policies);
    dpbo::RunResult result = loop.run();

    const dpbo::released_rows::RowIndex index(finite->candidates().rows);
    const arma::uvec best_row = index.rows_of(loop.best_point(), fmt::format("algorithm '{}'", algorithm));
    result.released.push_back({"best_row", "the index of the best row (0-based), as the curator numbers its rows",
                               arma::mat{static_cast<double>(best_row(0))}});
    for (auto it = result.released.begin(); it != result.released.end(); ++it) {
        if (it->name != "simple_regret") continue;
        it->description += " (the curator's, from the optimum of its responses)";
        result.evaluation_only.push_back(*it);
        result.released.erase(it);
        break;
    }
    return result;
}

}  // namespace dpbo::po_gp_ucb
