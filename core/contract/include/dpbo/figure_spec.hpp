#pragma once
// The figures of a run's result, declared as data by the algorithm that made it. The host writes
// them into each repeat's result.json ("figures"), and `dpbo report` draws them from the result
// files alone: no plugin is loaded to draw, and an algorithm nobody in the host knows about gets its
// figures drawn as well as a shipped one.
//
// A series names its numbers in terms the result files already have (a trace column, a number at a
// JSON pointer in result.json, a released front); the report reads them, and the page carries the
// plotted numbers beside each drawing so that they can be checked against those files.
#include <string>
#include <vector>

namespace dpbo {

// Where a series' numbers are, and so how the report draws them.
enum class FigureSource {
    // x and y name trace.csv columns: each repeat a faint line, the median over the folder's repeats
    // (row by row, of the repeats that reached the row) a bold one.
    trace,
    // x and y are JSON pointers (RFC 6901) to numbers in result.json, e.g.
    // "/job/algorithm/parameters/epsilon" against "/evaluation_only/simple_regret/value": each repeat
    // one point, and for each folder the medians over its repeats, joined across the folders drawn
    // (sorted by x) — a sweep of a job parameter, one folder per setting.
    result,
    // y is a JSON pointer to a k×2 matrix in result.json (a released front, e.g.
    // "/released/pareto_values/value"; x is unused): each repeat a staircase through its rows sorted
    // by the first column, its points marked.
    front,
};

// One axis: "label [unit, log scale]" on the page. A log scale with nothing positive to show is
// drawn linear (and its label says so).
struct FigureAxis {
    std::string label;  // what is plotted, e.g. "iteration t"
    std::string unit;   // e.g. "gradient steps", "objective's units"; empty: none
    bool log = false;
};

struct FigureSeries {
    FigureSource source = FigureSource::trace;
    std::string x, y;  // see FigureSource
    // The key's entry for the folder's summary: the median line (trace) or the line of folder medians
    // (result); empty: none. For front: the entry on each folder's first repeat.
    std::string legend;
    // Source result only: the key's entry for the per-repeat points (once, not per folder).
    std::string repeat_legend;
    // Marks the series evaluation only even where the result files do not (the report also marks
    // every trace column they flag and every pointer under /evaluation_only).
    bool evaluation_only = false;
};

// How far a figure reaches.
enum class FigureScope {
    // One figure per folder whose results declare it, drawn from that folder alone.
    folder,
    // One figure for the whole report: every folder whose results declare a figure of the same id
    // (and, once placeholders are filled in, the same title) is drawn on it, each folder with the
    // series its own result declares. Comparisons across runs (a sweep of ε, methods on one front).
    across_folders,
};

// Texts (title, caption, axis labels, legends) may hold placeholders the report fills in for each
// folder: {folder} its label on the page, {repeats} its number of repeats, {folders} the number of
// folders on the figure, and {/json/pointer} the value there in the folder's first result.json (a
// number as %g, a string as it is; "?" where there is none). A literal brace is written {{ or }}.
struct FigureSpec {
    std::string id;  // lower case, digits, '-', '_' or '.': names the figure across folders
    std::string title;
    std::string caption;  // below the figure: how to read it
    FigureAxis x, y;
    std::vector<FigureSeries> series;
    FigureScope scope = FigureScope::folder;
    // The figure shows an evaluation-only quantity (never released): marked in its title, whatever
    // its series' own marks say.
    bool evaluation_only = false;
};

// "trace", "result", "front" and back; from_string throws ValidationError naming the text and the
// accepted ones.
const char* to_string(FigureSource source);
FigureSource figure_source_from_string(const std::string& text);
const char* to_string(FigureScope scope);
FigureScope figure_scope_from_string(const std::string& text);

// Throws ValidationError naming the figure and what is wrong: an id outside [a-z0-9._-], no
// title, no series, a series without its y (or x, for trace and result), a pointer that does not
// start with '/', a placeholder left open.
void validate(const FigureSpec& figure);

}  // namespace dpbo
