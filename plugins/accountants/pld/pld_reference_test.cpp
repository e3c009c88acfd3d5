// The pld accountant against Google's dp_accounting on the reference set committed in
// tests/reference/dp_accounting_pld.txt (with the script that computed it): subsampled Gaussians
// (Poisson and without replacement), Gaussian and Laplace compositions, ε at δ = 1e-5 and 1e-6 and δ
// at a few ε. The upper bound is never looser than dp_accounting's pessimistic figure by more than
// 1e-3 relative and never below its optimistic one; the lower bound never above the upper.
// Without replacement dp_accounting has no event: its column there composes the two directions of
// the same pair apart, which understates the hull dpbo composes (mechanism_plds.hpp), so dpbo's upper
// bound lies at or above that column and at or below the rdp accountant's (an independent valid bound).
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dpbo/accountant.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/two_sided_accountant.hpp"
#include "test_support.hpp"

namespace {

struct ReferenceRow {
    std::string name, events, query;
    double upper = 0.0, lower = 0.0;
};

std::vector<ReferenceRow> reference_rows() {
    std::vector<ReferenceRow> rows;
    for (const auto& f :
         dpbo::test::reference_table(std::string(DPBO_SOURCE_DIR) + "/tests/reference/dp_accounting_pld.txt", 5)) {
        rows.push_back({f[0], f[1], f[2], std::stod(f[3]), std::stod(f[4])});
    }
    return rows;
}

struct Bounds {
    double upper, lower;
};

Bounds dpbo_bounds(const ReferenceRow& row) {
    auto accountant = dpbo::test::make<dpbo::Accountant>("pld");
    std::istringstream texts(row.events);
    std::string text;
    while (std::getline(texts, text, ';')) accountant->compose(dpbo::parse_builtin_event(text));
    const auto& two_sided = dpbo::require<dpbo::TwoSidedAccountant>(*accountant, "the reference test");
    const double value = std::stod(row.query.substr(row.query.find('=') + 1));
    if (row.query.rfind("delta=", 0) == 0)
        return {accountant->epsilon_for_delta(value), two_sided.epsilon_lower_for_delta(value)};
    return {accountant->delta_for_epsilon(value), two_sided.delta_lower_for_epsilon(value)};
}

// The rdp accountant's answer to the same question.
double rdp_value(const ReferenceRow& row) {
    const double value = std::stod(row.query.substr(row.query.find('=') + 1));
    const bool epsilon_asked = row.query.rfind("delta=", 0) == 0;
    auto accountant = dpbo::test::make<dpbo::Accountant>(
        "rdp", epsilon_asked ? std::map<std::string, std::string>{{"delta", row.query.substr(6)}}
                             : std::map<std::string, std::string>{});
    std::istringstream texts(row.events);
    std::string text;
    while (std::getline(texts, text, ';')) accountant->compose(dpbo::parse_builtin_event(text));
    return epsilon_asked ? accountant->epsilon_for_delta(value) : accountant->delta_for_epsilon(value);
}

}  // namespace

TEST_CASE("pld: bounds against dp_accounting's PLD on the committed reference set") {
    const std::vector<ReferenceRow> rows = reference_rows();
    REQUIRE(rows.size() >= 20);
    for (const ReferenceRow& row : rows) {
        CAPTURE(row.name);
        const Bounds ours = dpbo_bounds(row);
        CAPTURE(ours.upper);
        CAPTURE(ours.lower);
        CHECK(ours.lower <= ours.upper);
        if (row.events.find("without-replacement") != std::string::npos) {
            CHECK(ours.upper >= row.upper * (1 - 1e-9));
            CHECK(ours.lower <= row.upper);
            CHECK(ours.upper <= rdp_value(row));
            continue;
        }
        CHECK(ours.upper <= row.upper * (1 + 1e-3));
        CHECK(ours.upper >= row.lower);
    }
}

TEST_CASE("pld: the issue's headline figures (δ = 1e-5, Poisson, add/remove)") {
    const auto epsilon = [](const char* event) {
        auto accountant = dpbo::test::make<dpbo::Accountant>("pld");
        accountant->compose(dpbo::parse_builtin_event(event));
        return accountant->epsilon_for_delta(1e-5);
    };
    CHECK(epsilon("subsampled-gaussian:q=0.01,sigma=4,steps=10000,sampling=poisson") ==
          doctest::Approx(0.947).epsilon(1e-3));
    CHECK(epsilon("subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson") ==
          doctest::Approx(5.193).epsilon(1e-3));
    CHECK(epsilon("subsampled-gaussian:q=0.001,sigma=1,steps=1000,sampling=poisson") ==
          doctest::Approx(0.149).epsilon(1e-2));
}
