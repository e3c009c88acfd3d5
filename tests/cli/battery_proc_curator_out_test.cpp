// Issue 29's battery: `dpbo curator release --out DIR` overwrote the user's own
// DIR/released_rows.csv. A release now goes into a new or empty folder only: a folder holding
// anything (the user's file, an earlier release) is refused by name with exit 2 before anything is
// released, and left as it was; the temporaries of a release killed while writing do not count.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

dpbo::test::CommandResult release_into(const fs::path& out) {
    return run_dpbo({"curator", "release", "--objective", "loan-roi", "--seed", "2", "--out", out.string()}, {}, 60);
}

}  // namespace

TEST_CASE("battery proc: curator release never writes over a file it did not write nor an earlier release") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();

    SUBCASE("the user's own released_rows.csv") {
        const fs::path out = root / "mine";
        fs::create_directories(out);
        std::ofstream(out / "released_rows.csv") << "the user's own rows\n";
        const auto r = release_into(out);
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(contains(r.err, "--out '" + out.string() + "' is not empty: it holds " +
                                          (out / "released_rows.csv").string()),
                      r.err);
        CHECK(contains(r.err, "nothing was released"));
        CHECK(read_text(out / "released_rows.csv") == "the user's own rows\n");
        CHECK_FALSE(fs::exists(out / "release.json"));
        CHECK_FALSE(fs::exists(out / "curator_only.json"));
    }
    SUBCASE("an earlier release") {
        const fs::path out = root / "earlier";
        REQUIRE(release_into(out).exit_code == 0);
        const std::string rows = read_text(out / "released_rows.csv");
        const auto again = release_into(out);
        CHECK(again.exit_code == 2);
        CHECK(contains(again.err, (out / "release.json").string()));
        CHECK(read_text(out / "released_rows.csv") == rows);
    }
    SUBCASE("a new folder, an empty one, and one holding only a killed release's temporary") {
        CHECK(release_into(root / "new").exit_code == 0);
        fs::create_directories(root / "empty");
        CHECK(release_into(root / "empty").exit_code == 0);
        fs::create_directories(root / "killed");
        std::ofstream(root / "killed" / "released_rows.csv.tmp.Ab3dE9") << "half a release";
        const auto r = release_into(root / "killed");
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        CHECK_FALSE(fs::exists(root / "killed" / "released_rows.csv.tmp.Ab3dE9"));
        for (const char* name : {"new", "empty", "killed"}) {
            CAPTURE(name);
            CHECK(fs::exists(root / name / "released_rows.csv"));
            CHECK(fs::exists(root / name / "release.json"));
        }
    }
    SUBCASE("a file where the folder should be") {
        std::ofstream(root / "a-file") << "x";
        const auto r = release_into(root / "a-file");
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "exists and is not a folder"));
    }
}
