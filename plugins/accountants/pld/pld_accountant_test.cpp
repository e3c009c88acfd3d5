// The pld accountant as a module: its two bounds through dpbo::TwoSidedAccountant, a finer grid
// never looser, composition monotone, clones independent, refusals and bad parameters named, and the
// total() statement carrying both bounds.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/two_sided_accountant.hpp"
#include "test_support.hpp"

namespace {

using dpbo::PrivacyEvent;

std::shared_ptr<dpbo::Accountant> pld(const std::map<std::string, std::string>& parameters = {}) {
    return dpbo::test::make<dpbo::Accountant>("pld", parameters);
}

}  // namespace

TEST_CASE("pld: two-sided, lower never above upper, for every kind it takes") {
    for (const char* text :
         {"gaussian:sigma=2,sensitivity=1x3", "gdp:mu=0.5", "laplace:scale=2,sensitivity=1x4",
          "exponential:epsilon=0.5,quality_sensitivity=1", "pure:epsilon=0.3x5", "approx:epsilon=0.2,delta=1e-7x3",
          "subsampled-gaussian:q=0.02,sigma=1.5,steps=200,sampling=poisson",
          "subsampled-gaussian:q=0.02,sigma=1.5,steps=200,sampling=without-replacement"}) {
        CAPTURE(text);
        auto accountant = pld();
        accountant->compose(dpbo::parse_builtin_event(text));
        const auto* two_sided = dpbo::capability<dpbo::TwoSidedAccountant>(*accountant);
        REQUIRE(two_sided != nullptr);
        for (const double delta : {1e-5, 1e-6}) {
            CHECK(two_sided->epsilon_lower_for_delta(delta) <= accountant->epsilon_for_delta(delta));
            CHECK(accountant->delta_for_epsilon(accountant->epsilon_for_delta(delta)) <= delta * (1 + 1e-9));
        }
        for (const double epsilon : {0.1, 1.0, 3.0})
            CHECK(two_sided->delta_lower_for_epsilon(epsilon) <= accountant->delta_for_epsilon(epsilon));
    }
    CHECK(dpbo::capability<dpbo::TwoSidedAccountant>(*dpbo::test::make<dpbo::Accountant>("rdp")) == nullptr);
}

TEST_CASE("pld: pure and approximate DP by randomized response's distribution") {
    auto pure = pld();
    pure->compose(PrivacyEvent{dpbo::PureDpEvent{1.0}});
    // One ε-DP release needs no δ at ε (rounded up to the grid), and some below it.
    CHECK(pure->delta_for_epsilon(1.0 + 1e-4) == 0.0);
    CHECK(pure->delta_for_epsilon(0.9) > 0.0);
    CHECK(pure->epsilon_for_delta(1e-6) <= 1.0 + 1e-4);
    auto approx = pld();
    approx->compose(PrivacyEvent{dpbo::ApproxDpEvent{0.5, 1e-4}});
    // δ at +∞ is charged whatever ε: no finite ε below it.
    CHECK(std::isinf(approx->epsilon_for_delta(1e-5)));
    CHECK(approx->delta_for_epsilon(10.0) >= 1e-4);
}

TEST_CASE("pld: a finer grid is never looser, composition never lowers the cost") {
    const PrivacyEvent event =
        dpbo::parse_builtin_event("subsampled-gaussian:q=0.05,sigma=1.2,steps=300,sampling=poisson");
    auto fine = pld();
    auto coarse = pld({{"value_discretization_interval", "1e-3"}});
    fine->compose(event);
    coarse->compose(event);
    // The coarse grid's dots are a subset of the fine grid's: its chords lie above.
    CHECK(fine->epsilon_for_delta(1e-5) <= coarse->epsilon_for_delta(1e-5));
    double previous = fine->epsilon_for_delta(1e-5);
    auto copy = fine->clone();
    for (int k = 0; k < 3; ++k) {
        copy->compose(dpbo::parse_builtin_event("laplace:scale=4,sensitivity=1"));
        const double now = copy->epsilon_for_delta(1e-5);
        CHECK(now > previous);
        previous = now;
    }
    // The clone moved, the original did not.
    CHECK(fine->epsilon_for_delta(1e-5) < copy->epsilon_for_delta(1e-5));
}

TEST_CASE("pld: equal releases charged one by one cost what they cost composed at once") {
    auto one_by_one = pld();
    for (int step = 0; step < 50; ++step)
        one_by_one->compose(dpbo::parse_builtin_event("subsampled-gaussian:q=0.01,sigma=1,steps=1,sampling=poisson"));
    auto at_once = pld();
    at_once->compose(dpbo::parse_builtin_event("subsampled-gaussian:q=0.01,sigma=1,steps=50,sampling=poisson"));
    CHECK(one_by_one->epsilon_for_delta(1e-5) == at_once->epsilon_for_delta(1e-5));
}

TEST_CASE("pld: refusals and bad parameters are named") {
    auto accountant = pld();
    accountant->compose(dpbo::parse_builtin_event("subsampled-gaussian:q=0.01,sigma=1,steps=10,sampling=poisson"));
    const double before = accountant->epsilon_for_delta(1e-5);
    CHECK_THROWS_WITH_AS(accountant->compose(dpbo::parse_builtin_event(
                             "subsampled-gaussian:q=0.01,sigma=1,steps=10,sampling=without-replacement")),
                         doctest::Contains("the other neighbouring relation"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(accountant->compose(dpbo::parse_builtin_event(
                             "subsampled-gaussian:q=0.01,sigma=1,steps=10,sampling=poisson,neighbouring=replace-one")),
                         doctest::Contains("neighbouring = add-remove-one only"), dpbo::ValidationError);
    CHECK(accountant->epsilon_for_delta(1e-5) == before);
    CHECK_THROWS_WITH_AS(pld({{"value_discretization_interval", "0"}}),
                         doctest::Contains("value_discretization_interval"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(pld({{"tail_mass_truncation", "0.5"}}), doctest::Contains("tail_mass_truncation"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(pld()->epsilon_for_delta(1e-5), doctest::Contains("no events composed"), dpbo::RunError);
}

TEST_CASE("pld: total() states (ε, δ)-DP from the upper bound and names the lower one") {
    auto accountant = pld({{"delta", "1e-6"}});
    accountant->compose(dpbo::parse_builtin_event("subsampled-gaussian:q=0.01,sigma=1.1,steps=1000,sampling=poisson"));
    const dpbo::PrivacyStatement statement = accountant->total();
    statement.validate();
    CHECK(statement.notion == dpbo::PrivacyNotion::ApproxDP);
    CHECK(statement.delta == 1e-6);
    CHECK(statement.epsilon == accountant->epsilon_for_delta(1e-6));
    CHECK(statement.neighbouring == "add or remove one record");
    CHECK(statement.mechanism.find("pessimistic discretisation (upper bound)") != std::string::npos);
    const double lower = dpbo::require<dpbo::TwoSidedAccountant>(*accountant, "test").epsilon_lower_for_delta(1e-6);
    CHECK(statement.mechanism.find(fmt::format("ε ≥ {}", lower)) != std::string::npos);
}

TEST_CASE("pld: composed Gaussian releases' exact δ(ε) (Balle & Wang 2018) lies between the bounds") {
    auto accountant = pld();
    accountant->compose(dpbo::parse_builtin_event("gaussian:sigma=2,sensitivity=1x10"));
    accountant->compose(dpbo::parse_builtin_event("gdp:mu=0.5x4"));
    const double mu = std::sqrt(10.0 / 4.0 + 4.0 * 0.25);
    const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    const auto& two_sided = dpbo::require<dpbo::TwoSidedAccountant>(*accountant, "test");
    for (const double epsilon : {0.5, 1.0, 2.0, 4.0, 6.0}) {
        CAPTURE(epsilon);
        const double exact = phi(-epsilon / mu + mu / 2) - std::exp(epsilon) * phi(-epsilon / mu - mu / 2);
        CHECK(two_sided.delta_lower_for_epsilon(epsilon) <= exact);
        CHECK(accountant->delta_for_epsilon(epsilon) >= exact);
    }
}

TEST_CASE("pld: extreme inputs answer with valid, finite-memory bounds, never a crash") {
    // σ so small its loss scale leaves double range: (0, q)-DP, δ = q at every ε.
    auto tiny = pld();
    tiny->compose(dpbo::parse_builtin_event("subsampled-gaussian:q=0.01,sigma=1e-200,steps=1,sampling=poisson"));
    CHECK(tiny->delta_for_epsilon(5.0) == doctest::Approx(0.01));
    CHECK(std::isinf(tiny->epsilon_for_delta(1e-5)));
    // A stated ε far beyond the grid's reach, and a Laplace scale near zero: the grid is capped.
    auto huge = pld();
    huge->compose(PrivacyEvent{dpbo::PureDpEvent{1e6}});
    huge->compose(dpbo::parse_builtin_event("laplace:scale=1e-300,sensitivity=1"));
    CHECK(huge->epsilon_for_delta(1e-5) > 100.0);
    const auto& two_sided = dpbo::require<dpbo::TwoSidedAccountant>(*huge, "test");
    CHECK(two_sided.epsilon_lower_for_delta(1e-5) <= huge->epsilon_for_delta(1e-5));
}
