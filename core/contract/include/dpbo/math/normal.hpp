#pragma once
// The standard normal distribution and a bisection helper: generic numerics shared by acquisitions,
// mechanisms and accountants (the privacy formulas built on them are in dpbo/privacy/gaussian_dp.hpp).
#include <functional>

namespace dpbo {

double normal_cdf(double x);
double normal_pdf(double x);
// log Φ(x), accurate far into the lower tail (where Φ underflows).
double log_normal_cdf(double x);

// Bisection on a monotone predicate: returns the smallest x in [lo, hi] (to `tolerance`) for which
// `holds(x)` is true, always a point where it holds. Requires holds(hi) and, unless lo is
// accepted, !holds(lo); throws RunError otherwise.
double smallest_satisfying(const std::function<bool(double)>& holds, double lo, double hi, double tolerance);

}  // namespace dpbo
