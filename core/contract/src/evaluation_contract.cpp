#include "dpbo/evaluation_contract.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"

namespace dpbo {

// Why this tolerance. Let r_1..r_n be a row's per-record losses as returned, m = (1/n) Σ r_j their
// exact mean, A = (1/n) Σ |r_j| and u = 2⁻⁵³ the unit roundoff. Recursive summation of n terms is
// off by at most γ_{n−1} Σ|r_j| (Higham, Accuracy and Stability of Numerical Algorithms, §4.2, with
// γ_k = k·u / (1 − k·u)), and the division by n adds one relative rounding, so the mean this check
// computes is within γ_n·A of m. The objective computed its value by some other order (pairwise,
// blocked BLAS, a closed form of the same sum); held to the same bound it is also within γ_n·A of
// m, and one more rounding of the value itself (e.g. adding a constant) is within γ_1·A since
// |m| ≤ A. Together: |value − computed mean| ≤ (2γ_n + γ_1)·A ≤ 2γ_{n+1}·A. The bound scales with
// the losses' magnitude, not the mean's, so rows whose losses cancel (negative per-record values)
// are not refused for rounding; a value that differs by more is a different quantity, not
// rounding (e.g. noise added to the value only, or a mean over other records).
double row_mean_tolerance(const arma::rowvec& row) {
    const double n = static_cast<double>(row.n_elem);
    constexpr double u = std::numeric_limits<double>::epsilon() / 2.0;
    const double gamma = (n + 1.0) * u / (1.0 - (n + 1.0) * u);
    return 2.0 * gamma * arma::mean(arma::abs(row));
}

namespace {

std::string point_text(const arma::mat& points, arma::uword i) {
    return fmt::format("({})", fmt::join(points.row(i), ", "));
}

}  // namespace

void check_evaluation_contract(const Objective& objective, const arma::mat& points, const EvaluationRequest& request,
                               const Evaluations& result) {
    const auto refuse = [&](const std::string& why) {
        return RunError(fmt::format("{} broke the objective contract: {}", objective.describe_origin(), why));
    };
    const arma::uword b = points.n_rows;
    const std::size_t dim = objective.space().dim();
    if (result.points.n_rows != b || result.points.n_cols != dim)
        throw refuse(fmt::format("returned points of {} × {} for {} points of dimension {}; expected {} × {}",
                                 result.points.n_rows, result.points.n_cols, b, dim, b, dim));

    const std::vector<Output> outputs = objective.outputs();
    const std::size_t k = outputs.size();
    if (k == 0) throw refuse("it declares no outputs; expected at least one");
    if (result.values.n_rows != b || result.values.n_cols != k)
        throw refuse(
            fmt::format("returned values of {} × {} for {} points and {} declared output{}; expected {} × {} "
                        "(one row per point, one column per output)",
                        result.values.n_rows, result.values.n_cols, b, k, k == 1 ? "" : "s", b, k));
    for (arma::uword i = 0; i < b; ++i)
        for (arma::uword j = 0; j < k; ++j)
            if (!std::isfinite(result.values(i, j)))
                throw refuse(fmt::format("output '{}' at point {} {} is {}", outputs[j].name, i, point_text(points, i),
                                         result.values(i, j)));

    const std::size_t n = dpbo::record_count(objective);
    if (request.per_record || !result.per_record.is_empty()) {
        if (n == 0)
            throw refuse(
                fmt::format("returned per-record losses of {} × {} but declares no records "
                            "(record_count() = 0)",
                            result.per_record.n_rows, result.per_record.n_cols));
        if (result.per_record.n_rows != b || result.per_record.n_cols != n)
            throw refuse(
                fmt::format("returned per-record losses of {} × {} for {} points; expected {} × {} "
                            "(points × record_count())",
                            result.per_record.n_rows, result.per_record.n_cols, b, b, n));
        if (!result.per_record.is_finite()) throw refuse("per-record losses contain NaN or infinite entries");
        for (arma::uword i = 0; i < b; ++i) {
            const arma::rowvec row = result.per_record.row(i);
            const double mean = arma::mean(row);
            const double gap = std::abs(result.values(i, 0) - mean);
            const double tolerance = row_mean_tolerance(row);
            if (gap > tolerance)
                throw refuse(fmt::format(
                    "output '{}' at point {} {} is {:.17g}, but the mean of its {} per-record losses is {:.17g} "
                    "(difference {:.3g} > tolerance {:.3g} = 2γ_(n+1)·mean|loss|); values must be the exact "
                    "means of the per-record rows (observation noise is added by the host, see "
                    "observation_noise_stddev())",
                    outputs[0].name, i, point_text(points, i), result.values(i, 0), n, mean, gap, tolerance));
        }
    }
    if (!result.candidate_rows.is_empty() && result.candidate_rows.n_elem != b)
        throw refuse(fmt::format("returned {} candidate rows for {} points", result.candidate_rows.n_elem, b));

    const std::vector<AuxiliaryOutput> auxiliary = objective.auxiliary_outputs();
    const std::size_t a = auxiliary.size();
    if (a == 0 ? !result.auxiliary.is_empty() : (result.auxiliary.n_rows != b || result.auxiliary.n_cols != a))
        throw refuse(
            fmt::format("returned auxiliary outputs of {} × {} for {} points and {} declared auxiliary "
                        "output{}; expected {} × {} (one column per Objective::auxiliary_outputs() entry)",
                        result.auxiliary.n_rows, result.auxiliary.n_cols, b, a, a == 1 ? "" : "s", a == 0 ? 0 : b, a));
    for (arma::uword i = 0; i < result.auxiliary.n_rows; ++i)
        for (arma::uword j = 0; j < a; ++j)
            if (!std::isfinite(result.auxiliary(i, j)))
                throw refuse(fmt::format("auxiliary output '{}' at point {} {} is {}", auxiliary[j].name, i,
                                         point_text(points, i), result.auxiliary(i, j)));

    // What the host charges for a trial that is a private learner: without a list per point a
    // trial would run uncharged; events from any other objective would be charged for nothing.
    const bool private_trials = capability<PrivateTrials>(objective) != nullptr;
    if (!private_trials) {
        if (!result.trial_events.empty())
            throw refuse(
                fmt::format("returned trial events for {} point{}, but it does not declare PrivateTrials (its "
                            "evaluations are not private learners); expected none",
                            result.trial_events.size(), result.trial_events.size() == 1 ? "" : "s"));
        return;
    }
    if (result.trial_events.size() != b)
        throw refuse(
            fmt::format("returned trial events for {} point{} of {}; a PrivateTrials objective declares one "
                        "non-empty list of events per point (what each trial spent)",
                        result.trial_events.size(), result.trial_events.size() == 1 ? "" : "s", b));
    for (arma::uword i = 0; i < b; ++i) {
        if (result.trial_events[i].empty())
            throw refuse(
                fmt::format("declared no events for the trial at point {} {}; a PrivateTrials objective "
                            "declares what every trial spent",
                            i, point_text(points, i)));
        for (const PrivacyEvent& event : result.trial_events[i]) {
            try {
                event.validate();
            } catch (const ValidationError& e) {
                throw refuse(fmt::format("the trial at point {} {} declared an invalid event: {}", i,
                                         point_text(points, i), e.what()));
            }
        }
    }
    // Per-record losses of a trial are its private data's exact contributions, never privatised.
    if (!result.per_record.is_empty())
        throw refuse(
            "returned per-record losses, but its evaluations are private learners (PrivateTrials): only "
            "privatised values may leave a trial");
}

}  // namespace dpbo
