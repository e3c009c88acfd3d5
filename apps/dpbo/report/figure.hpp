#pragma once
// A figure as the report draws it: axes, scales and the series it plots, each series keeping where
// its numbers came from (folder, repeat, trace columns) so that the page can carry them beside the
// drawing for anyone — and the tests — to check against the result files.
#include <string>
#include <vector>

namespace dpbo::cli::report {

enum class SeriesStyle {
    faint,   // one repeat among many: thin and translucent
    bold,    // the median over repeats
    path,    // a repeat's path through a 2-D space: line with points, its start marked
    front,   // an empirical Pareto front: a staircase through its points, the points marked
    points,  // one value per repeat: small translucent points, no line
    marker,  // the median per folder across folders: bold line with large points
};

struct Series {
    std::string legend;                // empty: no entry in the key
    std::string folder;                // the folder's label on the page
    std::vector<std::string> folders;  // kind "folder medians": the folders, one point each
    // Where the numbers came from: "repeat" and "median" are trace.csv columns (x_column, y_column);
    // "front" is a repeat's released pareto_values in result.json (x, y: its two outputs, sorted by
    // the first); "repeats" holds one point per repeat of the folder, x and y read from each
    // result.json at the JSON pointers x_column and y_column; "folder medians" one point per folder
    // of `folders`, the medians over each folder's repeats at those pointers.
    std::string kind;
    int repeat = 0;  // the repeat's number for kind "repeat", 0 for a median
    std::string x_column, y_column;
    bool evaluation_only = false;  // the y column (or x column) is evaluation-only in the result
    int colour = 0;                // index into the page's palette
    SeriesStyle style = SeriesStyle::faint;
    std::vector<double> x, y;  // NaN: no point there
};

struct Figure {
    std::string title;
    std::string caption;  // below the figure: how to read it
    std::string x_label, y_label;
    bool log_x = false, log_y = false;
    bool evaluation_only = false;  // shows an evaluation-only quantity: marked in its title
    std::vector<Series> series;
};

// Whether any series has a point gnuplot can draw on the figure's scales; a figure without one is
// left out of the page (gnuplot refuses to plot nothing).
bool has_drawable_point(const Figure& figure);

// A log scale with nothing positive to show falls back to linear, so that a regret that reached
// zero everywhere still plots.
void settle_log_scales(Figure& figure);

}  // namespace dpbo::cli::report
