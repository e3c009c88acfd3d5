#pragma once
// From an RDP curve to (ε, δ)-DP: the two conversions, and the choice of order.
#include <functional>
#include <string_view>

namespace dpbo::rdp {

enum class Conversion {
    Classic,  // Mironov 2017, Prop. 3: ε = ε(α) + log(1/δ)/(α − 1)
    Tight,    // Canonne, Kamath & Steinke 2020, Prop. 12 (= Balle et al. 2020, Thm. 21)
};
std::string_view to_string(Conversion conversion);

// ε such that an (α, rdp)-RDP mechanism is (ε, δ)-DP, rounded upward; +∞ where the conversion gives
// no meaningful (non-negative) ε at this order.
double epsilon_at_order(double rdp, double alpha, double delta, Conversion conversion);
// δ such that an (α, rdp)-RDP mechanism is (ε, δ)-DP, rounded upward and capped at 1.
double delta_at_order(double rdp, double alpha, double epsilon, Conversion conversion);

struct OrderChoice {
    double order = 0.0;
    double value = 0.0;  // the minimised ε or δ
};

// Minimises `objective(α)` over orders. The grid: 1 + {1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2} and
// 1.1 … 1.9 (only when `real_orders`), every integer 2 … 64, then integers growing by ~8 % up to 10⁴;
// while the best order is the largest, the grid doubles on (up to 2²⁴), so ε is never capped at
// log(1/δ)/α_max for large σ or tiny q. The grid is searched by golden section over its index (the
// objectives here are unimodal in practice; any order gives a valid bound, so a non-unimodal
// objective can only cost tightness, never safety), then refined by golden section over real
// orders between the best order's neighbours (`real_orders`), or over the integers between them.
OrderChoice minimise_over_orders(const std::function<double(double)>& objective, bool real_orders);

}  // namespace dpbo::rdp
