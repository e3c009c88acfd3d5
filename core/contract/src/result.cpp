#include "dpbo/result.hpp"

#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

void Trace::set_columns(std::vector<TraceColumn> columns) {
    if (!rows_.empty()) throw RunError("trace: columns cannot change once rows were added");
    columns_ = std::move(columns);
}

std::vector<TraceColumn> Trace::vector_columns(const std::string& name, std::size_t d, bool evaluation_only) {
    std::vector<TraceColumn> out;
    for (std::size_t i = 0; i < d; ++i) out.push_back({fmt::format("{}[{}]", name, i), evaluation_only});
    return out;
}

void Trace::add_row(std::vector<double> row) {
    if (row.size() != columns_.size())
        throw RunError(fmt::format("trace: a row of {} values for {} columns", row.size(), columns_.size()));
    rows_.push_back(std::move(row));
}

std::size_t Trace::column_index(const std::string& name) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i].name == name) return i;
    throw RunError(fmt::format("trace: no column '{}'", name));
}

double Trace::last(const std::string& name) const {
    if (rows_.empty()) return std::numeric_limits<double>::quiet_NaN();
    return rows_.back()[column_index(name)];
}

}  // namespace dpbo
