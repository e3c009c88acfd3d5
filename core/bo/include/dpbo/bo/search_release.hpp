#pragma once
// Shared by the searches whose points never depend on observed values (random search, grid
// search): evaluate a fixed number of points in batches, then release the best one. With a
// mechanism attached the whole vector of k values is privatised once and the best point is picked
// from the noisy values, so the point and its value are post-processing of one release.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <armadillo>

#include "dpbo/objective.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Mechanism;
class PrivacyLedger;
struct RunContext;

struct BestRelease {
    arma::vec released_values;   // k; exact without a mechanism, noisy with one
    std::size_t best_index = 0;  // best of released_values by the objective's sense
    arma::rowvec best_point;
    PrivacyStatement privacy;  // the statement's words; the ledger holds its numbers
};

// Refuses a mechanism without a stated per-value sensitivity, and a sensitivity without a
// mechanism (it would calibrate nothing). `owner` names the algorithm in the message.
void check_value_sensitivity(const std::string& owner, bool has_mechanism, std::optional<double> value_sensitivity);

// `points` (k×d) and `exact_values` (k) as evaluated. Each value moves by at most Δ =
// value_sensitivity between neighbouring datasets, so the k-vector has L2 sensitivity Δ√k, L1
// sensitivity Δk and L∞ sensitivity Δ; the mechanism is calibrated to the one it asks for.
// Calibrates `mechanism`, states the scope (replace one record) on `ledger` and releases through it.
BestRelease release_best(const arma::mat& points, const arma::vec& exact_values, Sense sense,
                         const std::shared_ptr<Mechanism>& mechanism, std::optional<double> value_sensitivity,
                         PrivacyLedger& ledger);

struct DataIndependentSearch {
    std::string owner;            // "algorithm 'random-search'"
    std::size_t point_count = 0;  // k, evaluated unless the observer stops the run
    std::size_t batch_size = 1;
    // Points first..first+count−1 of the search (count rows); must not look at any value.
    std::function<arma::mat(std::size_t first, std::size_t count)> points;
    std::optional<double> value_sensitivity;
    std::string completion_reason;  // stop reason when all k points were evaluated
    // Several outputs: the hypervolume of the front after every batch is reported w.r.t. this point
    // (two outputs only; in the outputs' own units and senses). Unused for one output.
    std::optional<arma::rowvec> reference;
};

// Evaluates through context.evaluator, reports to context.observer after every batch (one trace
// row per batch), then release_best(). Released: best_point, best_value and, when private,
// noisy_values; evaluation only: best_point_true_value and, with a known optimum, simple_regret.
// An objective with several outputs gets its Pareto front instead (not private; a mechanism is
// refused): released points, values, pareto_points, pareto_values and, with a reference, the
// hypervolume, also in the trace after every batch.
RunResult run_data_independent_search(RunContext& context, const DataIndependentSearch& search);

}  // namespace dpbo
