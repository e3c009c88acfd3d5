#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("cli list: shows every module grouped by kind with its file") {
    const auto r = run_dpbo({"list"});
    CHECK(r.exit_code == 0);
    for (const auto* heading : {"algorithms (", "objectives (", "mechanisms (", "accountants ("})
        CHECK(contains(r.out, heading));
    for (const auto* name :
         {"branin", "rosenbrock", "quadratic", "random-search", "grid-search", "gaussian", "laplace", "gdp"})
        CHECK(contains(r.out, name));
    CHECK(contains(r.out, "objective-branin.so"));
    CHECK(contains(r.out, "(next to the executable)"));
}

TEST_CASE("cli list: broken plugins are named with their reasons, good ones still listed, exit 0") {
    const auto r = run_dpbo({"list", "--plugin-path", DPBO_TEST_BROKEN_PLUGIN_DIR});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "refused files (9)"));
    CHECK(contains(r.out, "broken-null_manifest.so"));
    CHECK(contains(r.out, "manifest function is a null pointer"));
    CHECK(contains(r.out, "broken-no_entry_symbol.so"));
    CHECK(contains(r.out, "no entry symbol"));
    CHECK(contains(r.out, "broken-other_abi.so"));
    CHECK(contains(r.out, "built for plugin ABI version"));
    CHECK(contains(r.out, "duplicate module name 'extra-sphere'"));
    CHECK(contains(r.out, "deliberate failure in the manifest factory"));
    CHECK(contains(r.out, "not_a_library.so"));
    CHECK(contains(r.out, "not a shared library"));
    CHECK(contains(r.out, "broken-narrow_words.so"));
    CHECK(contains(r.out, "built with 32-bit Armadillo words (arma::uword), this dpbo with 64-bit words"));
    CHECK(contains(r.out, "broken-old_string_abi.so"));
    CHECK(contains(r.out,
                   "built with libstdc++ dual ABI _GLIBCXX_USE_CXX11_ABI=0, this dpbo with "
                   "_GLIBCXX_USE_CXX11_ABI=1"));
    CHECK(contains(r.out, "broken-other_armadillo.so"));
    for (const auto* name : {"extra-sphere", "exploding-objective", "branin", "gaussian", "random-search"})
        CHECK(contains(r.out, name));
}

TEST_CASE("cli list: --json and --kind, DPBO_PLUGIN_PATH is searched too") {
    const auto r =
        run_dpbo({"list", "--json", "--kind", "mechanisms"}, {{"DPBO_PLUGIN_PATH", DPBO_TEST_BROKEN_PLUGIN_DIR}});
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    for (const auto& m : out["modules"]) CHECK(m["kind"] == "mechanism");
    CHECK(out["modules"].size() == 2);
    CHECK(out["refused"].size() == 9);
    CHECK(out["searched"][0]["origin"] == "DPBO_PLUGIN_PATH");

    const auto bad = run_dpbo({"list", "--kind", "mechanismz"});
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "did you mean 'mechanism'"));
}

TEST_CASE("cli info: parameters with type, default, range and doc, the paper implemented") {
    const auto r = run_dpbo({"info", "gaussian"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "gaussian (mechanism"));
    CHECK(contains(r.out, "implements:"));
    CHECK(contains(r.out, "mu"));
    CHECK(contains(r.out, "equivalent_delta"));
    CHECK(contains(r.out, "allowed:"));

    const auto algorithm = run_dpbo({"info", "random-search"});
    CHECK(contains(algorithm.out, "--mechanism"));

    const auto json = run_dpbo({"info", "rosenbrock", "--json"});
    REQUIRE(json.exit_code == 0);
    const auto parsed = nlohmann::json::parse(json.out);
    CHECK(parsed["kind"] == "objective");
    bool has_dim = false;
    for (const auto& p : parsed["parameters"])
        if (p["name"] == "dim") has_dim = p["type"] == "integer" && p["default"] == "2";
    CHECK(has_dim);
}

TEST_CASE("cli info: bad input exits 2 and names what is wrong") {
    const auto unknown = run_dpbo({"info", "gausian"});
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "unknown module 'gausian'"));
    CHECK(contains(unknown.err, "did you mean 'gaussian'"));
    const auto missing = run_dpbo({"info"});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "needs a module name"));
    const auto extra = run_dpbo({"info", "gaussian", "laplace"});
    CHECK(extra.exit_code == 2);
    const auto option = run_dpbo({"info", "gaussian", "--colour"});
    CHECK(option.exit_code == 2);
    CHECK(contains(option.err, "colour"));
    const auto command = run_dpbo({"lst"});
    CHECK(command.exit_code == 2);
    CHECK(contains(command.err, "did you mean 'list'"));
}
