#pragma once
// Scores every point as DPareto would evaluate it, for an oracle that is a function of its
// hyperparameters (DPareto's oracles fix their repetitions' seeds):
//  - at its integer dimensions rounded (SearchSpace::from_unit then to_unit): the shared optimiser
//    searches the continuous unit cube, and without this the acquisition at steps = 2.4 reads the
//    GP between two integers, whose gain the evaluation at steps = 2 never delivers. The score is
//    then piecewise constant in the integer dimensions, so no gradient is offered (the optimiser's
//    derivative-free path is used);
//  - 0 at a point already evaluated: the oracle would return the same outputs, which add nothing to
//    the front, whatever the smoothed GP mean there predicts (on SVT it predicted a gain at 8 of
//    60 evaluated points, which were then evaluated again).
#include <cstddef>
#include <memory>
#include <utility>

#include "dpbo/acquisition.hpp"
#include "dpbo/space.hpp"

namespace dpbo::dpareto {

class EvaluatedPointAcquisition final : public Acquisition {
public:
    // `evaluated`: the points evaluated so far (n × d, objective's units), read at every score();
    // it must outlive this object (the BoLoop's observed_points()).
    EvaluatedPointAcquisition(std::shared_ptr<Acquisition> inner, const SearchSpace& space, bool round_integers)
        : inner_(std::move(inner)), space_(space), round_integers_(round_integers) {}

    void watch(const arma::mat& evaluated) { evaluated_ = &evaluated; }

    arma::vec score(const Surrogate& model, const arma::mat& points, const AcquisitionContext& context) const override;
    std::size_t supported_outputs() const override { return inner_->supported_outputs(); }

private:
    std::shared_ptr<Acquisition> inner_;
    const SearchSpace& space_;
    bool round_integers_;
    const arma::mat* evaluated_ = nullptr;
    // evaluated_ in the unit cube, sorted by the first coordinate so that a scored point is compared
    // with the few evaluated points near it only; rebuilt when points were added (every score()
    // call rebuilding it would cost more than the GP).
    mutable arma::mat evaluated_unit_;
    mutable std::size_t evaluated_count_ = 0;
};

}  // namespace dpbo::dpareto
