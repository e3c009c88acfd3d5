#pragma once
// One repeat's trace.csv, read as numbers and checked against the columns its result.json declares
// (with which of them are evaluation-only).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"

namespace dpbo::cli::report {

struct TraceTable {
    std::filesystem::path file;
    std::vector<std::string> names;
    std::vector<bool> evaluation_only;         // parallel to names
    std::vector<std::vector<double>> columns;  // parallel to names; "nan" and empty cells are NaN
    std::size_t rows = 0;

    // nullptr when the trace has no such column.
    const std::vector<double>* column(const std::string& name) const;
    bool is_evaluation_only(const std::string& name) const;
};

// The trace of the result read from `result_file`, or nothing when the result declares none.
// Refused (ValidationError naming the file) when the file is missing, its header differs from the
// declared columns, a row has the wrong number of cells or a cell is not a number, or its row count
// differs from the declared one.
std::optional<TraceTable> read_trace(const std::filesystem::path& result_file, const json& result);

}  // namespace dpbo::cli::report
