#pragma once
// The privacy filter of a dataset's lifetime ledger: the rule that decides, before each release of
// any run or study on the dataset, whether the release may still be made. The runs are chosen
// adaptively (a user looks at one result before starting the next, with other settings), so the
// ledger cannot compose them as one fixed sequence; a filter is a stopping rule whose guarantee
// holds whatever the analyst chooses, as long as each release's cost is fixed before it is made
// (Rogers, Roth, Ullman & Vadhan 2016). The filter is fixed by the budget when the ledger is
// created and never changes (docs/lifetime-ledger.md states each theorem):
//
// - mu=M: the fully adaptive GDP filter (Smith & Thakurta 2022): a release of μᵢ-GDP is admitted
//   while Σ μᵢ² ≤ M²; the whole is M-GDP.
// - epsilon=E,delta=D: Rényi filters (Feldman & Zrnic 2021) at a fixed set of K orders, joined by a
//   union bound: a release is admitted while some order α keeps Σ εᵢ(α) ≤ E − log(K/D)/(α − 1);
//   the whole is (E, D)-DP.
// - epsilon=E (pure): basic composition, a valid filter (Rogers et al. 2016): Σ εᵢ ≤ E.
//
// The running sums are one number per coordinate (one for GDP and pure, one per order for Rényi),
// each addition rounded up, so the check is constant time per release and the sums never
// under-report.
#include <string>
#include <vector>

#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

class PrivacyFilter {
public:
    enum class Kind { Gdp, Renyi, PureBasic };

    // The filter a ledger with `budget` uses; ValidationError naming the budget when no filter can
    // admit anything under it (an (ε, δ) budget too small for any Rényi order).
    static PrivacyFilter for_budget(const PrivacyBudget& budget);
    // The orders of the Rényi filter: a fixed set, so that the union bound over them is fixed
    // before the first release.
    static std::vector<double> renyi_orders();

    Kind kind() const { return kind_; }
    const PrivacyBudget& budget() const { return budget_; }
    // "gdp", "renyi", "basic".
    std::string name() const;
    // One line: what is summed and against what, with the theorem.
    std::string rule() const;
    // Coordinates of a cost: 1, or the number of orders kept.
    std::size_t size() const { return limits_.size(); }
    const std::vector<double>& orders() const { return orders_; }
    const std::vector<double>& limits() const { return limits_; }

    // `sums` + `cost`, each coordinate rounded up (never below the exact sum).
    std::vector<double> add(const std::vector<double>& sums, const std::vector<double>& cost) const;
    // True when sums of `additions` costs (the release's included) may stand: Rényi, some order
    // within its limit, exactly; GDP and pure, the one sum within its limit up to (4 + 4·additions)
    // units in the last place — the run budget's tolerance (PrivacyBudget::kRelativeTolerance) plus
    // what pricing and adding each cost rounded up can add (under 4 ulps each) — so that T releases calibrated to spend exactly the
    // budget together are admitted.
    bool admits(const std::vector<double>& sums, std::size_t additions) const;
    // The share of the budget spent, in [0, 1] when admitted: GDP Σμ²/M², pure Σε/E, Rényi the
    // smallest share over the orders (the order with most room left).
    double used(const std::vector<double>& sums) const;
    // "mu = 0.7 of 1 (Σμ² = 0.49)", "share 0.42 at order 8 (Σε(8) = 0.5 of 1.19)", "epsilon = 0.3 of 1".
    std::string describe_spend(const std::vector<double>& sums) const;

    // One release's cost: "mu = 0.3", "epsilon = 0.1", "eps(8) = 0.02 .. eps(256) = 0.6 over 15 orders".
    std::string describe_cost(const std::vector<double>& cost) const;
    // What is left: "mu = 0.71" (sqrt(M² − Σμ²)), "epsilon = 0.7", "share 0.58 (at order 8)".
    std::string describe_left(const std::vector<double>& sums) const;

private:
    Kind kind_ = Kind::Gdp;
    PrivacyBudget budget_;
    std::vector<double> orders_;  // Rényi
    std::vector<double> limits_;
};

}  // namespace dpbo
