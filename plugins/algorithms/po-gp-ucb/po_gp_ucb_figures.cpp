#include "po_gp_ucb_figures.hpp"

namespace dpbo::po_gp_ucb {

std::vector<dpbo::FigureSpec> figures() {
    // The release role carries ε, δ and r; the final simple regret is computed from the objective's
    // optimum: evaluation only.
    return {
        {.id = "po-gp-ucb.regret-over-iterations",
         .title = "PO-GP-UCB: simple regret over iterations, per ε and r",
         .caption = "Trace column 'simple_regret' of each folder (a run per ε and projection dimension r of the "
                    "random-projection release). Faint: each repeat; bold: the median over repeats. Log scale: a "
                    "regret of 0 is not drawn.",
         .x = {.label = "iteration t", .unit = "count; 0: the initial design"},
         .y = {.label = "simple regret f* − max f(x_s)", .unit = "objective's units", .log = true},
         .series = {{.source = dpbo::FigureSource::trace,
                     .x = "iteration",
                     .y = "simple_regret",
                     .legend = "{folder}: ε = {/job/release/parameters/epsilon}, r = {/job/release/parameters/r} "
                               "(median of {repeats})"}},
         .scope = dpbo::FigureScope::across_folders},
        {.id = "po-gp-ucb.regret-against-r",
         .title = "PO-GP-UCB: final simple regret against r",
         .caption = "One folder per r (its job's release.r). Points: each repeat's final simple regret (result.json "
                    "evaluation_only.simple_regret); bold: the median over the folder's repeats. Folders with "
                    "different ε share the axis: read it with the legend of the figure above.",
         .x = {.label = "r, dimension of the random projection", .unit = "count"},
         .y = {.label = "final simple regret", .unit = "objective's units", .log = true},
         .series = {{.source = dpbo::FigureSource::result,
                     .x = "/job/release/parameters/r",
                     .y = "/evaluation_only/simple_regret/value",
                     .legend = "median over each folder's repeats",
                     .repeat_legend = "each repeat's final regret"}},
         .scope = dpbo::FigureScope::across_folders,
         .evaluation_only = true},
    };
}

}  // namespace dpbo::po_gp_ucb
