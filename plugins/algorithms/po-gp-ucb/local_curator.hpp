#pragma once
// PO-GP-UCB's curator in the modeler's process (for experiments, as the paper runs them): it holds the
// run's objective — the sensitive rows X and their responses — releases the rows through a row
// release charged to the run's ledger (Algorithm 1, or a release that is DP), and then answers the
// modeler's queries by row index. The modeler is handed this object as its objective and sees only
// the released rows and the answers.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/algorithm.hpp"
#include "dpbo/curator_release.hpp"
#include "dpbo/row_release.hpp"
#include "released_rows.hpp"

namespace dpbo::po_gp_ucb {

class LocalCurator final : public dpbo::released_rows::ReleasedRowsObjective,
                           public dpbo::ObservationNoise,
                           public dpbo::HasKnownOptimum,
                           public dpbo::SensitiveData {
public:
    // Releases the rows of context.objective through `release` and the run's ledger
    // (dpbo::release_objective_rows), then answers for them.
    static std::unique_ptr<LocalCurator> release_rows(dpbo::RunContext& context, dpbo::RowRelease& release,
                                                      double norm_bound, const std::string& algorithm);

    double observation_noise_stddev() const override { return dpbo::observation_noise_stddev(data_); }
    // The optimum's value only (its rows are X's), for the regret the modeler's trace keeps as
    // evaluation-only.
    std::optional<dpbo::KnownOptimum> known_optimum() const override;
    std::string data_description() const override { return dpbo::data_description(data_); }

    // What was released and how, for the run's statement and result.
    const dpbo::CuratorRelease& release() const { return release_; }

    LocalCurator(dpbo::CuratorRelease release, dpbo::Objective& data, std::string owner);

protected:
    arma::vec answer(const arma::uvec& rows, const dpbo::EvaluationRequest& request) override;

private:
    dpbo::Objective& data_;
    dpbo::CuratorRelease release_;
};

}  // namespace dpbo::po_gp_ucb
