#include "report/trace_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli::report {

namespace fs = std::filesystem;

const std::vector<double>* TraceTable::column(const std::string& name) const {
    const auto at = std::find(names.begin(), names.end(), name);
    return at == names.end() ? nullptr : &columns[static_cast<std::size_t>(at - names.begin())];
}

bool TraceTable::is_evaluation_only(const std::string& name) const {
    const auto at = std::find(names.begin(), names.end(), name);
    return at != names.end() && evaluation_only[static_cast<std::size_t>(at - names.begin())];
}

namespace {

// A trace row holds a few numbers per coordinate and output: far below this for any dimension a run
// can have.
constexpr std::size_t kMaxTraceLineBytes = std::size_t{64} << 20;

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return cells;
        start = comma + 1;
    }
}

double cell_value(const std::string& cell, const fs::path& file, std::size_t line, const std::string& column) {
    if (cell.empty() || cell == "nan" || cell == "NaN" || cell == "-nan")
        return std::numeric_limits<double>::quiet_NaN();
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(cell.c_str(), &end);
    if (end != cell.c_str() + cell.size() || errno == ERANGE)
        throw ValidationError(fmt::format("report: '{}' line {}: column '{}' holds '{}'; expected a number",
                                          file.string(), line, column, cell));
    return value;
}

}  // namespace

std::optional<TraceTable> read_trace(const fs::path& result_file, const json& result) {
    if (!result.contains("trace")) return std::nullopt;
    const json& declared = result["trace"];
    if (!declared.is_object() || !declared.contains("file") || !declared["file"].is_string() ||
        !declared.contains("columns") || !declared["columns"].is_array())
        throw ValidationError(
            fmt::format("report: '{}': its trace section is malformed; expected an object with "
                        "'file' (text) and 'columns' (a list)",
                        result_file.string()));
    TraceTable table;
    table.file = result_file.parent_path() / declared["file"].get<std::string>();
    for (const json& column : declared["columns"]) {
        if (!column.is_object() || !column.contains("name") || !column["name"].is_string())
            throw ValidationError(
                fmt::format("report: '{}': a trace column has no name; expected {{\"name\": …, "
                            "\"evaluation_only\": …}}",
                            result_file.string()));
        table.names.push_back(column["name"].get<std::string>());
        table.evaluation_only.push_back(column.value("evaluation_only", false));
    }
    const bounded_input::Input trace{
        fmt::format("report: trace '{}' (named by '{}')", table.file.string(), result_file.string()),
        "the trace.csv written with it", kMaxTraceLineBytes};
    const bounded_input::InputFile file(table.file.string(), trace);
    bounded_input::LineReader lines(file.fd(), {fmt::format("report: '{}'", table.file.string()),
                                                "a trace row written by dpbo", kMaxTraceLineBytes});
    std::string line;
    lines.next(line);
    const std::vector<std::string> header = split(line);
    if (header != table.names)
        throw ValidationError(fmt::format("report: '{}' has the columns [{}]; '{}' declares [{}]", table.file.string(),
                                          fmt::join(header, ", "), result_file.string(), fmt::join(table.names, ", ")));
    table.columns.assign(table.names.size(), {});
    while (lines.next(line)) {
        const std::size_t line_number = lines.line_number();
        if (line.empty()) continue;
        const std::vector<std::string> cells = split(line);
        if (cells.size() != table.names.size())
            throw ValidationError(fmt::format("report: '{}' line {} has {} cells; expected {}, one per column",
                                              table.file.string(), line_number, cells.size(), table.names.size()));
        for (std::size_t c = 0; c < cells.size(); ++c)
            table.columns[c].push_back(cell_value(cells[c], table.file, line_number, table.names[c]));
        ++table.rows;
    }
    if (declared.contains("rows") && declared["rows"].is_number_unsigned() &&
        declared["rows"].get<std::size_t>() != table.rows)
        throw ValidationError(fmt::format("report: '{}' has {} rows; '{}' declares {}", table.file.string(), table.rows,
                                          result_file.string(), declared["rows"].get<std::size_t>()));
    return table;
}

}  // namespace dpbo::cli::report
