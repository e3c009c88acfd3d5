// PluginRegistry::load_on_demand: a command that names its modules takes in their files only, and
// still finds, lists and refuses exactly as a full load() does.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/host/registry.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

// A plugin folder of copies of the build's plugins and a manifest cache of its own (XDG_CACHE_HOME
// set for the test's duration), so that what the cache holds is the test's to decide. The folder is
// lib/dpbo/plugins of a tree of its own, as installed, with links to the build's toolkit library in its
// lib/: a plugin finds that library relative to its own file ($ORIGIN/../..).
class PluginFolder {
public:
    explicit PluginFolder(const std::vector<std::string>& files)
        : plugins_(fs::path(root_.path()) / "lib" / "dpbo" / "plugins") {
        if (const char* saved = std::getenv("XDG_CACHE_HOME")) saved_cache_ = saved;
        ::setenv("XDG_CACHE_HOME", (fs::path(root_.path()) / "cache").c_str(), 1);
        fs::create_directories(plugins_);
        dpbo::test::link_build_libraries((fs::path(root_.path()) / "lib").string(), "libdpbo-bo.so");
        for (const std::string& file : files) add(file);
    }
    ~PluginFolder() {
        if (saved_cache_)
            ::setenv("XDG_CACHE_HOME", saved_cache_->c_str(), 1);
        else
            ::unsetenv("XDG_CACHE_HOME");
    }
    PluginFolder(const PluginFolder&) = delete;
    PluginFolder& operator=(const PluginFolder&) = delete;

    void add(const std::string& file) const { fs::copy_file(fs::path(DPBO_TEST_PLUGIN_DIR) / file, plugins_ / file); }
    fs::path path(const std::string& file) const { return plugins_ / file; }
    std::vector<dpbo::SearchDirectory> search() const { return {{plugins_, "test"}}; }
    // A full load, which probes every file and writes the cache.
    void fill_cache() const { dpbo::PluginRegistry().load(search()); }

private:
    dpbo::test::TemporaryDirectory root_;
    fs::path plugins_;
    std::optional<std::string> saved_cache_;
};

std::vector<std::string> module_names(dpbo::PluginRegistry& registry) {
    std::vector<std::string> names;
    for (const auto& plugin : registry.plugins()) names.push_back(plugin.manifest.name);
    return names;
}

}  // namespace

TEST_CASE("registry on demand: a job's modules take in their files and no other") {
    PluginFolder folder({"algorithm-random-search.so", "objective-branin.so", "objective-quadratic.so"});
    folder.fill_cache();
    dpbo::PluginRegistry registry;
    registry.load_on_demand(folder.search());
    // A file the registry had examined would still be listed once gone; one it never took in is not.
    fs::remove(folder.path("objective-quadratic.so"));
    CHECK(registry.require(dpbo::ModuleKind::Algorithm, "random-search").path.filename() ==
          "algorithm-random-search.so");
    const auto objective = registry.create_as<dpbo::Objective>("branin", {});
    CHECK(objective->space().dim() == 2);
    // A listing takes in the rest, in search order, as load() would have.
    CHECK(module_names(registry) == std::vector<std::string>{"random-search", "branin"});
    REQUIRE(registry.refused().size() == 1);
    CHECK(registry.refused()[0].path.filename() == "objective-quadratic.so");
}

TEST_CASE("registry on demand: a misspelt or misplaced name is answered as a full load answers it") {
    PluginFolder folder({"algorithm-random-search.so", "objective-branin.so", "objective-quadratic.so"});
    folder.fill_cache();
    dpbo::PluginRegistry registry;
    registry.load_on_demand(folder.search());
    CHECK_THROWS_WITH_AS(registry.require(dpbo::ModuleKind::Objective, "brannin"),
                         doctest::Contains("did you mean 'branin'"), dpbo::ValidationError);
    // The error lists every objective, not only those taken in so far.
    CHECK_THROWS_WITH_AS(registry.require(dpbo::ModuleKind::Objective, "brannin"),
                         doctest::Contains("known objectives: branin, quadratic"), dpbo::ValidationError);
    dpbo::PluginRegistry other;
    other.load_on_demand(folder.search());
    CHECK_THROWS_WITH_AS(other.require(dpbo::ModuleKind::Algorithm, "branin"),
                         doctest::Contains("'branin' is a objective, not a algorithm"), dpbo::ValidationError);
    CHECK(other.require_any("quadratic").path.filename() == "objective-quadratic.so");
}

TEST_CASE("registry on demand: a module absent from the cache is still found") {
    PluginFolder folder({"algorithm-random-search.so", "objective-branin.so"});
    SUBCASE("a file added since the cache was written") {
        folder.fill_cache();
        folder.add("objective-quadratic.so");
    }
    SUBCASE("no cache at all") { folder.add("objective-quadratic.so"); }
    SUBCASE("a file replaced since the cache was written") {
        folder.fill_cache();
        fs::remove(folder.path("objective-branin.so"));
        fs::copy_file(fs::path(DPBO_TEST_PLUGIN_DIR) / "objective-quadratic.so", folder.path("objective-branin.so"));
    }
    dpbo::PluginRegistry registry;
    registry.load_on_demand(folder.search());
    const auto objective = registry.create_as<dpbo::Objective>("quadratic", {{"dim", "3"}});
    CHECK(objective->space().dim() == 3);
}

TEST_CASE("registry on demand: the first file declaring a name wins, as in a full load") {
    PluginFolder folder({"objective-branin.so"});
    const dpbo::test::TemporaryDirectory later;
    fs::copy_file(fs::path(DPBO_TEST_PLUGIN_DIR) / "objective-branin.so",
                  fs::path(later.path()) / "objective-branin.so");
    std::vector<dpbo::SearchDirectory> search = folder.search();
    search.push_back({later.path(), "later"});
    dpbo::PluginRegistry().load(search);
    dpbo::PluginRegistry registry;
    registry.load_on_demand(search);
    CHECK(registry.require(dpbo::ModuleKind::Objective, "branin").path == folder.path("objective-branin.so"));
    REQUIRE(registry.refused().size() == 1);
    CHECK(registry.refused()[0].reason.find("duplicate module name 'branin'") != std::string::npos);
}
