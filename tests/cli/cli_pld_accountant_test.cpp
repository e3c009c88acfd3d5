// `--accountant pld`: `dpbo account` answers with both bounds (JSON epsilon/epsilon_lower,
// delta/delta_lower; text "ε ≤ upper (≥ lower)"), calibrates σ under the upper bound, and runs and
// studies are composed by it like by any accountant.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli account --accountant pld: each answer carries its upper and lower bound") {
    const auto r = run_dpbo({"account", "--accountant", "pld", "--event",
                             "subsampled-gaussian:q=0.01,sigma=4,steps=10000,sampling=poisson", "--delta", "1e-5",
                             "--epsilon", "1", "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["accountant"] == "pld");
    CHECK(out["notion"] == "(epsilon, delta)-DP");
    CHECK(contains(out["mechanism"].get<std::string>(), "pessimistic discretisation (upper bound)"));
    bool saw_delta = false, saw_epsilon = false;
    for (const auto& answer : out["epsilon_delta"]) {
        if (answer["given"] == "delta") {
            saw_delta = true;
            // The headline: dp_accounting's PLD gives 0.947 here.
            CHECK(answer["epsilon"].get<double>() == doctest::Approx(0.947).epsilon(1e-3));
            CHECK(answer["epsilon_lower"].get<double>() <= answer["epsilon"].get<double>());
            CHECK(answer["epsilon_lower"].get<double>() > 0.0);
        } else {
            saw_epsilon = true;
            CHECK(answer["delta_lower"].get<double>() <= answer["delta"].get<double>());
            CHECK(answer["delta"].get<double>() < 1e-5);  // ε = 1 is above ε(1e-5) = 0.947
        }
    }
    CHECK(saw_delta);
    CHECK(saw_epsilon);

    const auto text = run_dpbo({"account", "--accountant", "pld", "--event", "gaussian:sigma=2,sensitivity=1x10",
                                "--delta", "1e-5", "--epsilon", "2"});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(contains(text.out, "composition (pld accountant)"));
    CHECK(contains(text.out, "(ε ≤ "));
    CHECK(contains(text.out, "δ ≤ "));
    CHECK(contains(text.out, "(≥ "));

    // δ below what the approx events put at +∞: no ε, said by name, a usage error.
    const auto unreachable =
        run_dpbo({"account", "--accountant", "pld", "--event", "approx:epsilon=1,delta=1e-3", "--delta", "1e-5"});
    CHECK(unreachable.exit_code == 2);
    CHECK(contains(unreachable.err, "no finite ε reaches delta = 1e-05"));

    // An accountant without a lower bound answers as before.
    const auto rdp = run_dpbo(
        {"account", "--accountant", "rdp", "--event", "gaussian:sigma=2,sensitivity=1", "--delta", "1e-5", "--json"});
    REQUIRE(rdp.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(rdp.out)["epsilon_delta"][0].contains("epsilon_lower"));
}

TEST_CASE("cli account --accountant pld --calibrate-sigma: the σ found meets the target under pld") {
    const auto calibrated =
        run_dpbo({"account", "--accountant", "pld", "--calibrate-sigma", "--epsilon", "2", "--delta", "1e-5", "--event",
                  "subsampled-gaussian:q=0.01,steps=1000,sampling=poisson", "--json"});
    CAPTURE(calibrated.err);
    REQUIRE(calibrated.exit_code == 0);
    const auto c = nlohmann::json::parse(calibrated.out);
    CHECK(c["accountant"] == "pld");
    const double sigma = c["sigma"].get<double>();
    CHECK(c["epsilon"].get<double>() <= 2.0);
    CHECK(c["epsilon"].get<double>() > 2.0 * (1 - 1e-3));
    // Composed again at that σ, pld says ε ≤ 2; the rdp accountant needs more noise for the same target.
    std::ostringstream event_text;
    event_text << "subsampled-gaussian:q=0.01,steps=1000,sampling=poisson,sigma=" << std::setprecision(17) << sigma;
    const std::string event = event_text.str();
    const auto again = run_dpbo({"account", "--accountant", "pld", "--event", event, "--delta", "1e-5", "--json"});
    REQUIRE(again.exit_code == 0);
    CHECK(nlohmann::json::parse(again.out)["epsilon_delta"][0]["epsilon"].get<double>() <= 2.0);
    const auto rdp = run_dpbo({"account", "--accountant", "rdp", "--event", event, "--delta", "1e-5", "--json"});
    REQUIRE(rdp.exit_code == 0);
    CHECK(nlohmann::json::parse(rdp.out)["epsilon_delta"][0]["epsilon"].get<double>() > 2.0);
}

TEST_CASE("cli --accountant pld: runs and studies are composed by it; bad settings are named") {
    TemporaryDirectory dir;
    const std::vector<std::string> job = {"--algorithm",  "random-search",
                                          "--objective",  "branin",
                                          "--mechanism",  "gaussian",
                                          "--set",        "mechanism.mu=0.5",
                                          "--set",        "algorithm.value_sensitivity=0.1",
                                          "--set",        "algorithm.budget=20",
                                          "--seed",       "3",
                                          "--accountant", "pld"};
    std::vector<std::string> run = {"run", "--out", dir.path() + "/run"};
    run.insert(run.end(), job.begin(), job.end());
    const auto r = run_dpbo(run);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(std::filesystem::path(dir.path()) / "run" / "result.json");
    const auto result = nlohmann::json::parse(in);
    CHECK(result["job"]["accountant"]["name"] == "pld");
    CAPTURE(result["privacy"].dump());
    CHECK(result["privacy"]["hypothetical"]["notion"] == "(epsilon, delta)-DP");

    std::vector<std::string> study = {"study", "create", dir.path() + "/s.db"};
    study.insert(study.end(), job.begin(), job.end());
    const auto created = run_dpbo(study);
    CAPTURE(created.err);
    REQUIRE(created.exit_code == 0);
    const auto shown = run_dpbo({"study", "show", dir.path() + "/s.db", "--json"});
    REQUIRE(shown.exit_code == 0);
    CHECK(contains(shown.out, "\"pld\""));

    std::vector<std::string> bad = {"run", "--out", dir.path() + "/bad", "--set",
                                    "accountant.value_discretization_interval=-1"};
    bad.insert(bad.end(), job.begin(), job.end());
    const auto refused = run_dpbo(bad);
    CHECK(refused.exit_code != 0);
    CHECK(contains(refused.err, "value_discretization_interval"));
}
