#pragma once
// DP-GIBO's figure (Ye et al.), drawn by `dpbo report` from the result files: per iteration, the bias
// proxy Tr Σ∇(θ_t) its step rule watches against the norm of the Gaussian noise the privatised
// gradient carries.
#include <vector>

#include "dpbo/figure_spec.hpp"

namespace dpbo::dp_gibo {

std::vector<dpbo::FigureSpec> figures();

}  // namespace dpbo::dp_gibo
