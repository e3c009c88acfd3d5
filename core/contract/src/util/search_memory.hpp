#pragma once
// What a search whose points never depend on observed values (random search, grid search) holds at
// once, estimated from its settings before it starts, so that memory::require can refuse it by the
// keys that make it large. Shared by the toolkit's search loop (dpbo/bo/search_release.hpp) and the
// plugins that call it, which name their own keys in the refusal; header-only and not installed,
// like memory_bound.hpp beside it.
#include <algorithm>
#include <cmath>
#include <cstddef>

namespace dpbo::memory {

// A batch's points and answers pass through a few working copies (the points asked for, the
// evaluator's result and the journal's copy of the answers).
constexpr double kSearchBatchCopies = 4.0;
// A trace row: a vector of a few doubles with its allocation, and its line of trace.csv.
constexpr double kBytesPerTraceRow = 160.0;
// A number written into result.json: its JSON node and its text, held twice while the file is
// written (the result's text and the line written).
constexpr double kBytesPerReleasedNumber = 80.0;

struct SearchShape {
    double points = 0.0;  // k, evaluated in all
    double batch = 1.0;   // points per evaluation call
    double dim = 1.0;
    double outputs = 1.0;  // values per point (objective outputs and auxiliary outputs)
    // What is kept of every point until the end, beyond its batch: nothing for a search that
    // releases only its best point (it keeps the best so far); every point and value when the
    // release takes them all (a mechanism privatises the k values at once; a front releases every
    // point).
    bool keeps_every_point = false;
    double released_numbers_per_point = 0.0;  // written into result.json for every point
};

inline double search_bytes(const SearchShape& s) {
    const double batch = std::max(1.0, std::min(s.batch, s.points));
    const double per_point = s.dim + s.outputs;
    double bytes = kSearchBatchCopies * batch * per_point * sizeof(double);
    bytes += std::ceil(s.points / batch) * kBytesPerTraceRow;
    // Kept, then copied once more for the release.
    if (s.keeps_every_point) bytes += 2.0 * s.points * per_point * sizeof(double);
    bytes += s.points * s.released_numbers_per_point * kBytesPerReleasedNumber;
    return bytes;
}

}  // namespace dpbo::memory
