#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include <armadillo>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/host/manifest_json.hpp"
#include "dpbo/host/plugin_library.hpp"
#include "dpbo/host/registry.hpp"
#include "test_support.hpp"

namespace {

dpbo::PluginRegistry broken_and_good() {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_BROKEN_PLUGIN_DIR, "test"}, {DPBO_TEST_PLUGIN_DIR, "test"}});
    return registry;
}

std::string reason_for(dpbo::PluginRegistry& registry, const std::string& file_stem) {
    for (const auto& r : registry.refused())
        if (r.path.stem() == file_stem) return r.reason;
    return "";
}

}  // namespace

TEST_CASE("registry: every broken file is refused with its reason and no good module is hidden") {
    auto registry = broken_and_good();
    for (const auto* name : {"branin", "rosenbrock", "quadratic", "random-search", "grid-search", "gaussian", "laplace",
                             "gdp", "extra-sphere", "exploding-objective"}) {
        CAPTURE(name);
        const bool found = std::any_of(registry.plugins().begin(), registry.plugins().end(),
                                       [&](const auto& p) { return p.manifest.name == name; });
        CHECK(found);
    }
    CHECK(reason_for(registry, "broken-no_entry_symbol").find("no entry symbol 'dpbo_plugin'") != std::string::npos);
    CHECK(reason_for(registry, "broken-other_abi")
              .find("built for plugin ABI version " + std::to_string(dpbo::kAbiVersion + 1)) != std::string::npos);
    CHECK(reason_for(registry, "broken-duplicate_name").find("duplicate module name 'extra-sphere'") !=
          std::string::npos);
    CHECK(reason_for(registry, "broken-duplicate_name").find("broken-accepted_sphere.so") != std::string::npos);
    CHECK(reason_for(registry, "broken-throwing_manifest").find("deliberate failure in the manifest factory") !=
          std::string::npos);
    CHECK(reason_for(registry, "not_a_library").find("not a shared library") != std::string::npos);
    // Called, it would jump to address 0.
    CHECK(reason_for(registry, "broken-null_manifest") ==
          "its plugin header's manifest function is a null pointer (declare the module with DPBO_PLUGIN)");
    CHECK(registry.refused().size() == 9);
}

TEST_CASE("registry: a plugin built with another Armadillo or libstdc++ configuration is refused, naming both values") {
    auto registry = broken_and_good();
    const std::string release = std::to_string(ARMA_VERSION_MAJOR) + "." + std::to_string(ARMA_VERSION_MINOR) + ".";
    CHECK(reason_for(registry, "broken-other_armadillo") ==
          "built with Armadillo " + release + std::to_string(ARMA_VERSION_PATCH + 1) + ", this dpbo with Armadillo " +
              release + std::to_string(ARMA_VERSION_PATCH) +
              " (ARMA_VERSION_*); rebuild it against the Armadillo this dpbo was built with");
    // Compiled with ARMA_32BIT_WORD: it links and loads, only its header tells.
    CHECK(reason_for(registry, "broken-narrow_words") ==
          "built with 32-bit Armadillo words (arma::uword), this dpbo with 64-bit words; rebuild it with the same "
          "ARMA_64BIT_WORD / ARMA_32BIT_WORD setting");
    // Compiled with _GLIBCXX_USE_CXX11_ABI=0: the same.
    CHECK(reason_for(registry, "broken-old_string_abi") ==
          "built with libstdc++ dual ABI _GLIBCXX_USE_CXX11_ABI=0, this dpbo with _GLIBCXX_USE_CXX11_ABI=1; rebuild it "
          "with _GLIBCXX_USE_CXX11_ABI=1");
    // Refused before the manifest was read, so neither module exists.
    for (const auto* name : {"narrow-sphere", "old-abi-sphere"}) {
        CAPTURE(name);
        CHECK(registry.find(dpbo::ModuleKind::Objective, name) == nullptr);
    }
}

TEST_CASE("registry: the refusal report names the file of a build mismatch") {
    auto registry = broken_and_good();
    const std::string report = registry.describe_search();
    CHECK(report.find("broken-narrow_words.so: built with 32-bit Armadillo words") != std::string::npos);
    CHECK(report.find("broken-old_string_abi.so: built with libstdc++ dual ABI _GLIBCXX_USE_CXX11_ABI=0") !=
          std::string::npos);
}

TEST_CASE("registry: loading the same directory twice adds nothing") {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_PLUGIN_DIR, "a"}, {DPBO_TEST_PLUGIN_DIR, "b"}});
    dpbo::PluginRegistry once;
    once.load({{DPBO_TEST_PLUGIN_DIR, "a"}});
    CHECK(registry.plugins().size() == once.plugins().size());
    CHECK(registry.refused().empty());
}

TEST_CASE("registry: unknown names suggest the closest and list what was searched") {
    auto& registry = dpbo::test::registry();
    CHECK_THROWS_WITH_AS(registry.require(dpbo::ModuleKind::Objective, "brannin"),
                         doctest::Contains("did you mean 'branin'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(registry.require(dpbo::ModuleKind::Objective, "brannin"),
                         doctest::Contains("directories searched"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(registry.require(dpbo::ModuleKind::Objective, "gaussian"),
                         doctest::Contains("is a mechanism, not a objective"), dpbo::ValidationError);
}

TEST_CASE("registry: a module keeps its library loaded after the registry is gone") {
    std::shared_ptr<dpbo::Objective> objective;
    {
        dpbo::PluginRegistry registry;
        registry.load({{DPBO_TEST_PLUGIN_DIR, "test"}});
        objective = registry.create_as<dpbo::Objective>("quadratic", {{"dim", "3"}});
    }
    // The registry and its handles are destroyed; calling into the plugin's code must still work.
    const arma::mat point(1, 3, arma::fill::value(0.3));
    CHECK(objective->evaluate(point, {}).values(0) == doctest::Approx(0.0));
    CHECK(objective->space().dim() == 3);
}

TEST_CASE("registry: a throwing constructor is a run error naming the module and its file") {
    auto registry = broken_and_good();
    CHECK_THROWS_WITH_AS(registry.create(dpbo::ModuleKind::Objective, "exploding-objective", {}),
                         doctest::Contains("broken-throwing_constructor.so"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(registry.create(dpbo::ModuleKind::Objective, "branin", {{"noise", "1"}}),
                         doctest::Contains("unknown parameter 'noise'"), dpbo::ValidationError);
}

TEST_CASE("registry: finding plugins loads none of them, creating a module loads its file and no other") {
    dpbo::PluginRegistry registry;
    registry.load({{DPBO_TEST_BROKEN_PLUGIN_DIR, "test"}, {DPBO_TEST_PLUGIN_DIR, "test"}});
    CHECK(registry.plugins().size() > 20);
    CHECK(registry.loaded_files().empty());
    const auto objective = registry.create_as<dpbo::Objective>("quadratic", {{"dim", "2"}});
    const auto again = registry.create_as<dpbo::Objective>("quadratic", {{"dim", "3"}});
    REQUIRE(registry.loaded_files().size() == 1);
    CHECK(registry.loaded_files()[0].filename() == "objective-quadratic.so");
    CHECK(objective->origin().file == registry.loaded_files()[0]);
}

TEST_CASE("registry: a manifest read by the probe is the manifest the plugin gives in process") {
    auto& registry = dpbo::test::registry();
    for (const auto& plugin : registry.plugins()) {
        CAPTURE(plugin.path);
        const auto opened = dpbo::open_plugin(plugin.path);
        CHECK(dpbo::manifest_to_json(opened.manifest) == dpbo::manifest_to_json(plugin.manifest));
        CHECK(opened.compiler == plugin.compiler);
    }
}

TEST_CASE("registry: DPBO_PROBE_TIMEOUT must be a number of seconds") {
    for (const auto* bad : {"abc", "", "-1", "0", "5s", "nan", "1e9"}) {
        CAPTURE(bad);
        ::setenv("DPBO_PROBE_TIMEOUT", bad, 1);
        dpbo::PluginRegistry registry;
        CHECK_THROWS_WITH_AS(
            registry.load({{DPBO_TEST_PLUGIN_DIR, "test"}}),
            doctest::Contains(("DPBO_PROBE_TIMEOUT='" + std::string(bad) + "' is not a time limit").c_str()),
            dpbo::ValidationError);
    }
    ::setenv("DPBO_PROBE_TIMEOUT", "0.5", 1);
    dpbo::PluginRegistry registry;
    CHECK(registry.probe_timeout().count() == 0.5);
    registry.set_probe_timeout(std::chrono::duration<double>(2.0));
    CHECK(registry.probe_timeout().count() == 2.0);
    ::unsetenv("DPBO_PROBE_TIMEOUT");
    CHECK(dpbo::PluginRegistry().probe_timeout().count() == 5.0);
}
