#pragma once
// Exact (Clopper–Pearson) one-sided confidence bounds for a binomial proportion: with probability
// at least 1 − alpha, the true p is ≥ lower(k, n, alpha), and separately ≤ upper(k, n, alpha).
// They are quantiles of beta distributions (Clopper & Pearson 1934), computed by Boost.Math's
// inverse incomplete beta function.
#include <cstddef>

namespace dpbo::audit {

// 0 when k = 0; else the alpha-quantile of Beta(k, n − k + 1).
double clopper_pearson_lower(std::size_t successes, std::size_t trials, double alpha);
// 1 when k = n; else the (1 − alpha)-quantile of Beta(k + 1, n − k).
double clopper_pearson_upper(std::size_t successes, std::size_t trials, double alpha);

}  // namespace dpbo::audit
