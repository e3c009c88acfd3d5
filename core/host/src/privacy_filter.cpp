#include "dpbo/host/privacy_filter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Two units in the last place toward zero: the limits come from log and a division, each within an
// ulp of the exact value, and a limit must never be above the exact one.
double rounded_down(double value) { return std::nextafter(std::nextafter(value, -kInfinity), -kInfinity); }

}  // namespace

std::vector<double> PrivacyFilter::renyi_orders() {
    // Integers where the rdp accountant states its curve (so no order falls between its points),
    // dense where (ε, δ) budgets of everyday sizes find their best order.
    return {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 128, 256};
}

PrivacyFilter PrivacyFilter::for_budget(const PrivacyBudget& budget) {
    PrivacyFilter filter;
    filter.budget_ = budget;
    if (budget.mu) {
        filter.kind_ = Kind::Gdp;
        filter.limits_ = {*budget.mu * *budget.mu};
        return filter;
    }
    if (budget.delta == 0.0) {
        filter.kind_ = Kind::PureBasic;
        filter.limits_ = {*budget.epsilon};
        return filter;
    }
    filter.kind_ = Kind::Renyi;
    const std::vector<double> orders = renyi_orders();
    // The union bound runs over every order of the fixed set, also those dropped below: K is the
    // set's size, which can only make each limit smaller than a bound over the kept orders.
    const double log_k_over_delta = std::log(static_cast<double>(orders.size()) / budget.delta);
    for (const double alpha : orders) {
        const double limit = rounded_down(*budget.epsilon - log_k_over_delta / (alpha - 1.0));
        if (limit > 0.0) {
            filter.orders_.push_back(alpha);
            filter.limits_.push_back(limit);
        }
    }
    if (filter.orders_.empty())
        throw ValidationError(fmt::format(
            "--budget '{}': no Rényi order up to {} leaves room under epsilon = {} at delta = {} (the filter needs "
            "epsilon > log({}/delta)/(order - 1) at some order); state a larger epsilon or delta",
            budget.text(), orders.back(), *budget.epsilon, budget.delta, orders.size()));
    return filter;
}

std::string PrivacyFilter::name() const {
    switch (kind_) {
        case Kind::Gdp:
            return "gdp";
        case Kind::Renyi:
            return "renyi";
        case Kind::PureBasic:
            return "basic";
    }
    return "basic";
}

std::string PrivacyFilter::rule() const {
    switch (kind_) {
        case Kind::Gdp:
            return fmt::format(
                "fully adaptive GDP filter (Smith & Thakurta 2022): a release of mu_i-GDP is admitted while "
                "sum mu_i^2 <= {}^2; the whole is {}-GDP",
                *budget_.mu, *budget_.mu);
        case Kind::Renyi:
            return fmt::format(
                "Rényi filters at {} fixed orders (Feldman & Zrnic 2021) joined by a union bound: a release is "
                "admitted while some order a keeps sum eps_i(a) <= {} - log({}/{})/(a - 1); the whole is ({}, {})-DP",
                renyi_orders().size(), *budget_.epsilon, renyi_orders().size(), budget_.delta, *budget_.epsilon,
                budget_.delta);
        case Kind::PureBasic:
            return fmt::format(
                "basic composition filter (Rogers, Roth, Ullman & Vadhan 2016): a release of eps_i-DP is admitted "
                "while sum eps_i <= {}; the whole is {}-DP",
                *budget_.epsilon, *budget_.epsilon);
    }
    return {};
}

std::vector<double> PrivacyFilter::add(const std::vector<double>& sums, const std::vector<double>& cost) const {
    if (sums.size() != size() || cost.size() != size())
        throw RunError(fmt::format("privacy filter '{}': {} sums and {} costs for {} coordinates", name(), sums.size(),
                                   cost.size(), size()));
    std::vector<double> out(size());
    for (std::size_t i = 0; i < size(); ++i) {
        const double exact_or_below = sums[i] + cost[i];
        // Round to nearest may land below the exact sum; one step up is never below it.
        out[i] = std::isfinite(exact_or_below) ? std::nextafter(exact_or_below, kInfinity) : kInfinity;
    }
    return out;
}

bool PrivacyFilter::admits(const std::vector<double>& sums, std::size_t additions) const {
    if (sums.size() != size()) return false;
    if (kind_ != Kind::Renyi) {
        const double slack = PrivacyBudget::kRelativeTolerance + 4.0 * static_cast<double>(additions) * 0x1.0p-52;
        return sums[0] <= limits_[0] * (1.0 + slack);
    }
    for (std::size_t i = 0; i < size(); ++i)
        if (sums[i] <= limits_[i]) return true;
    return false;
}

double PrivacyFilter::used(const std::vector<double>& sums) const {
    double share = kInfinity;
    for (std::size_t i = 0; i < size() && i < sums.size(); ++i) share = std::min(share, sums[i] / limits_[i]);
    return share;
}

std::string PrivacyFilter::describe_spend(const std::vector<double>& sums) const {
    switch (kind_) {
        case Kind::Gdp:
            return fmt::format("mu = {:.6g} of {} (sum mu_i^2 = {:.6g} of {:.6g})", std::sqrt(sums.at(0)), *budget_.mu,
                               sums.at(0), limits_[0]);
        case Kind::PureBasic:
            return fmt::format("epsilon = {:.6g} of {}", sums.at(0), *budget_.epsilon);
        case Kind::Renyi: {
            std::size_t best = 0;
            for (std::size_t i = 1; i < size(); ++i)
                if (sums.at(i) / limits_[i] < sums.at(best) / limits_[best]) best = i;
            return fmt::format("share {:.4g} of the budget at order {} (sum eps_i({}) = {:.6g} of {:.6g})", used(sums),
                               orders_[best], orders_[best], sums.at(best), limits_[best]);
        }
    }
    return {};
}

std::string PrivacyFilter::describe_cost(const std::vector<double>& cost) const {
    switch (kind_) {
        case Kind::Gdp:
            return fmt::format("mu = {:.6g}", std::sqrt(cost.at(0)));
        case Kind::PureBasic:
            return fmt::format("epsilon = {:.6g}", cost.at(0));
        case Kind::Renyi:
            return fmt::format("eps({}) = {:.6g} .. eps({}) = {:.6g} over {} orders", orders_.front(), cost.at(0),
                               orders_.back(), cost.at(size() - 1), size());
    }
    return {};
}

std::string PrivacyFilter::describe_left(const std::vector<double>& sums) const {
    switch (kind_) {
        case Kind::Gdp:
            return fmt::format("mu = {:.6g}", std::sqrt(std::max(0.0, limits_[0] - sums.at(0))));
        case Kind::PureBasic:
            return fmt::format("epsilon = {:.6g}", std::max(0.0, limits_[0] - sums.at(0)));
        case Kind::Renyi:
            return fmt::format("share {:.4g} of the budget", std::max(0.0, 1.0 - used(sums)));
    }
    return {};
}

}  // namespace dpbo
