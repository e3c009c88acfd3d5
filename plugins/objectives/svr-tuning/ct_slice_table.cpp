#include "ct_slice_table.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "data_file_lines.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::svr_tuning {
namespace {

constexpr const char* kExpectedLayout = "386 comma-separated columns: patientId, value0..value383, reference";

// A row of 386 numbers is a few kB; a line far longer is not part of this table (and a file
// without line breaks would otherwise be read whole into one string).
constexpr std::size_t kMaxLineBytes = 1 << 20;
constexpr double kLargestMagnitude = 1e150;

std::string_view trimmed(std::string_view field) {
    const auto first = field.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = field.find_last_not_of(" \t");
    return field.substr(first, last - first + 1);
}

// Splits into `fields` (reused between lines to avoid reallocations); returns the field count.
std::size_t split_fields(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(trimmed(line.substr(start, comma - start)));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return fields.size();
}

std::string column_name(std::size_t column) {
    if (column == 0) return "patientId";
    if (column == kCtSliceColumns - 1) return "reference";
    return fmt::format("value{}", column - 1);
}

std::string_view unquoted(std::string_view field) {
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"') return field.substr(1, field.size() - 2);
    return field;
}

void check_header(const std::vector<std::string_view>& fields, const std::string& path, const std::string& owner) {
    if (fields.size() != kCtSliceColumns) {
        throw dpbo::RunError(fmt::format("{}: {} line 1: the header has {} columns; expected {}", owner, path,
                                         fields.size(), kExpectedLayout));
    }
    for (std::size_t column = 0; column < kCtSliceColumns; ++column) {
        const std::string expected = column_name(column);
        if (unquoted(fields[column]) != expected) {
            throw dpbo::RunError(
                fmt::format("{}: {} line 1: header column {} is '{}', expected '{}' (the header must be {})", owner,
                            path, column + 1, fields[column], expected, kExpectedLayout));
        }
    }
}

double parse_number(std::string_view field, std::size_t column, std::size_t line, const std::string& path,
                    const std::string& owner) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || error != std::errc() || end != field.data() + field.size() || !std::isfinite(value)) {
        throw dpbo::RunError(fmt::format("{}: {} line {}: column {} ({}) holds '{}', which is not a finite number",
                                         owner, path, line, column + 1, column_name(column), field));
    }
    // The columns are standardised: a sum of squares of values beyond ±1e150 overflows, the scale
    // becomes inf and every scaled value 0, so the validation error would read exactly 0.
    if (std::fabs(value) > kLargestMagnitude) {
        throw dpbo::RunError(
            fmt::format("{}: {} line {}: column {} ({}) holds {}, beyond ±{:g}; such values overflow the "
                        "standardisation (their squares exceed the largest double)",
                        owner, path, line, column + 1, column_name(column), field, kLargestMagnitude));
    }
    return value;
}

}  // namespace

CtSliceTable read_ct_slice_table(const std::string& path, const std::string& owner) {
    dpbo::plugin_data::DataFileLines reader(
        path, {owner, "data_file",
               fmt::format("the CT-slice table slice_localization_data.csv (plain or .gz) with {}", kExpectedLayout),
               kMaxLineBytes});
    CtSliceTable table;
    table.path = path;

    std::string line;
    std::vector<std::string_view> fields;
    fields.reserve(kCtSliceColumns);
    if (!reader.next(line)) {
        throw dpbo::RunError(
            fmt::format("{}: {} is empty; expected a header line and rows of {}", owner, path, kExpectedLayout));
    }
    split_fields(line, fields);
    check_header(fields, path, owner);

    while (reader.next(line)) {
        if (trimmed(line).empty()) continue;
        const std::size_t count = split_fields(line, fields);
        if (count != kCtSliceColumns) {
            throw dpbo::RunError(fmt::format("{}: {} line {}: {} columns; expected {}", owner, path,
                                             reader.line_number(), count, kExpectedLayout));
        }
        parse_number(fields[0], 0, reader.line_number(), path, owner);  // patientId: checked only
        for (std::size_t column = 1; column <= kCtSliceFeatures; ++column) {
            table.features.push_back(parse_number(fields[column], column, reader.line_number(), path, owner));
        }
        table.reference.push_back(
            parse_number(fields[kCtSliceColumns - 1], kCtSliceColumns - 1, reader.line_number(), path, owner));
        ++table.rows;
    }
    if (table.rows == 0) {
        throw dpbo::RunError(fmt::format("{}: {} has a header but no data rows", owner, path));
    }
    return table;
}

}  // namespace dpbo::svr_tuning
