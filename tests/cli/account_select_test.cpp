// `dpbo account --select` (one trial's events, the best of K trials released) and `dpbo plan`
// (the trial's free parameter meeting a target), each checked through the built executable.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A number written so that it reads back exactly (as plan prints its answer).
std::string exact(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

double epsilon_at_delta(const nlohmann::json& out) {
    for (const auto& pair : out["epsilon_delta"])
        if (pair["given"] == "delta") return pair["epsilon"].get<double>();
    FAIL("no epsilon at a given delta");
    return 0.0;
}

// ε of the best of K Laplace-scored trials (scale b), K from `select`, by `dpbo account`.
double selection_epsilon(const std::string& trial, const std::string& select) {
    const auto r = run_dpbo({"account", "--event", trial, "--select", select, "--delta", "1e-5", "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return epsilon_at_delta(nlohmann::json::parse(r.out));
}

}  // namespace

TEST_CASE("account --select: the selection's epsilon beside one trial's and the composition's") {
    const auto r = run_dpbo({"account", "--event", "gaussian:sigma=4,sensitivity=1x4", "--select", "geometric:mean=10",
                             "--delta", "1e-5", "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["accountant"] == "rdp");
    CHECK(out["events"][0]["kind"] == "repeat-and-select");
    const double selection = epsilon_at_delta(out);
    const auto& row = out["selection"]["compared"][0];
    CHECK(row["selection_epsilon"].get<double>() == selection);
    CHECK(out["selection"]["composed_trials"] == 10);
    CHECK(out["selection"]["count"] == "geometric:mean=10");
    // One trial < the selection < ten trials composed: random stopping costs more than one trial, and
    // much less than paying for every trial.
    CHECK(row["one_trial_epsilon"].get<double>() < selection);
    CHECK(selection < row["composition_epsilon"].get<double>());
    CHECK(contains(out["mechanism"].get<std::string>(), "Papernot & Steinke 2022, Thm. 2"));

    // A fixed k is exactly the composition of k trials.
    const auto fixed = run_dpbo({"account", "--event", "gaussian:sigma=4,sensitivity=1x4", "--select", "fixed:k=10",
                                 "--delta", "1e-5", "--json"});
    REQUIRE(fixed.exit_code == 0);
    const auto fixed_out = nlohmann::json::parse(fixed.out);
    CHECK(epsilon_at_delta(fixed_out) ==
          doctest::Approx(fixed_out["selection"]["compared"][0]["composition_epsilon"].get<double>()).epsilon(1e-9));

    const auto text = run_dpbo(
        {"account", "--event", "laplace:scale=2,sensitivity=1", "--select", "poisson:mean=20", "--delta", "1e-6"});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(contains(text.out, "K ~ Poisson with mean 20"));
    CHECK(contains(text.out, "composition of 20 trials"));
}

TEST_CASE(
    "account --select: more trials on average cost more; logarithmic K costs less than geometric, which costs "
    "less than Poisson (Papernot & Steinke 2022, Table 1 ordering)") {
    // A closed-form trial (4 Gaussian releases, μ = 0.5) keeps this fast; the DP-SGD table is in the docs.
    const std::string trial = "gaussian:sigma=4,sensitivity=1x4";
    const double logarithmic = selection_epsilon(trial, "logarithmic:mean=10");
    const double geometric = selection_epsilon(trial, "geometric:mean=10");
    const double poisson = selection_epsilon(trial, "poisson:mean=10");
    CHECK(logarithmic < geometric);
    CHECK(geometric < poisson);
    CHECK(geometric < selection_epsilon(trial, "geometric:mean=100"));
}

TEST_CASE("account --select: bad distributions and unsupported combinations exit 2 naming what is wrong") {
    const auto family = run_dpbo({"account", "--event", "gaussian:sigma=1,sensitivity=1", "--select", "geo:mean=10"});
    CHECK(family.exit_code == 2);
    CHECK(contains(family.err, "--select: trial count 'geo:mean=10': unknown distribution 'geo'"));
    CHECK(contains(family.err, "geometric:mean=M"));
    const auto mean = run_dpbo({"account", "--event", "gaussian:sigma=1,sensitivity=1", "--select", "poisson:mean=0"});
    CHECK(mean.exit_code == 2);
    CHECK(contains(mean.err, "'mean' = 0; allowed: a finite number >= 1"));
    const auto key = run_dpbo({"account", "--event", "gaussian:sigma=1,sensitivity=1", "--select", "fixed:mean=3"});
    CHECK(key.exit_code == 2);
    CHECK(contains(key.err, "distribution 'fixed' has no key 'mean'; its keys: k"));
    const auto gdp = run_dpbo({"account", "--accountant", "gdp", "--event", "gaussian:sigma=1,sensitivity=1",
                               "--select", "geometric:mean=10"});
    CHECK(gdp.exit_code == 2);
    CHECK(contains(gdp.err, "'repeat-and-select'"));
    const auto calibrate =
        run_dpbo({"account", "--event", "subsampled-gaussian:q=0.01,steps=100,sampling=poisson", "--calibrate-sigma",
                  "--epsilon", "1", "--delta", "1e-5", "--select", "geometric:mean=10"});
    CHECK(calibrate.exit_code == 2);
    CHECK(contains(calibrate.err, "dpbo plan"));
    // The rdp accountant cannot take a pure trial under a random K (no RDP curve); basic can (3ε).
    const auto pure_rdp =
        run_dpbo({"account", "--accountant", "rdp", "--event", "pure:epsilon=0.5", "--select", "geometric:mean=10"});
    CHECK(pure_rdp.exit_code == 2);
    CHECK(contains(pure_rdp.err, "'pure'"));
    const auto pure_basic = run_dpbo(
        {"account", "--accountant", "basic", "--event", "pure:epsilon=0.5", "--select", "geometric:mean=10", "--json"});
    CAPTURE(pure_basic.err);
    REQUIRE(pure_basic.exit_code == 0);
    CHECK(nlohmann::json::parse(pure_basic.out)["epsilon"].get<double>() == doctest::Approx(1.5));
    // The selection kind is also an --event of its own.
    const auto event = run_dpbo({"account", "--event",
                                 "repeat-and-select:trial=(gaussian:sigma=4,sensitivity=1x4),count=geometric:mean=10",
                                 "--delta", "1e-5", "--json"});
    CAPTURE(event.err);
    REQUIRE(event.exit_code == 0);
    CHECK(epsilon_at_delta(nlohmann::json::parse(event.out)) ==
          doctest::Approx(selection_epsilon("gaussian:sigma=4,sensitivity=1x4", "geometric:mean=10")).epsilon(1e-12));
}

TEST_CASE("plan: the sigma it prints meets the target by dpbo account, and a slightly smaller sigma misses it") {
    const std::string select = "geometric:mean=10";
    const auto r = run_dpbo({"plan", "--target", "epsilon=2,delta=1e-5", "--event", "gaussian:sigma=?,sensitivity=1x4",
                             "--select", select, "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    const double sigma = out["value"].get<double>();
    CHECK(out["free"] == "sigma");
    CHECK(out["epsilon"].get<double>() <= 2.0);
    CHECK(out["p99_trials"] == 44);  // ⌈log 0.01 / log 0.9⌉
    CHECK(out["expected_trials"].get<double>() == 10.0);
    const auto at = [&](double s) {
        return selection_epsilon("gaussian:sigma=" + exact(s) + ",sensitivity=1x4", select);
    };
    CHECK(at(sigma) <= 2.0);
    CHECK(at(sigma * (1 - 1e-5)) > 2.0);
    // The trade-off: every distribution at mean 5, 10 and 20; at one mean, the logarithmic K needs the
    // least noise, the composition of E[K] trials the most.
    // The text form prints the same table, the solved value under the free key's name.
    const auto text = run_dpbo({"plan", "--target", "epsilon=2,delta=1e-5", "--event",
                                "gaussian:sigma=?,sensitivity=1x4", "--select", select});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(contains(text.out, "| distribution | E[K] | 99th pct K | sigma | epsilon reached |"));
    CHECK(contains(text.out, "| logarithmic | 10 | 81 | "));
    const auto& table = out["trade_off"];
    REQUIRE(table.size() == 12);
    CHECK(table[4]["distribution"] == "logarithmic");
    CHECK(table[4]["value"].get<double>() < table[5]["value"].get<double>());
    CHECK(table[5]["value"].get<double>() == doctest::Approx(sigma).epsilon(1e-3));
    CHECK(table[5]["value"].get<double>() < table[7]["value"].get<double>());
}

TEST_CASE("plan: a parameter that costs more when larger (mu), and the errors") {
    const auto mu = run_dpbo({"plan", "--target", "epsilon=3,delta=1e-5", "--event", "gdp:mu=?", "--select",
                              "logarithmic:mean=10", "--json"});
    CAPTURE(mu.err);
    REQUIRE(mu.exit_code == 0);
    const auto out = nlohmann::json::parse(mu.out);
    const double value = out["value"].get<double>();
    const auto at = [](double m) { return selection_epsilon("gdp:mu=" + exact(m), "logarithmic:mean=10"); };
    CHECK(at(value) <= 3.0);
    CHECK(at(value * (1 + 1e-5)) > 3.0);

    const auto none = run_dpbo({"plan", "--target", "epsilon=1,delta=1e-5", "--event", "gaussian:sigma=1,sensitivity=1",
                                "--select", "geometric:mean=10"});
    CHECK(none.exit_code == 2);
    CHECK(contains(none.err, "exactly one free parameter"));
    const auto two = run_dpbo({"plan", "--target", "epsilon=1,delta=1e-5", "--event", "gaussian:sigma=?,sensitivity=?",
                               "--select", "geometric:mean=10"});
    CHECK(two.exit_code == 2);
    CHECK(contains(two.err, "second one"));
    // At δ = 1e-300 even the smallest μ of the bracket costs more than ε = 1e-12.
    const auto unreachable =
        run_dpbo({"plan", "--target", "epsilon=1e-12,delta=1e-300", "--event", "gdp:mu=?", "--select", "fixed:k=10"});
    CHECK(unreachable.exit_code == 2);
    CHECK(contains(unreachable.err, "unreachable: even mu = 1e-09 (the bracket's lower end)"));
    const auto target = run_dpbo({"plan", "--target", "epsilon=1", "--event", "gaussian:sigma=?,sensitivity=1",
                                  "--select", "geometric:mean=10"});
    CHECK(target.exit_code == 2);
    CHECK(contains(target.err, "needs both epsilon=E and delta=D"));
    const auto key =
        run_dpbo({"plan", "--target", "epsilon=1,delta=1e-5", "--event",
                  "subsampled-gaussian:q=0.01,sigma=1,steps=10,sampling=?", "--select", "geometric:mean=10"});
    CHECK(key.exit_code == 2);
    CHECK(contains(key.err, "cannot solve for 'sampling'"));
}
