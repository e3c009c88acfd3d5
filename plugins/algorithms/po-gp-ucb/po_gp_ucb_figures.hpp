#pragma once
// PO-GP-UCB's figures, drawn by `dpbo report` across folders (a run per ε and projection dimension r
// of the curator's release): simple regret over iterations, and the final regret against r.
#include <vector>

#include "dpbo/figure_spec.hpp"

namespace dpbo::po_gp_ucb {

std::vector<dpbo::FigureSpec> figures();

}  // namespace dpbo::po_gp_ucb
