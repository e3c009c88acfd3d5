#include "dpbo/bo/front_figures.hpp"

#include <fmt/format.h>

namespace dpbo {

namespace {

// ε is a privacy loss spanning decades (DPareto's figures draw it on a log axis); other outputs are
// in the objective's own units.
FigureAxis output_axis(const Output& output) {
    const std::string sense(to_string(output.sense));
    if (output.name == "epsilon")
        return {.label = fmt::format("ε, privacy loss of the trained model ({})", sense), .unit = "", .log = true};
    return {.label = fmt::format("{} ({})", output.name, sense), .unit = "as the objective reports it", .log = false};
}

}  // namespace

std::vector<FigureSpec> front_figures(const std::vector<Output>& outputs, const std::string& method, bool hypervolume) {
    if (outputs.size() != 2) return {};
    std::vector<FigureSpec> figures;
    // The outputs' names are in the title: folders of other objectives make figures of their own.
    figures.push_back(
        {.id = "pareto-front",
         .title = fmt::format("Empirical Pareto fronts: {} against {}", outputs[1].name, outputs[0].name),
         .caption =
             "Each folder's released front (result.json's pareto_values: the evaluated points no other evaluated "
             "point dominates), one staircase per repeat, its points marked; lower-left is better when both outputs "
             "are minimised. The results carry no exact front of their own (evaluation_only holds none): where a "
             "folder is a fine grid-search (e.g. svt-fine-grid.ini), its front is the near-exact one the others are "
             "measured against; without such a folder, none is drawn.",
         .x = output_axis(outputs[0]),
         .y = output_axis(outputs[1]),
         .series = {{.source = FigureSource::front,
                     .y = "/released/pareto_values/value",
                     .legend = fmt::format("{{folder}} ({}): {{repeats}} front(s), one per repeat", method)}},
         .scope = FigureScope::across_folders});
    if (hypervolume)
        figures.push_back(
            {.id = "hypervolume",
             .title = "Hypervolume of the empirical front over evaluations",
             .caption = "Trace column 'hypervolume': the area the front dominates up to the run's reference point "
                        "(larger is better). Faint lines: each repeat; bold: the median over the repeats that reached "
                        "that row. Folders whose trace has no hypervolume column (no reference point) are not drawn.",
             .x = {.label = "evaluations of the objective", .unit = "count"},
             .y = {.label = "hypervolume", .unit = "outputs' units multiplied"},
             .series = {{.source = FigureSource::trace,
                         .x = "evaluations",
                         .y = "hypervolume",
                         .legend = fmt::format("{{folder}} ({}): median of {{repeats}}", method)}},
             .scope = FigureScope::across_folders});
    return figures;
}

}  // namespace dpbo
