#include "pld_composition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "fft_convolution.hpp"

namespace dpbo::pld {
namespace {

// The +∞ mass of a composition: the first or the second release is unbounded, 1 − (1−a)(1−b).
double either(double a, double b) { return a + b - a * b; }

// ln Σ_k p_k e^{λk} over the grid indices k = 0 … n−1, without overflow.
double log_moment(const std::vector<double>& probs, double lambda) {
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < probs.size(); ++k)
        if (probs[k] > 0.0) top = std::max(top, lambda * static_cast<double>(k));
    double sum = 0.0;
    for (std::size_t k = 0; k < probs.size(); ++k)
        if (probs[k] > 0.0) sum += probs[k] * std::exp(lambda * static_cast<double>(k) - top);
    return top + std::log(sum);
}

struct Window {
    std::size_t first;
    std::size_t last;
    double outside_mass;  // an upper bound on the sum's mass outside [first, last]
};

// Indices [first, last] of the `times`-fold sum S of grid indices outside which S has mass at most
// tail_mass/2 on each side, by Chernoff's bound P(S ≥ t) ≤ e^{−λt}·M(λ)^times (and its mirror),
// minimised over a geometric range of λ: the window the spectral self-composition keeps. A window
// longer than kMaxGridPoints is cut at the top, with the bound on the mass above the cut.
Window chernoff_window(const std::vector<double>& probs, std::size_t times, double tail_mass) {
    const double n = static_cast<double>(times);
    const double top = n * static_cast<double>(probs.size() - 1);
    std::vector<std::pair<double, double>> upper_moments;  // (λ, n·ln M(λ))
    double last = top;
    double first = 0.0;
    if (tail_mass > 0.0) {
        const double log_tail = std::log(0.5 * tail_mass);
        for (double lambda = 1e-7; lambda <= 10.0; lambda *= 1.5) {
            const double up = n * log_moment(probs, lambda);
            upper_moments.emplace_back(lambda, up);
            last = std::min(last, (up - log_tail) / lambda);
            first = std::max(first, (log_tail - n * log_moment(probs, -lambda)) / lambda);
        }
    }
    const auto clamp_index = [&](double value) { return static_cast<std::size_t>(std::clamp(value, 0.0, top)); };
    Window window{clamp_index(std::floor(first)), 0, tail_mass};
    window.last = std::max(window.first, clamp_index(std::ceil(last)));
    if (window.last - window.first + 1 > kMaxGridPoints) {
        window.last = window.first + kMaxGridPoints - 1;
        double above = 1.0;
        for (const auto& [lambda, up] : upper_moments)
            above = std::min(above, std::exp(up - lambda * static_cast<double>(window.last)));
        window.outside_mass = std::min(1.0, 0.5 * tail_mass + above);
    }
    return window;
}

}  // namespace

GridPld compose(const GridPld& a, const GridPld& b, Estimate estimate, double tail_mass) {
    if (a.interval != b.interval) throw std::logic_error("pld: composing distributions on different grids");
    GridPld result;
    result.interval = a.interval;
    result.lower_index = a.lower_index + b.lower_index;
    result.probs = convolve(a.probs, b.probs);
    result.infinity_mass = either(a.infinity_mass, b.infinity_mass);
    result.excess_mass = a.excess_mass + b.excess_mass;
    truncate_tails(result, tail_mass, estimate);
    return result;
}

GridPld self_compose(const GridPld& pld, std::size_t times, Estimate estimate, double tail_mass) {
    if (times == 0) throw std::logic_error("pld: self-composition zero times");
    if (times == 1) return pld;
    const Window window = chernoff_window(pld.probs, times, tail_mass);
    GridPld result;
    result.interval = pld.interval;
    result.lower_index = static_cast<std::int64_t>(times) * pld.lower_index + static_cast<std::int64_t>(window.first);
    result.probs = self_convolve_window(pld.probs, times, window.first, window.last);
    // 1 − (1 − p)^times, without cancellation for small p.
    result.infinity_mass = -std::expm1(static_cast<double>(times) * std::log1p(-pld.infinity_mass));
    result.excess_mass = static_cast<double>(times) * pld.excess_mass;
    // The mass outside the window (at most window.outside_mass) is missing from its place and may have wrapped
    // into the window anywhere: δ(ε) is off by at most that much either way. The upper bound puts
    // it at +∞; the lower bound records it as mass that may be overstated.
    if (estimate == Estimate::Pessimistic) {
        result.infinity_mass = std::min(1.0, result.infinity_mass + window.outside_mass);
    } else {
        result.excess_mass += window.outside_mass;
    }
    for (double& p : result.probs) p = std::max(0.0, p);
    return result;
}

}  // namespace dpbo::pld
