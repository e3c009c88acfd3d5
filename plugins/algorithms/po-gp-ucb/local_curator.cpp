#include "local_curator.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/objective.hpp"

namespace dpbo::po_gp_ucb {

std::unique_ptr<LocalCurator> LocalCurator::release_rows(dpbo::RunContext& context, dpbo::RowRelease& release,
                                                         double norm_bound, const std::string& algorithm) {
    const std::string owner = fmt::format("algorithm '{}'", algorithm);
    dpbo::CuratorRelease released =
        dpbo::release_objective_rows(context.objective, release, norm_bound, context.ledger, owner);
    return std::make_unique<LocalCurator>(std::move(released), context.objective, fmt::format("{}'s curator", owner));
}

LocalCurator::LocalCurator(dpbo::CuratorRelease release, dpbo::Objective& data, std::string owner)
    : ReleasedRowsObjective(release.rows, data.outputs().front().sense, std::move(owner)),
      data_(data),
      release_(std::move(release)) {}

std::optional<dpbo::KnownOptimum> LocalCurator::known_optimum() const {
    const auto optimum = dpbo::known_optimum(data_);
    if (!optimum) return std::nullopt;
    return dpbo::KnownOptimum{optimum->value, {}};
}

arma::vec LocalCurator::answer(const arma::uvec& rows, const dpbo::EvaluationRequest& request) {
    const arma::mat points = dpbo::require<dpbo::FiniteCandidates>(data_, owner()).candidates().rows.rows(rows);
    const dpbo::Evaluations evaluations = data_.evaluate(points, request);
    dpbo::check_evaluation_contract(data_, points, request, evaluations);
    return evaluations.values.col(0);
}

}  // namespace dpbo::po_gp_ucb
