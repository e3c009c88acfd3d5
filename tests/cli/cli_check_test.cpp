// `dpbo check FILE.so`: the conformance checks of their kind on a plugin file's modules, in a child
// process each — every shipped plugin conforms; a nonconforming one is named with each broken
// promise; a crashing one is a failed check, not a crashed checker.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string plugin(const char* directory, const std::string& file) {
    return (std::filesystem::path(directory) / file).string();
}

}  // namespace

TEST_CASE("cli check: shipped mechanisms, a selection, a row release and an accountant conform") {
    // A private release has no default privacy parameters: each is given for its module alone.
    const auto r = run_dpbo({"check", plugin(DPBO_TEST_PLUGIN_DIR, "mechanism-gaussian.so"),
                             plugin(DPBO_TEST_PLUGIN_DIR, "mechanism-laplace.so"),
                             plugin(DPBO_TEST_PLUGIN_DIR, "selection-exponential.so"),
                             plugin(DPBO_TEST_PLUGIN_DIR, "row-release-noisy-projection.so"),
                             plugin(DPBO_TEST_PLUGIN_DIR, "accountant-rdp.so"), "--set", "gaussian.mu=1", "--set",
                             "laplace.epsilon=1", "--set", "exponential.epsilon=0.5"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "mechanism 'gaussian': conforms"));
    CHECK(contains(r.out, "accountant 'rdp': conforms"));
    CHECK(contains(r.out, " 0 failed"));

    // Without them, the first check fails with the module's own refusal and says how to give them.
    const auto bare = run_dpbo({"check", plugin(DPBO_TEST_PLUGIN_DIR, "mechanism-laplace.so")});
    CHECK(bare.exit_code == 1);
    CHECK(contains(bare.out, "FAIL created from its parameters: mechanism 'laplace': required parameter 'epsilon'"));
    CHECK(contains(bare.out, "--set KEY=VALUE"));
}

TEST_CASE("cli check: a nonconforming mechanism and accountant are named with each broken promise, exit 1") {
    const auto r =
        run_dpbo({"check", plugin(DPBO_TEST_NONCONFORMING_PLUGIN_DIR, "nonconforming-mechanism_own_randomness.so"),
                  plugin(DPBO_TEST_NONCONFORMING_PLUGIN_DIR, "nonconforming-accountant_shared_clone.so")});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "mechanism 'own-randomness': 2 check(s) failed"));
    CHECK(contains(r.out, "FAIL draws its noise from the ledger's source alone"));
    CHECK(contains(r.out, "FAIL refuses to calibrate to a sensitivity that is not finite and > 0"));
    CHECK(contains(r.out, "FAIL a clone is independent of the original"));

    const auto j = run_dpbo(
        {"check", "--json", plugin(DPBO_TEST_NONCONFORMING_PLUGIN_DIR, "nonconforming-accountant_shared_clone.so")});
    CHECK(j.exit_code == 1);
    const auto reports = nlohmann::json::parse(j.out);
    REQUIRE(reports.size() == 1);
    CHECK(reports[0]["module"] == "shared-clone");
    CHECK(reports[0]["passed"] == false);
}

TEST_CASE("cli check: an objective that breaks the evaluation contract fails it") {
    const auto r = run_dpbo({"check", plugin(DPBO_TEST_BROKEN_PLUGIN_DIR, "broken-objective_wrong_shape.so")});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "FAIL evaluates a batch within the evaluation contract"));
}

TEST_CASE("cli check: a module that crashes is a failed check and the checker carries on") {
    const auto r = run_dpbo({"check", plugin(DPBO_TEST_HOSTILE_PLUGIN_DIR, "hostile-mechanism_segfaults.so"),
                             plugin(DPBO_TEST_PLUGIN_DIR, "mechanism-laplace.so"), "--set", "laplace.epsilon=1"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "FAIL survives its checks"));
    CHECK(contains(r.out, "signal 11"));
    // The module call guard's report, from the child's stderr, names the check it died in.
    CHECK(contains(r.out, "while conformance check 'refuses to calibrate"));
    CHECK(contains(r.out, "mechanism 'laplace': conforms"));
}

TEST_CASE("cli check: a file that is no plugin, or none at all, is named") {
    const auto not_plugin = run_dpbo({"check", plugin(DPBO_TEST_BROKEN_PLUGIN_DIR, "not_a_library.so")});
    CHECK(not_plugin.exit_code == 1);
    CHECK(contains(not_plugin.out, "FAIL loads as a dpbo plugin"));
    const auto missing = run_dpbo({"check", "/no/such/file.so"});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "/no/such/file.so"));
    const auto none = run_dpbo({"check"});
    CHECK(none.exit_code == 2);
}
