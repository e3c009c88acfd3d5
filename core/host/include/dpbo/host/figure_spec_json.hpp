#pragma once
// Figure specs (dpbo/figure_spec.hpp) as result.json carries them under "figures", written by the
// runner and read back by `dpbo report`, which draws them without loading the algorithm.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/figure_spec.hpp"

namespace dpbo {

// [{id, title, caption, scope, evaluation_only, x: {label, unit, log}, y: {...}, series: [{source,
// x, y, legend, repeat_legend, evaluation_only}]}]; every figure validated first (ValidationError).
nlohmann::ordered_json figures_json(const std::vector<FigureSpec>& figures);

// The inverse; throws ValidationError naming `where` (the file), the figure and the key that is
// missing or of the wrong type, or what validate() refuses.
std::vector<FigureSpec> figures_from_json(const nlohmann::ordered_json& figures, const std::string& where);

}  // namespace dpbo
