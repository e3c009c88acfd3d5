#include "rdp_conversion.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "mpfr_number.hpp"

namespace dpbo::rdp {

namespace {
constexpr mpfr_prec_t kBits = 128;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

std::string_view to_string(Conversion conversion) { return conversion == Conversion::Classic ? "classic" : "tight"; }

double epsilon_at_order(double rdp, double alpha, double delta, Conversion conversion) {
    if (!std::isfinite(rdp)) return kInfinity;
    Mpfr a(kBits, alpha), am1(kBits), out(kBits, delta), t(kBits);
    mpfr_sub_ui(am1, a, 1, MPFR_RNDN);
    mpfr_log(out, out, MPFR_RNDN);  // log δ
    if (conversion == Conversion::Classic) {
        // Mironov 2017, Prop. 3: ε = ε(α) + log(1/δ)/(α − 1).
        mpfr_neg(out, out, MPFR_RNDN);
        mpfr_div(out, out, am1, MPFR_RNDN);
    } else {
        // Canonne, Kamath & Steinke 2020, Prop. 12 / Balle et al. 2020, Thm. 21:
        // ε = ε(α) + log((α − 1)/α) − (log δ + log α)/(α − 1).
        mpfr_log(t, a, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
        mpfr_div(out, out, am1, MPFR_RNDN);
        mpfr_neg(out, out, MPFR_RNDN);
        mpfr_div(t, am1, a, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    }
    mpfr_add_d(out, out, rdp, MPFR_RNDN);
    const double epsilon = upward(out);
    // The conversions are stated for ε ≥ 0; an order that would give a negative ε claims nothing.
    return epsilon >= 0.0 ? epsilon : kInfinity;
}

double delta_at_order(double rdp, double alpha, double epsilon, Conversion conversion) {
    if (!std::isfinite(rdp)) return 1.0;
    // Solving the two formulas above for δ:
    //   classic: log δ = (α − 1)(ε(α) − ε);
    //   tight:   log δ = (α − 1)(ε(α) − ε) + (α − 1) log(1 − 1/α) − log α.
    Mpfr a(kBits, alpha), am1(kBits), out(kBits, rdp), t(kBits);
    mpfr_sub_ui(am1, a, 1, MPFR_RNDN);
    mpfr_sub_d(out, out, epsilon, MPFR_RNDN);
    if (conversion == Conversion::Tight) {
        mpfr_div(t, am1, a, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    }
    mpfr_mul(out, out, am1, MPFR_RNDN);
    if (conversion == Conversion::Tight) {
        mpfr_log(t, a, MPFR_RNDN);
        mpfr_sub(out, out, t, MPFR_RNDN);
    }
    if (mpfr_sgn(out.get()) >= 0) return 1.0;
    mpfr_exp(out, out, MPFR_RNDN);
    return std::min(1.0, upward(out));
}

namespace {

std::vector<double> base_grid(bool real_orders) {
    std::vector<double> grid;
    if (real_orders) {
        for (const double d : {1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2}) grid.push_back(1.0 + d);
        for (int k = 1; k <= 9; ++k) grid.push_back(1.0 + 0.1 * k);
    }
    for (int a = 2; a <= 64; ++a) grid.push_back(a);
    for (double a = 64.0; a < 1e4;) {
        a = std::ceil(a * 1.08);
        grid.push_back(a);
    }
    return grid;
}

class Search {
public:
    Search(const std::function<double(double)>& objective) : objective_(objective) {}
    double at(double order) {
        const auto it = cache_.find(order);
        if (it != cache_.end()) return it->second;
        double value = objective_(order);
        if (std::isnan(value)) value = kInfinity;
        cache_.emplace(order, value);
        if (value < best_.value || best_.order == 0.0) best_ = {order, value};
        return value;
    }
    const OrderChoice& best() const { return best_; }

private:
    const std::function<double(double)>& objective_;
    std::map<double, double> cache_;
    OrderChoice best_{0.0, kInfinity};
};

// Ternary search for the smallest objective over grid[lo..hi] (indices), returning the index.
std::size_t search_grid(Search& search, const std::vector<double>& grid, std::size_t lo, std::size_t hi) {
    while (hi - lo > 2) {
        const std::size_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (search.at(grid[m1]) <= search.at(grid[m2]))
            hi = m2;
        else
            lo = m1;
    }
    std::size_t best = lo;
    for (std::size_t i = lo; i <= hi; ++i)
        if (search.at(grid[i]) < search.at(grid[best])) best = i;
    return best;
}

// The same ternary search over the whole numbers lo..hi, without listing them: between neighbours of
// the doubled grid there can be millions (an order of 2^23 and its half), and a list of them cost more
// than the objective's few dozen evaluations.
void search_integers(Search& search, double lo, double hi) {
    while (hi - lo > 2.0) {
        const double m1 = lo + std::floor((hi - lo) / 3.0), m2 = hi - std::floor((hi - lo) / 3.0);
        if (search.at(m1) <= search.at(m2))
            hi = m2;
        else
            lo = m1;
    }
    for (double a = lo; a <= hi; a += 1.0) search.at(a);
}

}  // namespace

OrderChoice minimise_over_orders(const std::function<double(double)>& objective, bool real_orders) {
    Search search(objective);
    std::vector<double> grid = base_grid(real_orders);
    std::size_t best = search_grid(search, grid, 0, grid.size() - 1);
    // Extend past the grid while the largest order is still the best.
    while (best + 1 == grid.size() && grid.back() < 16777216.0) {
        const double next = 2.0 * grid.back();
        grid.push_back(next);
        if (search.at(next) < search.at(grid[best])) best = grid.size() - 1;
    }
    const double left = best > 0 ? grid[best - 1] : grid[best];
    const double right = best + 1 < grid.size() ? grid[best + 1] : grid[best];
    if (real_orders && (grid[best] < 64.0 || grid[best] != std::floor(grid[best]))) {
        // Golden-section search over real α in [left, right] (Kiefer 1953).
        const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
        double a = std::max(left, 1.0 + 1e-6), b = right;
        double c = b - phi * (b - a), d = a + phi * (b - a);
        for (int iteration = 0; iteration < 40 && b - a > 1e-7 * a; ++iteration) {
            if (search.at(c) <= search.at(d)) {
                b = d;
                d = c;
                c = b - phi * (b - a);
            } else {
                a = c;
                c = d;
                d = a + phi * (b - a);
            }
        }
    } else if (right - left > 2.0) {
        // Integer orders only (or large orders): ternary search over the integers between the neighbours.
        search_integers(search, std::ceil(left), std::floor(right));
    }
    return search.best();
}

}  // namespace dpbo::rdp
