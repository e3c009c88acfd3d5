#include "report/repeat_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpbo::cli::report {

double median_of(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::vector<double> median_by_row(const std::vector<const std::vector<double>*>& repeats) {
    std::size_t rows = 0;
    for (const auto* column : repeats) rows = std::max(rows, column->size());
    std::vector<double> medians(rows, std::numeric_limits<double>::quiet_NaN());
    std::vector<double> values;
    for (std::size_t row = 0; row < rows; ++row) {
        values.clear();
        for (const auto* column : repeats)
            if (row < column->size() && !std::isnan((*column)[row])) values.push_back((*column)[row]);
        if (values.empty()) continue;
        medians[row] = median_of(values);
    }
    return medians;
}

}  // namespace dpbo::cli::report
