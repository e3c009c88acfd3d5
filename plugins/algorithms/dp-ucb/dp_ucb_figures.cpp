#include "dp_ucb_figures.hpp"

namespace dpbo::dp_ucb {

std::vector<dpbo::FigureSpec> figures() {
    // ε of each release is the algorithm's parameter (the selection and mechanism roles share it); the
    // regret of λ̃, f* − f(λ̃), is computed from the objective's optimum: evaluation only.
    return {{.id = "dp-ucb.regret-against-epsilon",
             .title = "DP-UCB (Kusner et al.): regret of the released point against ε",
             .caption = "One folder per ε (its job's algorithm.epsilon). Points: each repeat's regret of the released "
                        "hyperparameters λ̃ (result.json evaluation_only.regret_lambda_tilde: it needs the objective's "
                        "optimum, so it is evaluation only); bold: the median over the folder's repeats. Log scale: a "
                        "regret of 0 is not drawn.",
             // Kusner et al. sweep ε over decades: a log axis spaces them evenly.
             .x = {.label = "ε of each release", .unit = "privacy loss", .log = true},
             .y = {.label = "regret f* − f(λ̃) of the released λ̃", .unit = "objective's units", .log = true},
             .series = {{.source = dpbo::FigureSource::result,
                         .x = "/job/algorithm/parameters/epsilon",
                         .y = "/evaluation_only/regret_lambda_tilde/value",
                         .legend = "median over each folder's repeats ({folders} folder(s))",
                         .repeat_legend = "each repeat's released point"}},
             .scope = dpbo::FigureScope::across_folders,
             .evaluation_only = true}};
}

}  // namespace dpbo::dp_ucb
