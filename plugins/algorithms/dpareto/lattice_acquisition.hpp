#pragma once
// Scores every point where it would really be evaluated: at its integer dimensions rounded
// (SearchSpace::from_unit then to_unit). The shared optimiser searches the continuous unit cube;
// without this, the acquisition at steps = 2.4 reads the GP between two integers, whose gain the
// evaluation at the rounded steps = 2 never delivers, and the loop proposes an evaluated point
// again and again. The score becomes piecewise constant in the integer dimensions, so no gradient
// is offered (the optimiser's derivative-free path is used).
#include <memory>
#include <utility>

#include "dpbo/acquisition.hpp"
#include "dpbo/space.hpp"

namespace dpbo::dpareto {

class LatticeAcquisition final : public Acquisition {
public:
    LatticeAcquisition(std::shared_ptr<Acquisition> inner, const SearchSpace& space)
        : inner_(std::move(inner)), space_(space) {}

    arma::vec score(const Surrogate& model, const arma::mat& points, const AcquisitionContext& context) const override {
        return inner_->score(model, space_.to_unit(space_.from_unit(points)), context);
    }
    std::size_t supported_outputs() const override { return inner_->supported_outputs(); }

private:
    std::shared_ptr<Acquisition> inner_;
    const SearchSpace& space_;
};

}  // namespace dpbo::dpareto
