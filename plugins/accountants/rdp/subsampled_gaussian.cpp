#include "subsampled_gaussian.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "rdp_mechanisms.hpp"
#include "without_replacement.hpp"

namespace dpbo::rdp {

double subsampled_gaussian_curve(Sampling sampling, double q, double sigma, std::size_t steps, double alpha) {
    double one;
    if (sampling == Sampling::Poisson) {
        one = poisson_subsampled_gaussian_rdp(q, sigma, alpha);
    } else {
        one = without_replacement_rdp(q, sigma, alpha);
    }
    // RDP composes additively (Mironov 2017, Prop. 1); the product is rounded up by one ulp.
    return std::nextafter(static_cast<double>(steps) * one, std::numeric_limits<double>::infinity());
}

OrderChoice subsampled_gaussian_epsilon(Sampling sampling, double q, double sigma, std::size_t steps, double delta,
                                        Conversion conversion) {
    return minimise_over_orders(
        [&](double alpha) {
            return epsilon_at_order(subsampled_gaussian_curve(sampling, q, sigma, steps, alpha), alpha, delta,
                                    conversion);
        },
        true);
}

}  // namespace dpbo::rdp
