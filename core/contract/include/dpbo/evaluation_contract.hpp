#pragma once
// The contract between an objective and everyone who reads its evaluations, checked in one place:
// the evaluator runs it on every batch, before any observation noise is added. A plugin author can
// call it in their own tests.
#include <armadillo>

#include "dpbo/evaluation.hpp"

namespace dpbo {

class Objective;

// Checks what `objective` returned for `points` under `request`:
//   - points: b × d, b the rows asked for, d the space's dimension;
//   - values: b × k, k = objective.outputs().size(), every entry finite;
//   - per_record (when requested): b × n, n = record_count(objective) (RecordDecomposable), every entry finite; when
//     not requested it may be empty or b × n;
//   - when values and per-record losses are both returned, each value of the first output equals
//     the mean of its point's per-record row within row_mean_tolerance();
//   - candidate_rows: empty or b entries;
//   - auxiliary: b × a, a = objective.auxiliary_outputs().size(), every entry finite (empty when a = 0).
// Throws RunError naming the objective and its plugin file (Module::describe_origin()), the point
// and the numbers that disagree.
void check_evaluation_contract(const Objective& objective, const arma::mat& points, const EvaluationRequest& request,
                               const Evaluations& result);

// Largest |value − mean(row)| the check accepts for a point whose per-record losses are `row`.
double row_mean_tolerance(const arma::rowvec& row);

}  // namespace dpbo
