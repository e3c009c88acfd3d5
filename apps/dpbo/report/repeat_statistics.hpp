#pragma once
// The bold line of a figure: the median over a folder's repeats, row by row.
#include <vector>

namespace dpbo::cli::report {

// Row i of the result is the median of row i over the repeats that reached it and hold a number
// there (NaN where none does); repeats may stop at different rows. The median of an even count is
// the mean of the middle two.
// The median of NaN-free values (the mean of the middle two for an even count); NaN for none.
double median_of(std::vector<double> values);

std::vector<double> median_by_row(const std::vector<const std::vector<double>*>& repeats);

}  // namespace dpbo::cli::report
