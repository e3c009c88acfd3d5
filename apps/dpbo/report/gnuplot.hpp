#pragma once
// Draws figures with gnuplot's svg terminal: one gnuplot process per page, run directly (no shell)
// on a script, data and output files that have no name (it opens them as /dev/fd/N), so that
// nothing is left behind however the report ends.
#include <string>
#include <vector>

#include "report/figure.hpp"

namespace dpbo::cli::report {

// The program run: $DPBO_GNUPLOT when set, else `gnuplot` on the PATH.
std::string gnuplot_program();

// The SVG document of each figure, in order (starting at its <svg> element). Throws RunError naming
// gnuplot when it cannot be started, fails, or leaves a figure undrawn.
std::vector<std::string> render_svg(const std::vector<Figure>& figures);

}  // namespace dpbo::cli::report
