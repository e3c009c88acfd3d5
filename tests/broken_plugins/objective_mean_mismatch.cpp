// Breaks the objective contract by its values: per-record losses are returned with every batch,
// but each value is its row's mean plus 0.1, as an objective that adds observation noise to its
// values itself would return. The evaluator must refuse it naming the module and this file.
#include <dpbo/objective.hpp>
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {

class MeanMismatch final : public broken_cases::Sphere, public dpbo::RecordDecomposable {
public:
    using Sphere::Sphere;
    std::size_t record_count() const override { return 3; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        dpbo::Evaluations e = Sphere::evaluate(points, request);
        e.per_record = arma::repmat(arma::mat(e.values), 1, 3);
        e.per_record.col(0) -= 1.0;
        e.per_record.col(2) += 1.0;
        e.values += 0.1;
        return e;
    }
};

}  // namespace

DPBO_PLUGIN(MeanMismatch, "mean-mismatch", "1.0.0", "test objective whose values are not its per-record means", "none")
