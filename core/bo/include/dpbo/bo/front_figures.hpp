#pragma once
// The figures of a search over two outputs (DPareto, and random or grid search on a two-output
// objective), declared alike so that `dpbo report` draws their folders on the same figures: the
// released empirical Pareto fronts, and the hypervolume traced over evaluations.
#include <string>
#include <vector>

#include "dpbo/figure_spec.hpp"
#include "dpbo/objective.hpp"

namespace dpbo {

// Nothing unless there are exactly two outputs. `method` names the folder's method in the key (e.g.
// "dpareto"); `hypervolume`: the trace has a "hypervolume" column (the run had a reference point).
std::vector<FigureSpec> front_figures(const std::vector<Output>& outputs, const std::string& method, bool hypervolume);

}  // namespace dpbo
