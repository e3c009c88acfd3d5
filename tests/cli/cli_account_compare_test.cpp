// `dpbo account --compare`: every accountant that takes the events answers side by side (pld with
// both bounds, the others with their upper bound, the rest named as not applicable), and an upper
// bound below another accountant's lower bound is flagged with exit 1 — shown on a deliberately
// wrong accountant (tests/test_plugins/understating_accountant.cpp).
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const nlohmann::json& entry(const nlohmann::json& compared, const std::string& name) {
    for (const auto& a : compared)
        if (a["accountant"] == name) return a;
    FAIL("accountant '" << name << "' missing from the comparison");
    return compared;
}

}  // namespace

TEST_CASE("cli account --compare: the accountants side by side, each bound where it applies") {
    const auto r = run_dpbo({"account", "--compare", "--event", "gaussian:sigma=10,sensitivity=1x100", "--delta",
                             "1e-6", "--epsilon", "2", "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["flags"].empty());
    const auto& gdp = entry(out["compared"], "gdp");
    const auto& pld = entry(out["compared"], "pld");
    const auto& rdp = entry(out["compared"], "rdp");
    const auto& basic = entry(out["compared"], "basic");
    CHECK(basic["applies"] == false);
    CHECK(contains(basic["why"].get<std::string>(), "'gaussian'"));
    REQUIRE(gdp["applies"] == true);
    REQUIRE(pld["applies"] == true);
    REQUIRE(rdp["applies"] == true);
    CHECK(pld["two_sided"] == true);
    CHECK(rdp["two_sided"] == false);
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& row = pld["epsilon_delta"][i];
        const std::string quantity = row["given"] == "epsilon" ? "delta" : "epsilon";
        CAPTURE(quantity);
        // The Gaussian is exact under μ-GDP: pld's bounds bracket gdp's answer, and RDP's conversion
        // is looser than both.
        CHECK(row[quantity + "_lower"].get<double>() <= gdp["epsilon_delta"][i][quantity].get<double>() * (1 + 1e-9));
        CHECK(gdp["epsilon_delta"][i][quantity].get<double>() <= row[quantity].get<double>() * (1 + 1e-6));
        CHECK(rdp["epsilon_delta"][i][quantity].get<double>() >= row[quantity].get<double>());
    }

    const auto text = run_dpbo({"account", "--compare", "--event",
                                "subsampled-gaussian:q=0.01,sigma=4,steps=1000,sampling=poisson", "--delta", "1e-5"});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(contains(text.out, "| question | pld | rdp |"));
    CHECK(contains(text.out, "| epsilon at delta = 1e-05 |"));
    CHECK(contains(text.out, "(≥ "));
    CHECK(contains(text.out, "not applicable: gdp:"));
    CHECK(contains(text.out, "every upper bound lies at or above every lower bound"));
}

TEST_CASE("cli account --compare: an upper bound below another accountant's lower bound is flagged") {
    const auto r = run_dpbo({"account", "--compare", "--event", "gaussian:sigma=10,sensitivity=1x100", "--delta",
                             "1e-6", "--json", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 1);
    const auto out = nlohmann::json::parse(r.out);
    REQUIRE(!out["flags"].empty());
    bool flagged = false;
    for (const auto& flag : out["flags"]) {
        CHECK(flag["accountant"] == "understating");
        if (flag["below_lower_bound_of"] == "pld") flagged = true;
    }
    CHECK(flagged);

    const auto text = run_dpbo({"account", "--compare", "--event", "gaussian:sigma=10,sensitivity=1x100", "--delta",
                                "1e-6", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR});
    CHECK(text.exit_code == 1);
    CHECK(contains(text.out, "FLAG: understating's epsilon = "));
    CHECK(contains(text.out, "is below pld's lower bound"));
}

TEST_CASE("cli account --compare: it takes no single accountant") {
    const auto r = run_dpbo({"account", "--compare", "--accountant", "rdp", "--event",
                             "gaussian:sigma=10,sensitivity=1", "--delta", "1e-6"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "--compare answers with every accountant"));
}

TEST_CASE("cli account --compare: an accountant that refuses the combination is named, and none at all is an error") {
    // Poisson and without-replacement subsampling in one composition: each accountant refuses the mix.
    const auto r = run_dpbo(
        {"account", "--compare", "--event", "subsampled-gaussian:q=0.01,sigma=4,steps=100,sampling=poisson", "--event",
         "subsampled-gaussian:q=0.01,sigma=4,steps=100,sampling=without-replacement", "--delta", "1e-5"});
    CAPTURE(r.out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "--compare: no accountant takes these events"));
    CHECK(contains(r.err, "pld:"));
    CHECK(contains(r.err, "rdp:"));
}
