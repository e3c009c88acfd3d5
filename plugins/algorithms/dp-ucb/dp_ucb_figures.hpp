#pragma once
// DP-UCB's figure (Kusner et al.), drawn by `dpbo report` across folders, one folder per ε: the
// regret of the released point against ε.
#include <vector>

#include "dpbo/figure_spec.hpp"

namespace dpbo::dp_ucb {

std::vector<dpbo::FigureSpec> figures();

}  // namespace dpbo::dp_ucb
