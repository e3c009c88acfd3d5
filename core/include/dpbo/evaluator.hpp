#pragma once
// Evaluates batches through one door, so budgets are counted and results are checked in one place.
// Serial today; a threaded or MPI evaluator implements the same interface.
#include <cstddef>

#include <armadillo>

#include "dpbo/evaluation.hpp"

namespace dpbo {

class Objective;

class Evaluator {
public:
    virtual ~Evaluator();
    // Checks the points lie in the objective's space, checks what the objective returned against
    // its contract (dpbo/evaluation_contract.hpp), adds the objective's declared observation noise
    // to the values, then counts the points.
    Evaluations evaluate(Objective& objective, const arma::mat& points,
                         const EvaluationRequest& request);
    std::size_t evaluations() const { return count_; }

protected:
    virtual Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                                       const EvaluationRequest& request) = 0;

private:
    std::size_t count_ = 0;
};

class SerialEvaluator final : public Evaluator {
protected:
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;
};

}  // namespace dpbo
