#include "fixed_lot_epsilon.hpp"

#include "subsampled_gaussian.hpp"

namespace dpbo::plugin_data {

double FixedLotEpsilon::operator()(std::size_t rows, std::size_t lot_size, double noise_multiplier, std::size_t steps) {
    const auto key = std::make_tuple(rows, lot_size, noise_multiplier, steps);
    {
        const std::lock_guard lock(mutex_);
        if (const auto found = memo_.find(key); found != memo_.end()) return found->second;
    }
    const double q = static_cast<double>(lot_size) / static_cast<double>(rows);
    const double epsilon = rdp::subsampled_gaussian_epsilon(rdp::Sampling::WithoutReplacement, q, noise_multiplier,
                                                            steps, delta_, rdp::Conversion::Tight)
                               .value;
    const std::lock_guard lock(mutex_);
    memo_.emplace(key, epsilon);
    return epsilon;
}

}  // namespace dpbo::plugin_data
