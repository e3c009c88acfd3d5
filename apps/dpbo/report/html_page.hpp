#pragma once
// The report's page: one self-contained HTML document (styles inline, figures as inline SVG, each
// figure's plotted numbers beside it as JSON), nothing fetched from anywhere.
#include <string>
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// A titled group of figures on the page, with the SVG gnuplot drew for each.
struct FigureSection {
    std::string heading;
    std::vector<Figure> figures;
    std::vector<std::string> svgs;  // parallel to figures
};

// The numbers a figure plots, as carried in its <script type="application/json" class="figure-data">:
// every series with its folder, repeat, columns and x, y (null where there is no number).
json figure_data(const Figure& figure);

// The table of headline figures: each folder's released and evaluation-only scalars, median over
// repeats (as `dpbo summary` computes them).
std::string headline_table_html(const std::vector<ReportFolder>& folders);

std::string page_html(const std::vector<ReportFolder>& folders, const std::vector<FigureSection>& sections);

}  // namespace dpbo::cli::report
