#pragma once
// The figures the algorithms declared in their results (dpbo/figure_spec.hpp), drawn by one
// interpreter for every algorithm: the report names none.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

struct DeclaredFigures {
    // Scope "across folders": one figure per id and title, over every folder that declares it, in
    // the order the folders first declare them.
    std::vector<Figure> across_folders;
    // Scope "folder": parallel to the folders, each folder's own.
    std::vector<std::vector<Figure>> per_folder;
};

// A figure with nothing drawable on its scales (its data absent from the folders, or not positive on
// a log scale) is left out.
DeclaredFigures declared_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
