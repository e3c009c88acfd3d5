#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dpbo/host/manifest_cache.hpp"
#include "dpbo/host/manifest_json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const dpbo::FileIdentity kFile{1, 2, 3, 4};
const json kResult = {{"manifest", {{"kind", "objective"}}}, {"compiler", "g++ 12.2"}};

}  // namespace

TEST_CASE("manifest cache: a result comes back only for the same file probed by the same host") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path file = fs::path(dir.path()) / "sub" / "cache.json";
    const fs::path plugin = fs::path(dir.path()) / "x.so";
    std::ofstream(plugin) << "x";
    {
        dpbo::ManifestCache cache(file, "host A");
        CHECK_FALSE(cache.find(plugin, kFile, 5.0));
        cache.store(plugin, kFile, kResult);
        cache.save();
    }
    REQUIRE(fs::exists(file));
    const dpbo::ManifestCache same(file, "host A");
    CHECK(same.find(plugin, kFile, 5.0) == kResult);
    CHECK_FALSE(dpbo::ManifestCache(file, "host B").find(plugin, kFile, 5.0));
    for (const auto& changed : {dpbo::FileIdentity{9, 2, 3, 4}, dpbo::FileIdentity{1, 9, 3, 4},
                                dpbo::FileIdentity{1, 2, 9, 4}, dpbo::FileIdentity{1, 2, 3, 9}})
        CHECK_FALSE(same.find(plugin, changed, 5.0));
    CHECK_FALSE(same.find(fs::path(dir.path()) / "y.so", kFile, 5.0));
}

TEST_CASE("manifest cache: entries of files that no longer exist are dropped when it is written") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path file = fs::path(dir.path()) / "cache.json";
    const fs::path plugin = fs::path(dir.path()) / "plugin.so";
    std::ofstream(plugin) << "x";
    {
        dpbo::ManifestCache cache(file, "host");
        cache.store(plugin, kFile, kResult);
        cache.store(fs::path(dir.path()) / "gone.so", kFile, kResult);
        cache.save();
    }
    const dpbo::ManifestCache reread(file, "host");
    CHECK(reread.find(plugin, kFile, 5.0) == kResult);
    CHECK_FALSE(reread.find(fs::path(dir.path()) / "gone.so", kFile, 5.0));
}

TEST_CASE("manifest cache: a timed-out probe is retried when the limit is now longer") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path file = fs::path(dir.path()) / "cache.json";
    const fs::path plugin = fs::path(dir.path()) / "slow.so";
    std::ofstream(plugin) << "x";
    {
        dpbo::ManifestCache cache(file, "host");
        cache.store(plugin, kFile, {{"refused", "timed out after 2 s"}, {"timed_out_after", 2.0}});
        cache.save();
    }
    const dpbo::ManifestCache reread(file, "host");
    CHECK(reread.find(plugin, kFile, 2.0));
    CHECK(reread.find(plugin, kFile, 1.0));
    CHECK_FALSE(reread.find(plugin, kFile, 5.0));
}

TEST_CASE("manifest cache: a corrupt, foreign or unwritable cache is ignored without an error") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path plugin = fs::path(dir.path()) / "plugin.so";
    std::ofstream(plugin) << "x";
    for (const std::string text : {"", "{",
                                   "\x7f"
                                   "ELF\x01\x02",
                                   "[]", R"({"format": 99, "entries": {}})", R"({"format": 1, "entries": []})",
                                   R"({"format": 1, "entries": {"/x": 3}})"}) {
        CAPTURE(text);
        const fs::path file = fs::path(dir.path()) / "corrupt.json";
        std::ofstream(file, std::ios::binary) << text;
        dpbo::ManifestCache cache(file, "host");
        CHECK_FALSE(cache.find(plugin, kFile, 5.0));
        // It is replaced by a good one on the next save.
        cache.store(plugin, kFile, kResult);
        cache.save();
        CHECK(dpbo::ManifestCache(file, "host").find(plugin, kFile, 5.0) == kResult);
    }
    // This format's index (a line) pointing outside its results, or at a host it does not list.
    const fs::path file = fs::path(dir.path()) / "pointing-outside";
    {
        dpbo::ManifestCache cache(file, "host");
        cache.store(plugin, kFile, kResult);
        cache.save();
    }
    std::stringstream read;
    read << std::ifstream(file, std::ios::binary).rdbuf();
    const std::string good = read.str();
    const std::size_t line_end = good.find('\n');
    REQUIRE(line_end != std::string::npos);
    const json index = json::parse(good.substr(0, line_end));
    const std::string results = good.substr(line_end + 1);
    REQUIRE(index["entries"][plugin.string()]["result"] == json::array({0, results.size()}));
    for (const json& change :
         {json{{"result", {1, results.size()}}}, json{{"result", {results.size() + 1, 0}}}, json{{"result", {0, -1}}},
          json{{"result", {0}}}, json{{"host", 1}}, json{{"host", -1}}, json{{"host", "host"}}}) {
        CAPTURE(change);
        json forged = index;
        forged["entries"][plugin.string()].update(change);
        std::ofstream(file, std::ios::binary) << forged.dump() << '\n' << results;
        CHECK_FALSE(dpbo::ManifestCache(file, "host").find(plugin, kFile, 5.0));
    }
    // And as written, read back (the file was not changed in some other way meanwhile).
    std::ofstream(file, std::ios::binary) << good;
    CHECK(dpbo::ManifestCache(file, "host").find(plugin, kFile, 5.0) == kResult);

    // A cache "directory" that is a regular file: nothing can be written, and nothing is said.
    const fs::path blocked = fs::path(dir.path()) / "blocked";
    std::ofstream(blocked) << "x";
    dpbo::ManifestCache cache(blocked / "cache.json", "host");
    cache.store(plugin, kFile, kResult);
    CHECK_NOTHROW(cache.save());
    CHECK_FALSE(fs::exists(blocked / "cache.json"));
}

TEST_CASE("manifest cache: the location follows XDG_CACHE_HOME, then HOME") {
    const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
    const std::string xdg = saved_xdg != nullptr ? saved_xdg : "";
    const char* saved_home = std::getenv("HOME");
    const std::string home = saved_home != nullptr ? saved_home : "";
    ::setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
    CHECK(dpbo::ManifestCache::default_file() == "/somewhere/cache/dpbo/plugin-manifests-3");
    // The XDG specification: a relative path is ignored.
    ::setenv("XDG_CACHE_HOME", "relative", 1);
    ::setenv("HOME", "/home/someone", 1);
    CHECK(dpbo::ManifestCache::default_file() == "/home/someone/.cache/dpbo/plugin-manifests-3");
    if (saved_xdg != nullptr)
        ::setenv("XDG_CACHE_HOME", xdg.c_str(), 1);
    else
        ::unsetenv("XDG_CACHE_HOME");
    if (saved_home != nullptr)
        ::setenv("HOME", home.c_str(), 1);
    else
        ::unsetenv("HOME");
}

TEST_CASE("manifest JSON: every in-tree manifest survives the round trip, anything else is refused") {
    for (const auto& plugin : dpbo::test::registry().plugins()) {
        CAPTURE(plugin.path);
        const json document = dpbo::manifest_to_json(plugin.manifest);
        CHECK(dpbo::manifest_to_json(dpbo::manifest_from_json(json::parse(document.dump()))) == document);
    }
    const json good = dpbo::manifest_to_json(dpbo::test::registry().require_any("gaussian").manifest);
    CHECK_NOTHROW(dpbo::manifest_from_json(good));
    for (const auto& [pointer, replacement] :
         std::vector<std::pair<std::string, json>>{{"/kind", "gizmo"},
                                                   {"/name", 3},
                                                   {"/schema/0/type", "complex"},
                                                   {"/schema/0/lower_inclusive", "yes"},
                                                   {"/schema/0/default", "one"},
                                                   {"/schema/0/lower", "-infinity"}}) {
        CAPTURE(pointer);
        json bad = good;
        bad[json::json_pointer(pointer)] = replacement;
        CHECK_THROWS(dpbo::manifest_from_json(bad));
    }
    json missing = good;
    missing.erase("schema");
    CHECK_THROWS(dpbo::manifest_from_json(missing));
}
