#pragma once
// The standard normal CDF Φ and its logarithm far into the lower tail, where Φ itself underflows
// double precision: the Gaussian privacy-loss profiles need Φ(x) at x ≈ −40 for small noise.
namespace dpbo::pld {

double normal_cdf(double x);
// log Φ(x); finite for every finite x (an asymptotic series below x = −37, where erfc underflows).
double log_normal_cdf(double x);
// The x < 0 with log Φ(x) = log_probability (log_probability < log 0.5), by bisection on log Φ.
double normal_quantile_from_log(double log_probability);

}  // namespace dpbo::pld
