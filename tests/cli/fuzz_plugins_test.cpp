// Misbehaving plugin files, table-driven: each is refused by path with a reason that says what is
// wrong, and none takes `dpbo list` down or hides a good module; modules that crash or throw what
// is not a std::exception while running end the run naming themselves, their file and the signal
// or exception. The hostile plugins are built by tests/broken_plugins; the files that are not
// plugins at all (a truncated copy, a directory, a FIFO, links) are made here.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Short, so the plugin whose schema() never returns costs the suite little; long enough that a good
// plugin's probe finishes on a loaded machine.
constexpr const char* kProbeSeconds = "2";

std::string resolved(const fs::path& path) { return fs::weakly_canonical(path).string(); }

// A plugin is named by its canonical path; what is not a regular file by the path it was found at.
std::string listed_as(const fs::path& path) {
    std::error_code ec;
    return fs::symlink_status(path, ec).type() == fs::file_type::regular ? resolved(path) : path.string();
}

fs::path hostile(const std::string& stem) { return fs::path(DPBO_TEST_HOSTILE_PLUGIN_DIR) / (stem + ".so"); }

// Files named *.so that are not plugins, made as a user might have made them by mistake.
struct OddFiles {
    TemporaryDirectory dir;
    bool permissions_apply = ::geteuid() != 0;

    OddFiles() {
        const fs::path base(dir.path());
        const fs::path real = fs::path(DPBO_TEST_PLUGIN_DIR) / "mechanism-laplace.so";
        // As in the issue: head -c 4096 mechanism-laplace.so > x.so (SIGBUS when dlopen-ed).
        const auto head = dpbo::test::run_program("/usr/bin/head", {"-c", "4096", real.string()}, {}, 30);
        REQUIRE(head.exit_code == 0);
        std::ofstream(base / "truncated.so", std::ios::binary) << head.out;
        fs::create_directory(base / "directory.so");
        REQUIRE(::mkfifo((base / "fifo.so").c_str(), 0600) == 0);
        fs::create_symlink(base / "loop-b.so", base / "loop-a.so");
        fs::create_symlink(base / "loop-a.so", base / "loop-b.so");
        fs::create_symlink("/dev/zero", base / "zero.so");
        fs::create_symlink(base / "missing.so", base / "dangling.so");
        fs::copy_file(real, base / "unreadable.so");
        fs::permissions(base / "unreadable.so", fs::perms::none);
    }

    fs::path path(const std::string& name) const { return fs::path(dir.path()) / name; }
};

struct RefusalCase {
    fs::path file;
    std::string reason;  // a part of the reason that says what is wrong
};

std::vector<RefusalCase> refusal_cases(const OddFiles& odd) {
    std::vector<RefusalCase> cases = {
        {odd.path("truncated.so"),
         "truncated: 4096 bytes, its ELF headers need " +
             std::to_string(fs::file_size(fs::path(DPBO_TEST_PLUGIN_DIR) / "mechanism-laplace.so"))},
        {odd.path("directory.so"), "a directory, not a shared library"},
        {odd.path("fifo.so"), "a FIFO (named pipe), not a shared library"},
        {odd.path("loop-a.so"), "a symbolic link loop"},
        {odd.path("loop-b.so"), "a symbolic link loop"},
        {odd.path("zero.so"), "a character device (a symbolic link to '/dev/zero')"},
        {odd.path("dangling.so"), "a dangling symbolic link: its target '" + odd.path("missing.so").string()},
        {fs::path(DPBO_TEST_BROKEN_PLUGIN_DIR) / "broken-null_manifest.so", "manifest function is a null pointer"},
        {hostile("hostile-initialiser_throws"),
         "its static initialiser threw std::runtime_error: static initialiser throws"},
        {hostile("hostile-initialiser_segfaults"),
         "crashed with SIGSEGV (Segmentation fault) while running its static initialisers"},
        {hostile("hostile-initialiser_aborts"), "crashed with SIGABRT (Aborted) while running its static initialisers"},
        {hostile("hostile-initialiser_exits"),
         "exited while loading (exit status 0, while running its static initialisers (loading the library))"},
        {hostile("hostile-schema_never_returns"),
         std::string("timed out after ") + kProbeSeconds + " s while reading its manifest"},
    };
    if (odd.permissions_apply) cases.push_back({odd.path("unreadable.so"), "cannot read: permission denied"});
    return cases;
}

std::vector<std::string> list_arguments(const OddFiles& odd, bool json) {
    std::vector<std::string> arguments = {"list",
                                          "--plugin-path",
                                          odd.dir.path(),
                                          "--plugin-path",
                                          DPBO_TEST_HOSTILE_PLUGIN_DIR,
                                          "--plugin-path",
                                          DPBO_TEST_BROKEN_PLUGIN_DIR};
    if (json) arguments.push_back("--json");
    return arguments;
}

}  // namespace

TEST_CASE(
    "fuzz plugins: dpbo list over every kind of broken file lists every good module and refuses each file "
    "by path with its reason") {
    const OddFiles odd;
    const TemporaryDirectory cache;  // a cold cache: every file is probed
    const std::map<std::string, std::string> environment = {{"DPBO_PROBE_TIMEOUT", kProbeSeconds},
                                                            {"XDG_CACHE_HOME", cache.path()}};
    const auto listed = run_dpbo(list_arguments(odd, true), environment, 60);
    REQUIRE_MESSAGE(listed.exit_code == 0, listed.err);
    const auto out = nlohmann::json::parse(listed.out);

    std::set<std::string> modules;
    for (const auto& m : out["modules"]) modules.insert(m["name"].get<std::string>());
    for (const auto* name : {"branin", "rosenbrock", "gaussian", "laplace", "random-search", "gp-ucb", "gdp",
                             "extra-sphere", "exploding-objective", "int-throwing-objective", "aborting-objective",
                             "null-dereferencing-objective", "crashing-constructor-objective", "load-logging-sphere"}) {
        CAPTURE(name);
        CHECK(modules.count(name) == 1);
    }
    std::map<std::string, std::string> refused;
    for (const auto& r : out["refused"]) refused[r["file"].get<std::string>()] = r["reason"].get<std::string>();
    for (const auto& c : refusal_cases(odd)) {
        const std::string file = listed_as(c.file);
        CAPTURE(file);
        REQUIRE(refused.count(file) == 1);
        CHECK_MESSAGE(contains(refused[file], c.reason), refused[file]);
    }

    // The text listing: each refused file by path, its reason under it.
    const auto text = run_dpbo(list_arguments(odd, false), environment, 60);
    CHECK(text.exit_code == 0);
    for (const auto& c : refusal_cases(odd)) {
        const std::string file = listed_as(c.file);
        CHECK_MESSAGE(contains(text.out, "  " + file + "\n    "), file);
    }
    // Warm, from the cache, the same answer.
    const auto again = run_dpbo(list_arguments(odd, true), environment, 60);
    CHECK(again.out == listed.out);
}

TEST_CASE("fuzz plugins: a corrupt or unwritable manifest cache changes nothing and says nothing") {
    const OddFiles odd;
    const TemporaryDirectory cache;
    const std::map<std::string, std::string> environment = {{"DPBO_PROBE_TIMEOUT", kProbeSeconds},
                                                            {"XDG_CACHE_HOME", cache.path()}};
    const auto reference = run_dpbo({"list", "--json", "--plugin-path", DPBO_TEST_BROKEN_PLUGIN_DIR}, environment);
    REQUIRE(reference.exit_code == 0);
    const fs::path file = fs::path(cache.path()) / "dpbo" / "plugin-manifests-3";
    REQUIRE(fs::exists(file));
    for (const std::string& garbage : {std::string("{\"format\": 1, \"entries\": {\"x\": "), std::string("\x7f"
                                                                                                         "ELF\0\1",
                                                                                                         6)}) {
        std::ofstream(file, std::ios::binary) << garbage;
        const auto r = run_dpbo({"list", "--json", "--plugin-path", DPBO_TEST_BROKEN_PLUGIN_DIR}, environment);
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(r.out == reference.out);
    }
    // A cache location where no directory can be made (it is a file): nothing is written, nothing said.
    const auto unwritable = run_dpbo({"list", "--json", "--plugin-path", DPBO_TEST_BROKEN_PLUGIN_DIR},
                                     {{"XDG_CACHE_HOME", odd.path("truncated.so").string()}});
    CHECK(unwritable.exit_code == 0);
    CHECK(unwritable.err.empty());
    CHECK(unwritable.out == reference.out);
}

TEST_CASE("fuzz plugins: a cache entry is not believed blindly: a module is checked against its file when made") {
    const TemporaryDirectory cache;
    const std::map<std::string, std::string> environment = {{"XDG_CACHE_HOME", cache.path()}};
    REQUIRE(run_dpbo({"list"}, environment).exit_code == 0);
    const fs::path file = fs::path(cache.path()) / "dpbo" / "plugin-manifests-3";
    std::stringstream read;
    read << std::ifstream(file, std::ios::binary).rdbuf();
    const std::string text = read.str();
    // The cache is an index line, then each probe's result as JSON text at the offset the index
    // gives; the index names the module beside it. Both are forged: the result appended anew.
    const std::size_t line_end = text.find('\n');
    REQUIRE(line_end != std::string::npos);
    auto index = nlohmann::json::parse(text.substr(0, line_end));
    std::string results = text.substr(line_end + 1);
    const std::string branin = resolved(fs::path(DPBO_TEST_PLUGIN_DIR) / "objective-branin.so");
    REQUIRE(index["entries"].contains(branin));
    auto& entry = index["entries"][branin];
    auto result = nlohmann::json::parse(results.substr(entry["result"][0], entry["result"][1]));
    REQUIRE(result["manifest"]["name"] == "branin");
    result["manifest"]["name"] = "impostor";
    const std::string forged = result.dump();
    entry["result"] = {results.size(), forged.size()};
    entry["module"] = "impostor";
    std::ofstream(file, std::ios::binary) << index.dump() << '\n' << results << forged;

    const auto listed = run_dpbo({"list"}, environment);
    CHECK(contains(listed.out, "impostor"));
    TemporaryDirectory out;
    const auto r =
        run_dpbo({"run", "--algorithm", "random-search", "--objective", "impostor", "--seed", "1", "--out", out.path()},
                 environment);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, branin + " declares objective 'branin' when loaded into dpbo, but its probe read objective "
                                   "'impostor'"));
}

TEST_CASE("fuzz plugins: a run loads only the modules it uses, list loads none") {
    TemporaryDirectory scratch;
    const TemporaryDirectory cache;
    const std::string log = (fs::path(scratch.path()) / "loads.txt").string();
    const std::map<std::string, std::string> environment = {
        {"DPBO_PROBE_TIMEOUT", kProbeSeconds}, {"XDG_CACHE_HOME", cache.path()}, {"DPBO_TEST_LOAD_LOG", log}};
    const auto lines = [&] {
        std::vector<std::pair<long, long>> out;  // pid, parent pid of each process that loaded the plugin
        std::ifstream in(log);
        for (long pid = 0, parent = 0; in >> pid >> parent;) out.emplace_back(pid, parent);
        std::filesystem::remove(log);
        return out;
    };
    const long me = ::getpid();

    const auto listed = run_dpbo({"list", "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR}, environment, 60);
    REQUIRE(listed.exit_code == 0);
    CHECK(contains(listed.out, "load-logging-sphere"));
    const auto probed = lines();
    CHECK(probed.size() == 1);  // by its probe, a child of dpbo, not by dpbo (a child of this test)
    for (const auto& [pid, parent] : probed) CHECK(parent != me);

    // Every hostile plugin is in the search path; the run uses none of them.
    TemporaryDirectory out;
    const auto unrelated = run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--seed", "3",
                                     "--out", out.path(), "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                    environment, 60);
    CHECK_MESSAGE(unrelated.exit_code == 0, unrelated.err);
    CHECK(lines().empty());

    TemporaryDirectory out2;
    const auto used = run_dpbo({"run", "--algorithm", "random-search", "--objective", "load-logging-sphere", "--seed",
                                "3", "--out", out2.path(), "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR},
                               environment, 60);
    CHECK_MESSAGE(used.exit_code == 0, used.err);
    const auto loaded = lines();
    REQUIRE(loaded.size() == 1);  // the cache is warm: no probe, and dpbo itself loaded it once
    CHECK(loaded[0].second == me);

    const auto info =
        run_dpbo({"info", "load-logging-sphere", "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR}, environment, 60);
    CHECK(info.exit_code == 0);
    CHECK(lines().empty());
}

TEST_CASE("fuzz plugins: a module that throws a non-std exception or crashes while running is named with its file") {
    struct RunCase {
        std::string objective;
        std::string file;
        int exit_code;
        std::string message;  // after "<module> (from <file>)"
        std::string signal;   // the fatal signal the module raised, if any
    };
    const std::vector<RunCase> cases = {
        {"int-throwing-objective", "hostile-evaluate_throws_int", 1,
         " failed while evaluating points: a non-standard exception of type 'int'", ""},
        {"aborting-objective", "hostile-evaluate_aborts", 1, " while evaluating points; the process stops", "SIGABRT"},
        {"null-dereferencing-objective", "hostile-evaluate_null_dereference", 1,
         " while evaluating points; the process stops", "SIGSEGV"},
        {"crashing-constructor-objective", "hostile-constructor_null_dereference", 1,
         " while being created (its constructor); the process stops", "SIGSEGV"},
        {"int-throwing-reference-objective", "hostile-reference_values_throws_int", 1,
         " failed while computing its reference values: a non-standard exception of type 'int'", ""},
        {"aborting-destructor-objective", "hostile-destructor_aborts", 1,
         " while being destroyed (its destructor); the process stops", "SIGABRT"},
    };
    const std::map<std::string, std::string> environment = {{"DPBO_PROBE_TIMEOUT", kProbeSeconds}};
    for (const auto& c : cases) {
        CAPTURE(c.objective);
        TemporaryDirectory out;
        const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", c.objective, "--seed", "1",
                                 "--out", out.path(), "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                environment, 60);
        CHECK(r.exit_code == c.exit_code);
        const std::string who = "objective '" + c.objective + "' (from " + resolved(hostile(c.file)) + ")";
        CHECK_MESSAGE(contains(r.err, who + c.message), r.err);
        CHECK_FALSE(contains(r.err, "terminate called"));
        if (!c.signal.empty()) {
            // The guard names the module, then the run stops with exit status 1 instead of the signal.
            CHECK(contains(r.err, "dpbo: fatal signal " + c.signal));
            CHECK(contains(r.err, "dpbo: stopped by " + c.signal + " (exit status 1)"));
        }
    }
}

TEST_CASE("fuzz plugins: an accountant or mechanism that fails outside a run's algorithm is named with its file") {
    const std::map<std::string, std::string> environment = {{"DPBO_PROBE_TIMEOUT", kProbeSeconds}};
    const std::string accountant =
        "accountant 'int-throwing-accountant' (from " + resolved(hostile("hostile-accountant_throws_int")) + ")";
    SUBCASE("dpbo account") {
        const auto r = run_dpbo({"account", "--accountant", "int-throwing-accountant", "--mu", "1", "--plugin-path",
                                 DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                environment, 60);
        CHECK(r.exit_code == 1);
        CHECK_MESSAGE(contains(r.err, accountant + " failed while composing the events: a non-standard exception of "
                                                   "type 'int'"),
                      r.err);
    }
    SUBCASE("a run's privacy ledger") {
        TemporaryDirectory out;
        const auto r = run_dpbo({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--accountant",
                                 "int-throwing-accountant", "--set", "algorithm.iterations=2", "--seed", "1", "--out",
                                 out.path(), "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                environment, 60);
        CHECK(r.exit_code == 1);
        CHECK_MESSAGE(contains(r.err, accountant + " failed while composing a release: a non-standard exception of "
                                                   "type 'int'"),
                      r.err);
        CHECK_FALSE(contains(r.err, "terminate called"));
    }
    SUBCASE("dpbo audit") {
        const auto r = run_dpbo({"audit", "--mechanism", "segfaulting-mechanism", "--runs", "10", "--plugin-path",
                                 DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                environment, 60);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "dpbo: stopped by SIGSEGV (exit status 1)"));
        const std::string mechanism =
            "mechanism 'segfaulting-mechanism' (from " + resolved(hostile("hostile-mechanism_segfaults")) + ")";
        CHECK(contains(r.err, "dpbo: fatal signal SIGSEGV"));
        CHECK_MESSAGE(contains(r.err, " in " + mechanism + " while being audited; the process stops"), r.err);
    }
}

TEST_CASE("fuzz plugins: DPBO_PROBE_TIMEOUT that is not a number of seconds is refused, naming it") {
    for (const auto* bad : {"abc", "-5", "0", ""}) {
        CAPTURE(bad);
        const auto r = run_dpbo({"list"}, {{"DPBO_PROBE_TIMEOUT", bad}});
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "DPBO_PROBE_TIMEOUT='" + std::string(bad) + "' is not a time limit"));
    }
}
