// Conformance over the registry: every mechanism, selection, row release, accountant and objective
// the registry finds passes its kind's checks (dpbo/host/conformance.hpp) — a new plugin is checked
// without anyone writing a test for it. Modules that cannot be built from their defaults get their
// parameters from the table below; a module missing from it that needs some fails the first check.
// The deliberately nonconforming plugins must fail exactly the promises they break.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "dpbo/host/conformance.hpp"
#include "dpbo/host/registry.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// The private releases have no default privacy parameters (a user must choose them): each is
// checked at every calibration it offers.
const std::map<std::string, std::vector<Parameters>> kPrivateReleaseParameters = {
    {"gaussian", {{{"mu", "1"}}, {{"epsilon", "1"}, {"delta", "1e-5"}}}},
    {"laplace", {{{"epsilon", "1"}}}},
    {"exponential", {{{"epsilon", "0.5"}}, {{"epsilon", "0.5"}, {"monotone", "true"}}}},
    {"permute-and-flip", {{{"epsilon", "0.5"}}}},
};

std::string failures_of(const dpbo::ConformanceReport& report) {
    std::string out;
    for (const auto& check : report.checks)
        if (!check.passed) out += "\n  FAIL " + check.name + ": " + check.detail;
    return out;
}

// Files the objectives that read data need, made once per test process.
struct ObjectiveFixtures {
    dpbo::test::TemporaryDirectory dir;
    std::map<std::string, Parameters> parameters;

    ObjectiveFixtures() {
        const std::string table = dir.path() + "/table.csv";
        std::ofstream(table) << "a,b,y\n1,2,3.5\n2,1,2.0\n4,4,1.0\n0,5,0.5\n3,3,4.0\n";
        // The MNIST oracle trains a network per evaluation: the smallest training it allows.
        parameters["mlp"] = {{"repetitions", "1"}, {"max_epochs", "2"}, {"training_images", "4000"}};
        parameters["table"] = {{"file", table}, {"columns", "a,b"}, {"response", "y"}, {"bounds", "0:5,0:5"}};
        parameters["command"] = {{"command", "python3 " + std::string(DPBO_SOURCE_DIR) +
                                                 "/sdk/examples/python-objective/record_objective.py --dim 2"}};
        // The curator's released rows come from `dpbo curator release`; its answers from `dpbo curator answer`.
        const std::string release = dir.path() + "/release";
        const auto released = dpbo::test::run_dpbo({"curator", "release", "--objective", "branin-grid", "--release",
                                                    "noisy-projection", "--seed", "1", "--out", release});
        REQUIRE_MESSAGE(released.exit_code == 0, released.err);
        parameters["curator"] = {{"candidates", release + "/released_rows.csv"},
                                 {"command", std::string(DPBO_EXECUTABLE) + " curator answer --objective branin-grid"}};
    }
};

ObjectiveFixtures& fixtures() {
    static ObjectiveFixtures instance;
    return instance;
}

std::vector<Parameters> parameter_sets_for(const std::string& name) {
    if (const auto it = kPrivateReleaseParameters.find(name); it != kPrivateReleaseParameters.end()) return it->second;
    const auto& all = fixtures().parameters;
    const auto it = all.find(name);
    return {it == all.end() ? Parameters{} : it->second};
}

// Runs the checks on every module the registry finds for which `chosen` is true; returns how many.
template <class Chosen>
std::size_t check_every(Chosen&& chosen) {
    auto& registry = dpbo::test::registry();
    std::size_t checked = 0;
    for (const dpbo::LoadedPlugin& plugin : registry.plugins()) {
        if (!dpbo::has_conformance_checks(plugin.manifest.kind) || !chosen(plugin)) continue;
        const std::string& name = plugin.manifest.name;
        CAPTURE(name);
        for (const Parameters& parameters : parameter_sets_for(name)) {
            const auto report = dpbo::check_module(registry, plugin.manifest.kind, name, parameters);
            CHECK_MESSAGE(report.passed(), "conformance of " << dpbo::to_string(plugin.manifest.kind) << " '" << name
                                                             << "':" << failures_of(report));
            CHECK(report.checks.size() >= 4);
        }
        ++checked;
    }
    return checked;
}

bool is_objective(const dpbo::LoadedPlugin& plugin) { return plugin.manifest.kind == dpbo::ModuleKind::Objective; }

}  // namespace

// Three cases, so that ctest runs them side by side (the objectives' checks evaluate each one).
TEST_CASE("conformance: every private release and accountant the registry finds keeps its promises") {
    // 2 mechanisms, 2 selections, 2 row releases and 3 accountants at the time of writing.
    CHECK(check_every([](const dpbo::LoadedPlugin& plugin) { return !is_objective(plugin); }) >= 9);
}

TEST_CASE("conformance: every objective the registry finds, a to l, keeps its promises") {
    CHECK(check_every([](const dpbo::LoadedPlugin& plugin) {
              return is_objective(plugin) && plugin.manifest.name < "m";
          }) >= 8);
}

TEST_CASE("conformance: every objective the registry finds, m to z, keeps its promises") {
    CHECK(check_every([](const dpbo::LoadedPlugin& plugin) {
              return is_objective(plugin) && plugin.manifest.name >= "m";
          }) >= 8);
}

TEST_CASE("conformance: a mechanism with its own randomness and loose calibration fails those promises") {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_NONCONFORMING_PLUGIN_DIR, "test"}, {DPBO_TEST_PLUGIN_DIR, "test"}});
    const auto report = dpbo::check_module(registry, dpbo::ModuleKind::Mechanism, "own-randomness");
    CAPTURE(failures_of(report));
    CHECK_FALSE(report.passed());
    std::map<std::string, bool> passed;
    for (const auto& check : report.checks) passed[check.name] = check.passed;
    CHECK_FALSE(passed.at("draws its noise from the ledger's source alone"));
    CHECK_FALSE(passed.at("refuses to calibrate to a sensitivity that is not finite and > 0"));
    CHECK(passed.at("charges the ledger before any noise: a use the budget refuses leaves no charge"));
}

TEST_CASE("conformance: an accountant whose clones share its composition fails that promise") {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_NONCONFORMING_PLUGIN_DIR, "test"}, {DPBO_TEST_PLUGIN_DIR, "test"}});
    const auto report = dpbo::check_module(registry, dpbo::ModuleKind::Accountant, "shared-clone");
    CAPTURE(failures_of(report));
    std::map<std::string, dpbo::ConformanceCheck> by_name;
    for (const auto& check : report.checks) by_name[check.name] = check;
    REQUIRE(by_name.count("a clone is independent of the original") == 1);
    CHECK_FALSE(by_name["a clone is independent of the original"].passed);
    CHECK(by_name["a clone is independent of the original"].detail.find("moved the original") != std::string::npos);
    CHECK(by_name["composition never lowers the cost"].passed);
}

TEST_CASE("conformance: objectives that break the evaluation contract fail it, naming the numbers") {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_BROKEN_PLUGIN_DIR, "test"}});
    for (const dpbo::LoadedPlugin& plugin : registry.plugins()) {
        const std::string& file = plugin.path.filename().string();
        if (file != "broken-objective_wrong_shape.so" && file != "broken-objective_mean_mismatch.so") continue;
        CAPTURE(file);
        const auto report = dpbo::check_module(registry, plugin.manifest.kind, plugin.manifest.name);
        CHECK_FALSE(report.passed());
        bool contract_failed = false;
        for (const auto& check : report.checks)
            if (check.name == "evaluates a batch within the evaluation contract" && !check.passed)
                contract_failed = true;
        CHECK(contract_failed);
    }
}

TEST_CASE("conformance: a module that cannot be built fails the first check with the reason") {
    auto& registry = dpbo::test::registry();
    const auto report = dpbo::check_module(registry, dpbo::ModuleKind::Mechanism, "gaussian", {{"mu", "-1"}});
    REQUIRE(report.checks.size() == 1);
    CHECK(report.checks[0].name == "created from its parameters");
    CHECK_FALSE(report.checks[0].passed);
    CHECK(report.checks[0].detail.find("mu") != std::string::npos);
}
