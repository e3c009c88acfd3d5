// The lifetime ledger's filters (privacy_filter.hpp), its pricing of a release (ledger_gate.hpp) and
// its file (lifetime_ledger.hpp): limits from the theorems, sums that never under-report, a charge
// counted once under its (run, number), refusals before anything is written, and a chain that names
// the entry changed.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "dpbo/errors.hpp"
#include "dpbo/host/ledger_gate.hpp"
#include "dpbo/host/lifetime_ledger.hpp"
#include "dpbo/host/privacy_filter.hpp"
#include "test_support.hpp"

using dpbo::LifetimeLedger;
using dpbo::PrivacyBudget;
using dpbo::PrivacyFilter;
using dpbo::PrivacyStatement;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("lifetime ledger: the GDP filter admits while the sum of squares stays within mu^2") {
    const PrivacyFilter filter = PrivacyFilter::for_budget(PrivacyBudget::parse("mu=1"));
    CHECK(filter.kind() == PrivacyFilter::Kind::Gdp);
    REQUIRE(filter.size() == 1);
    // 25 releases of 0.2-GDP compose to exactly 1-GDP: the last one is admitted although each
    // addition was rounded up, a 26th is not.
    std::vector<double> sums{0.0};
    for (std::size_t i = 1; i <= 25; ++i) {
        sums = filter.add(sums, {0.2 * 0.2});
        CHECK(sums[0] > 0.04 * static_cast<double>(i) * (1 - 1e-15));
        CHECK(filter.admits(sums, i));
    }
    CHECK_FALSE(filter.admits(filter.add(sums, {0.2 * 0.2}), 26));
    // 150 releases of 2/√150 (the default job's) fill mu=2 and are admitted.
    const PrivacyFilter two = PrivacyFilter::for_budget(PrivacyBudget::parse("mu=2"));
    std::vector<double> path{0.0};
    const double step = 2.0 / std::sqrt(150.0);
    for (std::size_t i = 1; i <= 150; ++i) path = two.add(path, {step * step});
    CHECK(two.admits(path, 150));
    CHECK_FALSE(two.admits(two.add(path, {1e-6}), 151));
    CHECK(filter.used(sums) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("lifetime ledger: sums are rounded up, never below the exact sum") {
    const PrivacyFilter filter = PrivacyFilter::for_budget(PrivacyBudget::parse("epsilon=100"));
    std::vector<double> sums{0.0};
    long double exact = 0.0L;
    for (int i = 1; i <= 1000; ++i) {
        const double cost = 1.0 / (3.0 * i);
        sums = filter.add(sums, {cost});
        exact += static_cast<long double>(cost);
        REQUIRE(static_cast<long double>(sums[0]) >= exact);
    }
}

TEST_CASE("lifetime ledger: the Rényi filter's limits are E - log(K/D)/(a - 1) over the orders that keep room") {
    const PrivacyFilter filter = PrivacyFilter::for_budget(PrivacyBudget::parse("epsilon=1,delta=1e-5"));
    CHECK(filter.kind() == PrivacyFilter::Kind::Renyi);
    const std::vector<double> all = PrivacyFilter::renyi_orders();
    const double log_term = std::log(static_cast<double>(all.size()) / 1e-5);
    REQUIRE(filter.orders().size() == filter.limits().size());
    REQUIRE_FALSE(filter.orders().empty());
    std::size_t kept = 0;
    for (const double alpha : all) {
        const double exact = 1.0 - log_term / (alpha - 1.0);
        if (exact <= 0.0) continue;
        REQUIRE(kept < filter.orders().size());
        CHECK(filter.orders()[kept] == alpha);
        // At most a few ulps below, never above.
        CHECK(filter.limits()[kept] <= exact);
        CHECK(filter.limits()[kept] >= exact * (1 - 1e-14));
        ++kept;
    }
    CHECK(kept == filter.orders().size());
    // Admitted while any order has room: a cost of half the largest order's limit, beyond every
    // other order's, is admitted; twice it (rounded up past the limit) is not.
    std::vector<double> cost(filter.size(), 1e9);
    cost.back() = filter.limits().back() / 2;
    std::vector<double> sums(filter.size(), 0.0);
    sums = filter.add(sums, cost);
    CHECK(filter.admits(sums, 1));
    CHECK_FALSE(filter.admits(filter.add(sums, cost), 2));
}

TEST_CASE("lifetime ledger: a release is priced in the filter's coordinates from its statement alone") {
    const PrivacyFilter gdp = PrivacyFilter::for_budget(PrivacyBudget::parse("mu=2"));
    const PrivacyFilter renyi = PrivacyFilter::for_budget(PrivacyBudget::parse("epsilon=4,delta=1e-6"));
    const PrivacyFilter pure = PrivacyFilter::for_budget(PrivacyBudget::parse("epsilon=4"));
    const PrivacyStatement half = PrivacyStatement::gaussian_dp(0.5);
    const auto g = dpbo::lifetime_cost(gdp, half, "f", "accountant 'gdp'");
    REQUIRE(g.size() == 1);
    CHECK(g[0] >= 0.25);
    CHECK(g[0] <= 0.25 * (1 + 1e-15));
    // μ-GDP under the Rényi filter: αμ²/2 at each order.
    const auto r = dpbo::lifetime_cost(renyi, half, "f", "accountant 'gdp'");
    REQUIRE(r.size() == renyi.size());
    for (std::size_t k = 0; k < r.size(); ++k) {
        CHECK(r[k] >= renyi.orders()[k] * 0.125);
        CHECK(r[k] <= renyi.orders()[k] * 0.125 * (1 + 1e-15));
    }
    // An RDP curve, read at each order or at the next one it states (never a smaller value).
    PrivacyStatement curve;
    curve.notion = dpbo::PrivacyNotion::Renyi;
    curve.rdp_curve = {{2, 0.1}, {5, 0.3}, {64, 2.0}};
    const auto c = dpbo::lifetime_cost(renyi, curve, "f", "accountant 'rdp'");
    for (std::size_t k = 0; k < c.size(); ++k) {
        const double alpha = renyi.orders()[k];
        CAPTURE(alpha);
        CHECK(c[k] == (alpha <= 2    ? 0.1
                       : alpha <= 5  ? 0.3
                       : alpha <= 64 ? 2.0
                                     : std::numeric_limits<double>::infinity()));
    }
    // Pure ε-DP: min(ε, αε²/2) (Bun & Steinke 2016).
    const PrivacyStatement one = PrivacyStatement::pure_dp(0.1);
    const auto p = dpbo::lifetime_cost(renyi, one, "f", "accountant 'basic'");
    for (std::size_t k = 0; k < p.size(); ++k)
        CHECK(p[k] == doctest::Approx(std::min(0.1, renyi.orders()[k] * 0.01 / 2)).epsilon(1e-14));
    CHECK(dpbo::lifetime_cost(pure, one, "f", "accountant 'basic'") == std::vector<double>{0.1});
    // Another notion than the filter's: refused naming the ledger, its budget and the accountant.
    const std::string refused = error_of([&] { dpbo::lifetime_cost(gdp, curve, "data.ledger", "accountant 'rdp'"); });
    CHECK(contains(refused, "data.ledger"));
    CHECK(contains(refused, "mu=2"));
    CHECK(contains(refused, "accountant 'rdp'"));
    CHECK(contains(error_of([&] { dpbo::lifetime_cost(pure, half, "f", "a"); }), "pure epsilon-DP"));
    CHECK(contains(error_of([&] { dpbo::lifetime_cost(renyi, PrivacyStatement::approx_dp(1, 1e-6), "f", "a"); }),
                   "RDP curve"));
}

TEST_CASE("lifetime ledger: a charge is counted once under its run and number, and refused beyond the budget") {
    TemporaryDirectory dir;
    const std::filesystem::path file = std::filesystem::path(dir.path()) / "data.ledger";
    LifetimeLedger::create(file, PrivacyBudget::parse("mu=1"));
    auto ledger = LifetimeLedger::open(file);
    const auto first = ledger->charge("run-a", "run a", 0, "gdp (mu = 0.6)", "release 1", "gdp", {0.36});
    CHECK_FALSE(first.counted_before);
    CHECK(first.entries == 1);
    // The resumed run asks again: recognised, nothing added.
    const auto again = ledger->charge("run-a", "run a", 0, "gdp (mu = 0.6)", "release 1", "gdp", {0.36});
    CHECK(again.counted_before);
    CHECK(again.entries == 1);
    // The same number with another event is not that run.
    CHECK(contains(error_of([&] { ledger->charge("run-a", "run a", 0, "gdp (mu = 0.1)", "r", "gdp", {0.01}); }),
                   "charge 1 of run run-a"));
    // A gap in the numbers is refused.
    CHECK(contains(error_of([&] { ledger->charge("run-a", "run a", 5, "gdp (mu = 0.1)", "r", "gdp", {0.01}); }),
                   "after 1 recorded"));
    ledger->charge("run-b", "run b", 0, "gdp (mu = 0.6)", "release 1", "gdp", {0.36});
    // 0.72 spent; 0.36 more would be 1.08.
    bool exceeded = false;
    try {
        ledger->charge("run-b", "run b", 1, "gdp (mu = 0.6)", "'release 2'", "gdp", {0.36});
    } catch (const dpbo::BudgetExceeded& e) {
        exceeded = true;
        CHECK(contains(e.what(), file.string()));
        CHECK(contains(e.what(), "mu=1"));
        CHECK(contains(e.what(), "'release 2'"));
    }
    CHECK(exceeded);
    const dpbo::LedgerContents contents = ledger->verify();
    CHECK(contents.charges.size() == 2);
    CHECK(ledger->charged("run-b") == std::vector<std::string>{"gdp (mu = 0.6)"});
    CHECK(contents.sums[0] >= 0.72);
}
