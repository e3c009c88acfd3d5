// Issue 29's battery: a finished results folder that another user may only read, run again by that
// user, was refused ("cannot open the lock file …/job.lock: Permission denied"). Now a finished job
// in a folder this user may not write is reported from its results, without the lock and without
// writing anything (exit 0); an unfinished one is refused naming the folder and that it is read-only
// (exit 2). Run as root, where permissions do not bite, dpbo runs as user nobody (setpriv), which is
// the case in the battery: another user.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr const char* kSetpriv = "/usr/bin/setpriv";

// Every file under `folder` with its modification time, to show that nothing was written.
std::map<std::string, fs::file_time_type> snapshot(const fs::path& folder) {
    std::map<std::string, fs::file_time_type> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        files[entry.path().string()] = fs::last_write_time(entry.path());
    return files;
}

std::vector<std::string> job(const fs::path& out) {
    return {"run",    "--algorithm", "random-search", "--objective", "branin", "--repeat", "2",
            "--seed", "1",           "--out",         out.string()};
}

// The job run by a user who may read the folders but not write them: nobody when this test runs as
// root, else this user with the folders' write permission taken away (by the caller).
dpbo::test::CommandResult run_as_reader(const std::vector<std::string>& arguments, const fs::path& cache) {
    const std::map<std::string, std::string> environment = {
        {"DPBO_PLUGIN_PATH", ""}, {"HOME", cache.string()}, {"XDG_CACHE_HOME", cache.string()}};
    if (::geteuid() != 0) return run_dpbo(arguments, environment, 60);
    std::vector<std::string> as_nobody = {"--reuid=65534", "--regid=65534", "--clear-groups", DPBO_EXECUTABLE};
    as_nobody.insert(as_nobody.end(), arguments.begin(), arguments.end());
    return dpbo::test::run_program(kSetpriv, as_nobody, environment, 60);
}

void make_read_only(const fs::path& folder) {
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        if (entry.is_directory()) fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::remove);
    fs::permissions(folder, fs::perms::owner_write, fs::perm_options::remove);
}

}  // namespace

TEST_CASE("battery proc: a finished read-only results folder is reported, an unfinished one refused by name") {
    if (::geteuid() == 0 && ::access(kSetpriv, X_OK) != 0) {
        MESSAGE("skipped: running as root, where permissions do not bite, and setpriv is missing to run as nobody");
        return;
    }
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    // Readable by another user all the way down (the temporary folder is the owner's only).
    fs::permissions(root, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    const fs::path cache = root / "reader-cache";
    fs::create_directories(cache);
    fs::permissions(cache, fs::perms::all);

    const fs::path finished = root / "finished";
    REQUIRE(run_dpbo(job(finished)).exit_code == 0);
    const fs::path unfinished = root / "unfinished";
    REQUIRE(run_dpbo(job(unfinished)).exit_code == 0);
    fs::remove_all(unfinished / "repeat-002");
    if (::geteuid() != 0) {
        make_read_only(finished);
        make_read_only(unfinished);
    }
    const auto before = snapshot(finished);

    const auto reported = run_as_reader(job(finished), cache);
    CHECK_MESSAGE(reported.exit_code == 0, reported.err);
    CHECK(contains(reported.out, "repeat 1/2 (kept)"));
    CHECK(contains(reported.out, "repeat 2/2 (kept)"));
    CHECK(contains(reported.out, "the folder is read-only: reported, nothing written"));
    CHECK(contains(reported.out, "privacy: not private (from the kept results)"));
    CHECK(snapshot(finished) == before);

    const auto refused = run_as_reader(job(unfinished), cache);
    CHECK(refused.exit_code == 2);
    CHECK_MESSAGE(contains(refused.err, "--out '" + unfinished.string() +
                                            "' is read-only (this user may not write "
                                            "it: Permission denied) and its job is not "
                                            "finished: 1 of its 2 repeats has no result "
                                            "(repeat 2); nothing was run"),
                  refused.err);
    CHECK_FALSE(fs::exists(unfinished / "repeat-002"));

    if (::geteuid() != 0) {
        // Give the folders back to the temporary directory's removal.
        for (const fs::path& folder : {finished, unfinished})
            for (const auto& entry : fs::recursive_directory_iterator(folder))
                fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        fs::permissions(finished, fs::perms::owner_write, fs::perm_options::add);
        fs::permissions(unfinished, fs::perms::owner_write, fs::perm_options::add);
    }
}
