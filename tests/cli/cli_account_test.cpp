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
    const auto accountant = run_dpbo({"account", "--accountant", "rdpx", "--mu", "1"});
    CHECK(accountant.exit_code == 2);
    CHECK(contains(accountant.err, "unknown accountant 'rdpx'"));
}

TEST_CASE("cli account: typed events of every kind the basic accountant takes, and clear refusals") {
    const auto basic =
        run_dpbo({"account", "--accountant", "basic", "--event", "laplace:scale=2,sensitivity=1", "--event",
                  "exponential:epsilon=0.25,quality_sensitivity=1x2", "--event", "pure:epsilon=0.1", "--event",
                  "approx:epsilon=0.2,delta=1e-6", "--epsilon", "1.3", "--json"});
    CAPTURE(basic.err);
    REQUIRE(basic.exit_code == 0);
    const auto out = nlohmann::json::parse(basic.out);
    CHECK(out["notion"] == "(epsilon, delta)-DP");
    CHECK(out["epsilon"].get<double>() == doctest::Approx(1.3).epsilon(1e-15));
    CHECK(out["delta"].get<double>() == 1e-6);
    CHECK(out["epsilon_delta"][0]["delta"].get<double>() == 1e-6);

    const auto gdp_laplace = run_dpbo({"account", "--accountant", "gdp", "--event", "laplace:scale=1,sensitivity=1"});
    CHECK(gdp_laplace.exit_code == 2);
    CHECK(contains(gdp_laplace.err, "accountant 'gdp' cannot account a 'laplace' event"));
    CHECK(contains(gdp_laplace.err, "it accepts: gaussian, gdp; use --accountant rdp"));
    // Unnamed, the accountant that can take the event is chosen (rdp: Mironov 2017, Prop. 6).
    const auto auto_laplace = run_dpbo({"account", "--event", "laplace:scale=1,sensitivity=1"});
    CHECK(auto_laplace.exit_code == 0);
    CHECK(contains(auto_laplace.out, "rdp accountant"));
    const auto basic_gaussian = run_dpbo({"account", "--accountant", "basic", "--mu", "1"});
    CHECK(basic_gaussian.exit_code == 2);
    CHECK(contains(basic_gaussian.err, "'gdp'"));
    const auto subsampled =
        run_dpbo({"account", "--accountant", "gdp", "--event",
                  "subsampled-gaussian:sampling_rate=0.01,noise_multiplier=1.1,steps=100,sampling=poisson,"
                  "neighbouring=add-remove-one"});
    CHECK(subsampled.exit_code == 2);
    CHECK(contains(subsampled.err, "cannot account a 'subsampled-gaussian' event"));

    const auto kind = run_dpbo({"account", "--event", "renyi:alpha=2"});
    CHECK(kind.exit_code == 2);
    CHECK(contains(kind.err, "unknown kind 'renyi'"));
    CHECK(contains(kind.err, "gaussian, gdp, laplace, exponential, subsampled-gaussian, pure, approx"));
    const auto key = run_dpbo({"account", "--event", "gaussian:sigma=1,sensitivity=1,rate=0.1"});
    CHECK(key.exit_code == 2);
    CHECK(contains(key.err, "kind 'gaussian' has no key 'rate'; its keys: sigma, sensitivity"));
    const auto missing = run_dpbo({"account", "--event", "approx:epsilon=1"});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "needs key 'delta'"));
    const auto scheme = run_dpbo({"account", "--event",
                                  "subsampled-gaussian:sampling_rate=0.01,noise_multiplier=1.1,steps=100,"
                                  "sampling=shuffle,neighbouring=add-remove-one"});
    CHECK(scheme.exit_code == 2);
    CHECK(contains(scheme.err, "'shuffle' is not allowed; allowed: poisson, fixed-size-without-replacement"));
    const auto invalid = run_dpbo({"account", "--event", "approx:epsilon=1,delta=1"});
    CHECK(invalid.exit_code == 2);
    CHECK(contains(invalid.err, "'delta' = 1"));
}

TEST_CASE("cli account: the rdp accountant for subsampled Gaussians, text and json, and sigma calibration") {
    // The command, without --accountant: gdp cannot take the event, so rdp is chosen.
    const auto text = run_dpbo(
        {"account", "--event", "subsampled-gaussian:q=0.01,sigma=4,steps=10000,sampling=poisson", "--delta", "1e-5"});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(contains(text.out, "rdp accountant"));
    CHECK(contains(text.out, "tight conversion"));
    CHECK(contains(text.out, "attained at order"));
    const auto classic =
        run_dpbo({"account", "--accountant", "rdp", "--conversion", "classic", "--event",
                  "subsampled-gaussian:q=0.01,sigma=4,steps=10000,sampling=poisson", "--delta", "1e-5", "--json"});
    REQUIRE(classic.exit_code == 0);
    const auto out = nlohmann::json::parse(classic.out);
    CHECK(out["accountant"] == "rdp");
    CHECK(contains(out["mechanism"].get<std::string>(), "classic conversion"));
    CHECK(out["epsilon_delta"][0]["epsilon"].get<double>() == doctest::Approx(1.26).epsilon(0.005));
    const auto wor =
        run_dpbo({"account", "--event", "subsampled-gaussian:q=0.01,sigma=4,steps=10000,sampling=without-replacement",
                  "--delta", "1e-5", "--json"});
    REQUIRE(wor.exit_code == 0);
    CHECK(nlohmann::json::parse(wor.out)["neighbouring"] == "replace one record");

    const auto calibrated =
        run_dpbo({"account", "--accountant", "rdp", "--calibrate-sigma", "--epsilon", "2", "--delta", "1e-5", "--event",
                  "subsampled-gaussian:q=0.01,steps=1000,sampling=poisson", "--json"});
    CAPTURE(calibrated.err);
    REQUIRE(calibrated.exit_code == 0);
    const auto c = nlohmann::json::parse(calibrated.out);
    CHECK(c["epsilon"].get<double>() <= 2.0);
    CHECK(c["epsilon"].get<double>() > 2.0 * (1 - 1e-4));  // bisection to 1e-6 relative in σ

    const auto named_gdp = run_dpbo(
        {"account", "--accountant", "gdp", "--event", "subsampled-gaussian:q=0.01,sigma=4,steps=10,sampling=poisson"});
    CHECK(named_gdp.exit_code == 2);
    CHECK(contains(named_gdp.err, "it accepts: gaussian, gdp; use --accountant rdp"));
    const auto mismatch =
        run_dpbo({"account", "--event",
                  "subsampled-gaussian:q=0.01,sigma=4,steps=10,sampling=poisson,neighbouring=replace-one"});
    CHECK(mismatch.exit_code == 2);
    CHECK(contains(mismatch.err, "neighbouring = replace-one is refused"));
    const auto bad_q = run_dpbo({"account", "--event", "subsampled-gaussian:q=1.5,sigma=4,steps=10,sampling=poisson"});
    CHECK(bad_q.exit_code == 2);
    CHECK(contains(bad_q.err, "sampling_rate"));
}
