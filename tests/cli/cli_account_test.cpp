#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "dpbo/privacy/gaussian_dp.hpp"
#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("cli account: composes mu and events and answers epsilon/delta questions") {
    const auto r = run_dpbo({"account", "--mu", "0.5", "--mu", "0.5", "--event", "gaussian:sigma=2,sensitivity=1x4",
                             "--epsilon", "1", "--delta", "1e-5", "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    const double mu = std::sqrt(0.25 + 0.25 + 4 * 0.25);
    CHECK(out["mu"].get<double>() == doctest::Approx(mu).epsilon(1e-12));
    CHECK(out["epsilon_delta"][0]["delta"].get<double>() == doctest::Approx(dpbo::gdp_delta(mu, 1.0)).epsilon(1e-12));
    const double eps = out["epsilon_delta"][1]["epsilon"].get<double>();
    CHECK(dpbo::gdp_delta(mu, eps) <= 1e-5);

    const auto text = run_dpbo({"account", "--mu", "1"});
    CHECK(text.exit_code == 0);
    CHECK(contains(text.out, "1-GDP"));
    CHECK(contains(text.out, "[epsilon at this delta]"));
}

TEST_CASE("cli account: bad input exits 2 naming the option or value") {
    const auto none = run_dpbo({"account"});
    CHECK(none.exit_code == 2);
    CHECK(contains(none.err, "--mu or --event"));
    const auto negative = run_dpbo({"account", "--mu", "-1"});
    CHECK(negative.exit_code == 2);
    CHECK(contains(negative.err, "--mu '-1'"));
    const auto word = run_dpbo({"account", "--mu", "one"});
    CHECK(word.exit_code == 2);
    CHECK(contains(word.err, "'one' is not a finite number"));
    const auto delta = run_dpbo({"account", "--mu", "1", "--delta", "2"});
    CHECK(delta.exit_code == 2);
    CHECK(contains(delta.err, "--delta '2'"));
    const auto kind = run_dpbo({"account", "--event", "laplace:epsilon=1"});
    CHECK(kind.exit_code == 2);
    CHECK(contains(kind.err, "laplace"));
    const auto malformed = run_dpbo({"account", "--event", "gaussian"});
    CHECK(malformed.exit_code == 2);
    CHECK(contains(malformed.err, "KIND:key=value"));
    const auto accountant = run_dpbo({"account", "--accountant", "rdp", "--mu", "1"});
    CHECK(accountant.exit_code == 2);
    CHECK(contains(accountant.err, "unknown accountant 'rdp'"));
}
