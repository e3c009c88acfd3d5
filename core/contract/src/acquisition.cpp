// The Acquisition interface's defaults.
#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"

namespace dpbo {

Acquisition::~Acquisition() = default;

double Acquisition::score_with_gradient(const Surrogate& /*model*/, const arma::rowvec& /*point*/,
                                        const AcquisitionContext& /*context*/, arma::rowvec& /*gradient*/) const {
    throw ValidationError("this acquisition does not provide gradients");
}

}  // namespace dpbo
