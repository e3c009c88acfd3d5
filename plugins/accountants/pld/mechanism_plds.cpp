#include "mechanism_plds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "loss_profile.hpp"
#include "normal_tail.hpp"

namespace dpbo::pld {
namespace {

// ln(e^a + e^b) without overflow.
double log_add(double a, double b) {
    const double top = std::max(a, b);
    if (std::isinf(top) && top < 0) return top;
    return top + std::log1p(std::exp(std::min(a, b) - top));
}

// Noise N(0, s²), sensitivity 1, sampling rate q; x is the output. P = q·N(−1, s²) + (1−q)·N(0, s²),
// Q = N(0, s²) (removing the record: P is the dataset with it, shifted so Q is centred). The loss
// ln(P/Q)(x) = ln(1 − q + q·e^{−(2x+1)/(2s²)}) decreases in x, so {L ≥ ℓ} = {x ≤ L⁻¹(ℓ)}.
class GaussianRemove final : public LossProfile {
public:
    GaussianRemove(double s, double q, double log_tail)
        : s_(s), q_(q), tail_x_(s * normal_quantile_from_log(log_tail + std::log(0.5))) {}

    double delta(double epsilon) const override {
        if (q_ < 1.0 && epsilon <= std::log1p(-q_)) return -std::expm1(epsilon);  // below every loss
        const double x = inverse(epsilon);
        // δ = P(x' ≤ x) − e^ε·Q(x' ≤ x) = q·[Φ((x+1)/s) − e^{−(2x+1)/(2s²)}·Φ(x/s)]
        const double a = normal_cdf((x + 1.0) / s_);
        const double b = std::exp(-(2.0 * x + 1.0) / (2.0 * s_ * s_) + log_normal_cdf(x / s_));
        return q_ * (a - b);
    }
    double survival(double loss) const override {
        if (q_ < 1.0 && loss <= std::log1p(-q_)) return 1.0;
        const double x = inverse(loss);
        return q_ * normal_cdf((x + 1.0) / s_) + (1.0 - q_) * normal_cdf(x / s_);
    }
    double grid_low() const override { return loss(-tail_x_); }
    double grid_high() const override { return loss(tail_x_ - 1.0); }

private:
    double loss(double x) const {
        const double shift = -(2.0 * x + 1.0) / (2.0 * s_ * s_);
        if (q_ == 1.0) return shift;
        return log_add(std::log1p(-q_), std::log(q_) + shift);
    }
    // The x with loss(x) = ℓ, for ℓ > ln(1 − q).
    double inverse(double loss) const {
        const double scaled = q_ == 1.0 ? loss : std::log(std::expm1(loss) + q_) - std::log(q_);
        return -s_ * s_ * scaled - 0.5;
    }

    double s_;
    double q_;
    double tail_x_;  // < 0: Φ(tail_x_/s) = e^{log_tail}/2
};

// Adding the record: P = N(0, s²), Q = q·N(1, s²) + (1−q)·N(0, s²); the loss
// −ln(1 − q + q·e^{(2x−1)/(2s²)}) decreases in x and stays below −ln(1 − q).
class GaussianAdd final : public LossProfile {
public:
    GaussianAdd(double s, double q, double log_tail)
        : s_(s), q_(q), tail_x_(s * normal_quantile_from_log(log_tail + std::log(0.5))) {}

    double delta(double epsilon) const override {
        if (epsilon >= -std::log1p(-q_)) return 0.0;  // above every loss
        const double x = inverse(epsilon);
        // δ = Φ(x/s) − e^ε·[(1−q)·Φ(x/s) + q·Φ((x−1)/s)]
        const double kept = -std::expm1(epsilon + std::log1p(-q_));
        return kept * normal_cdf(x / s_) - q_ * std::exp(epsilon + log_normal_cdf((x - 1.0) / s_));
    }
    double survival(double loss) const override {
        if (loss >= -std::log1p(-q_)) return 0.0;
        return normal_cdf(inverse(loss) / s_);
    }
    double grid_low() const override { return loss(-tail_x_ + 1.0); }
    double grid_high() const override { return loss(tail_x_); }

private:
    double loss(double x) const { return -log_add(std::log1p(-q_), std::log(q_) + (2.0 * x - 1.0) / (2.0 * s_ * s_)); }
    double inverse(double loss) const { return s_ * s_ * (std::log(std::expm1(-loss) + q_) - std::log(q_)) + 0.5; }

    double s_;
    double q_;
    double tail_x_;
};

// Laplace noise of scale b, sensitivity 1: the loss is +1/b (mass 1/2), −1/b (mass e^{−1/b}/2) and
// continuous between; δ(ε) = 1 − e^{ε/2 − 1/(2b)} on [−1/b, 1/b].
class Laplace final : public LossProfile {
public:
    explicit Laplace(double b) : b_(b) {}
    double delta(double epsilon) const override {
        if (epsilon >= 1.0 / b_) return 0.0;
        if (epsilon <= -1.0 / b_) return -std::expm1(epsilon);
        return -std::expm1(0.5 * epsilon - 0.5 / b_);
    }
    double survival(double loss) const override {
        if (loss > 1.0 / b_) return 0.0;
        if (loss <= -1.0 / b_) return 1.0;
        return 1.0 - 0.5 * std::exp(0.5 * loss - 0.5 / b_);
    }
    double grid_low() const override { return -1.0 / b_; }
    double grid_high() const override { return 1.0 / b_; }

private:
    double b_;
};

}  // namespace

PldPair subsampled_gaussian_pld(double noise_over_sensitivity, double sampling_rate, const Discretisation& grid) {
    const GaussianRemove remove(noise_over_sensitivity, sampling_rate, grid.log_mass_truncation);
    PldPair pair{discretise(remove, grid.interval, grid.estimate), std::nullopt};
    if (sampling_rate < 1.0) {
        const GaussianAdd add(noise_over_sensitivity, sampling_rate, grid.log_mass_truncation);
        pair.add = discretise(add, grid.interval, grid.estimate);
    }
    return pair;
}

namespace {

// The larger of two profiles at every ε: the privacy profile of the hull of min{f, g}.
class LargerProfile final : public LossProfile {
public:
    LargerProfile(const LossProfile& a, const LossProfile& b) : a_(a), b_(b) {}
    double delta(double epsilon) const override { return std::max(a_.delta(epsilon), b_.delta(epsilon)); }
    // Only the connect-the-dots discretisation reads this profile, and it reads δ alone.
    double survival(double loss) const override { return std::max(a_.survival(loss), b_.survival(loss)); }
    double grid_low() const override { return std::min(a_.grid_low(), b_.grid_low()); }
    double grid_high() const override { return std::max(a_.grid_high(), b_.grid_high()); }

private:
    const LossProfile& a_;
    const LossProfile& b_;
};

}  // namespace

PldPair without_replacement_gaussian_pld(double noise_over_sensitivity, double sampling_rate,
                                         const Discretisation& grid) {
    if (grid.estimate == Estimate::Optimistic || sampling_rate >= 1.0)
        return subsampled_gaussian_pld(noise_over_sensitivity, sampling_rate, grid);
    const GaussianRemove remove(noise_over_sensitivity, sampling_rate, grid.log_mass_truncation);
    const GaussianAdd add(noise_over_sensitivity, sampling_rate, grid.log_mass_truncation);
    return {discretise(LargerProfile(remove, add), grid.interval, grid.estimate), std::nullopt};
}

PldPair laplace_pld(double scale_over_sensitivity, const Discretisation& grid) {
    return {discretise(Laplace(scale_over_sensitivity), grid.interval, grid.estimate), std::nullopt};
}

PldPair approximate_dp_pld(double epsilon, double delta, const Discretisation& grid) {
    const bool up = grid.estimate == Estimate::Pessimistic;
    const auto index = [&](double loss) {
        return grid_index(up ? std::ceil(loss / grid.interval) : std::floor(loss / grid.interval));
    };
    std::int64_t high = index(epsilon);
    std::int64_t low = index(-epsilon);
    // A huge ε would need more grid points than a distribution holds: the upper bound moves the
    // loss −ε up, the lower bound the loss +ε down, until the two fit.
    const auto span = static_cast<std::int64_t>(kMaxGridPoints) - 1;
    if (high - low > span) {
        if (up) {
            low = high - span;
        } else {
            high = low + span;
        }
    }
    GridPld pld;
    pld.interval = grid.interval;
    pld.lower_index = low;
    pld.probs.assign(static_cast<std::size_t>(high - low + 1), 0.0);
    pld.probs.back() += (1.0 - delta) / (1.0 + std::exp(-epsilon));
    pld.probs.front() += (1.0 - delta) / (1.0 + std::exp(epsilon));
    pld.infinity_mass = delta;
    return {pld, std::nullopt};
}

}  // namespace dpbo::pld
