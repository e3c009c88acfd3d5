// Issue 29's battery, inputs part: every file and line dpbo takes in is read bounded and refused by
// name when it is no regular file; a damaged study file and an empty objective.command are usage
// errors (exit 2); the CLI's messages name the stray word, the empty key and the unknown option.
// DPBO_TEST_EXECUTABLE runs the cases against another build (e.g. main before this change) to see
// which of them it fails.
#include <doctest/doctest.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using dpbo::test::CommandResult;
using dpbo::test::TemporaryDirectory;

std::string executable() {
    const char* other = std::getenv("DPBO_TEST_EXECUTABLE");
    return other != nullptr && *other != '\0' ? other : DPBO_EXECUTABLE;
}

// dpbo with `arguments`; a hang fails the calling case instead of the whole suite.
CommandResult run_dpbo(const std::vector<std::string>& arguments, int timeout_seconds = 20) {
    try {
        return dpbo::test::run_program(executable(), arguments, {}, timeout_seconds);
    } catch (const std::exception& e) {
        FAIL_CHECK(std::string(e.what()));
        return {};
    }
}

// `script` run by /bin/sh with $DPBO naming dpbo: for cases that feed dpbo's standard input.
CommandResult shell(const std::string& script) {
    try {
        return dpbo::test::run_program("/bin/sh", {"-c", script}, {{"DPBO", executable()}}, 30);
    } catch (const std::exception& e) {
        FAIL_CHECK(std::string(e.what()));
        return {};
    }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// stderr holds only text: no control bytes other than newlines and tabs, no invalid UTF-8 lead bytes.
bool printable(const std::string& text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f || byte == 0xff || byte == 0xfe) return false;
    }
    return true;
}

// A usage error (exit 2) whose message names every one of `named`, never a crash or a caught-all.
void check_refused(const CommandResult& result, const std::vector<std::string>& named, int exit_code = 2) {
    CAPTURE(result.err.substr(0, 2000));
    CHECK(result.exit_code == exit_code);
    for (const auto& part : named) CHECK_MESSAGE(contains(result.err, part), part);
    CHECK(printable(result.err));
    CHECK(!contains(result.err, "std::bad_alloc"));
}

void write(const fs::path& file, const std::string& content) { std::ofstream(file, std::ios::binary) << content; }

void make_fifo(const fs::path& file) { REQUIRE(::mkfifo(file.c_str(), 0600) == 0); }

// A 2 MiB file of one line: past every 1 MiB limit.
fs::path two_mib(const fs::path& dir) {
    write(dir / "big.txt", std::string(std::size_t{2} << 20, 'a'));
    return dir / "big.txt";
}

// A study of random search on the quadratic with its first batch handed out (trials 1–10).
std::string asked_study(const fs::path& dir, const std::string& name = "s.study") {
    const std::string study = (dir / name).string();
    REQUIRE(
        run_dpbo({"study", "create", study, "--algorithm", "random-search", "--objective", "quadratic", "--seed", "1"})
            .exit_code == 0);
    REQUIRE(run_dpbo({"ask", study}).exit_code == 0);
    return study;
}

// A finished run's folder.
std::string finished_run(const fs::path& dir) {
    const std::string out = (dir / "run").string();
    REQUIRE(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--seed", "1", "--out", out})
                .exit_code == 0);
    return out;
}

// Runs `statements` on the study file through SQLite, as someone editing it by hand would.
void edit_study(const std::string& study, const std::string& statements) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(study.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &message);
    CAPTURE(message != nullptr ? std::string(message) : std::string());
    sqlite3_free(message);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
}

std::vector<std::string> command_objective(const std::string& command) {
    return {"run", "--algorithm", "random-search", "--objective", "command", "--set", "objective.command=" + command};
}

}  // namespace

TEST_CASE("battery inputs: a FIFO, a device or a folder named as an input file is refused by name, never read") {
    TemporaryDirectory dir;
    const fs::path fifo = fs::path(dir.path()) / "fifo";
    make_fifo(fifo);
    SUBCASE("--config naming a FIFO") {
        check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--config", fifo}),
                      {"--config", fifo.string(), "a FIFO"});
    }
    SUBCASE("study create --space /dev/zero and a FIFO") {
        check_refused(run_dpbo({"study", "create", dir.path() + "/a.study", "--algorithm", "random-search", "--space",
                                "/dev/zero"}),
                      {"--space '/dev/zero'", "character device"});
        check_refused(
            run_dpbo({"study", "create", dir.path() + "/b.study", "--algorithm", "random-search", "--space", fifo}),
            {"--space", "a FIFO"});
        CHECK(!fs::exists(dir.path() + "/a.study"));
    }
    SUBCASE("objective.spec=/dev/zero in one-shot mode") {
        std::vector<std::string> arguments = command_objective("true");
        for (const char* extra : {"--set", "objective.mode=one-shot", "--set", "objective.spec=/dev/zero"})
            arguments.emplace_back(extra);
        check_refused(run_dpbo(arguments), {"spec '/dev/zero'", "character device"});
    }
    SUBCASE("tell --per-record /dev/zero and a FIFO") {
        const std::string study = asked_study(dir.path());
        check_refused(run_dpbo({"tell", study, "1", "--per-record", "/dev/zero"}),
                      {"--per-record '/dev/zero'", "character device"});
        check_refused(run_dpbo({"tell", study, "1", "--per-record", fifo}), {"--per-record", "a FIFO"});
    }
    SUBCASE("a run's --out whose job.json is a FIFO") {
        fs::create_directories(dir.path() + "/out");
        make_fifo(dir.path() + "/out/job.json");
        check_refused(
            run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--out", dir.path() + "/out"}),
            {"job.json", "a FIFO"});
    }
    SUBCASE("a report of a folder whose trace.csv is /dev/zero") {
        const std::string run = finished_run(dir.path());
        fs::remove(run + "/trace.csv");
        fs::create_symlink("/dev/zero", run + "/trace.csv");
        check_refused(run_dpbo({"report", run, "--out", dir.path() + "/report.html"}),
                      {"trace.csv", "character device"});
    }
    SUBCASE("report --out naming a FIFO is refused, not replaced by a rename") {
        const std::string run = finished_run(dir.path());
        check_refused(run_dpbo({"report", run, "--out", fifo}), {"--out", "a FIFO"});
        struct stat status {};
        REQUIRE(::stat(fifo.c_str(), &status) == 0);
        CHECK(S_ISFIFO(status.st_mode));
    }
}

TEST_CASE("battery inputs: reads stop at their limit, and the message names the input, the limit and how to raise it") {
    TemporaryDirectory dir;
    SUBCASE("--config, --space and objective.spec of 2 MiB: a fixed limit of 1 MiB") {
        const fs::path big = two_mib(dir.path());
        check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--config", big}),
                      {"--config", "longer than 1 MiB", "a fixed limit"});
        check_refused(
            run_dpbo({"study", "create", dir.path() + "/a.study", "--algorithm", "random-search", "--space", big}),
            {"--space", "longer than 1 MiB", "a fixed limit"});
        std::vector<std::string> arguments = command_objective("true");
        for (const std::string& extra :
             std::vector<std::string>{"--set", "objective.mode=one-shot", "--set", "objective.spec=" + big.string()})
            arguments.push_back(extra);
        check_refused(run_dpbo(arguments), {"spec", "longer than 1 MiB"});
    }
    SUBCASE("tell --per-record from a 3 MB file and from standard input") {
        const std::string study = asked_study(dir.path());
        std::string padded(3000000, ' ');
        padded.front() = '[';
        padded.back() = ']';
        write(dir.path() + "/values.json", padded);
        check_refused(run_dpbo({"tell", study, "1", "--per-record", dir.path() + "/values.json"}),
                      {"--per-record", "longer than 1 MiB", "32 bytes for each of the study's 0 records"});
        check_refused(shell("head -c 3000000 /dev/zero | \"$DPBO\" tell '" + study + "' 1 --per-record -"),
                      {"--per-record - (standard input)", "longer than 1 MiB"});
    }
    SUBCASE("curator answer fed a 17 MiB request line answers an error and goes on serving") {
        write(dir.path() + "/rows.csv", "x,y,worth\n0,0,1\n1,0,2\n0,1,3\n");
        const std::string curator = "\"$DPBO\" curator answer --objective table --set objective.file='" + dir.path() +
                                    "/rows.csv' --set objective.columns=x,y --set objective.response=worth --set "
                                    "objective.bounds=0:1,0:1 --seed 1";
        const auto session =
            shell("{ head -c 17825792 /dev/zero | tr '\\0' x; echo; echo '{\"rows\":[2]}'; } | " + curator);
        CAPTURE(session.err);
        REQUIRE(session.exit_code == 0);
        std::istringstream lines(session.out);
        std::string handshake, refused, served;
        std::getline(lines, handshake);
        std::getline(lines, refused);
        std::getline(lines, served);
        CHECK(nlohmann::json::parse(handshake)["rows"] == 3);
        const auto error = nlohmann::json::parse(refused);
        REQUIRE(error.contains("error"));
        CHECK(contains(error["error"].get<std::string>(), "request on line 1 is longer than 16 MiB"));
        CHECK(nlohmann::json::parse(served)["values"] == nlohmann::json::array({3.0}));
    }
    SUBCASE("an objective program answering with a line past its limit: the limit scales with what was asked") {
        const std::string hello =
            R"(echo '{"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":0,"upper":1}],)"
            R"("outputs":[{"name":"value","sense":"minimise"}]}'; )";
        check_refused(run_dpbo(command_objective(hello + "read l; head -c 17825792 /dev/zero | tr '\\0' 1")),
                      {"wrote a line longer than 16777536 bytes",
                       "16 MiB plus 32 bytes for each of the 10 numbers asked for", "answer"},
                      1);
    }
    SUBCASE("an objective program's 50 MB of stderr: only its end is read and quoted") {
        const auto result =
            run_dpbo(command_objective("head -c 50000000 /dev/zero | tr '\\0' e >&2; echo ' last words' >&2; exit 3"));
        check_refused(result, {"exited with status 3", "last words"}, 1);
        CHECK(result.err.size() < 4000);
    }
}

TEST_CASE("battery inputs: a damaged study file is bad input, exit 2 naming the file and what is wrong") {
    TemporaryDirectory dir;
    const std::string study = asked_study(dir.path());
    const auto refused_by_each_command = [&](const std::vector<std::string>& named) {
        for (const std::vector<std::string>& command :
             {std::vector<std::string>{"ask", study}, std::vector<std::string>{"study", "show", study}}) {
            CAPTURE(command.front());
            std::vector<std::string> parts = named;
            parts.push_back(study);
            check_refused(run_dpbo(command), parts);
        }
    };
    SUBCASE("a page overwritten: SQLite's 'database disk image is malformed'") {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open_v2(study.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE);", nullptr, nullptr, nullptr) == SQLITE_OK);
        const auto number = [&](const char* sql) {
            sqlite3_stmt* statement = nullptr;
            REQUIRE(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK);
            REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
            const auto value = sqlite3_column_int64(statement, 0);
            sqlite3_finalize(statement);
            return value;
        };
        const auto root = number("SELECT rootpage FROM sqlite_schema WHERE name = 'trials'");
        const auto page_size = number("PRAGMA page_size");
        sqlite3_close(db);
        std::fstream file(study, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp((root - 1) * page_size);
        const std::string garbage(static_cast<std::size_t>(page_size), '\xaa');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
        file.close();
        refused_by_each_command({"damaged", "malformed"});
    }
    SUBCASE("its tables altered: a column renamed") {
        edit_study(study,
                   "PRAGMA writable_schema=ON; UPDATE sqlite_schema SET sql = replace(sql, 'per_record INTEGER', "
                   "'per_recorx INTEGER') WHERE name = 'batches';");
        refused_by_each_command({"damaged", "no such column"});
    }
    SUBCASE("a trial's point changed: the study no longer matches its replay") {
        edit_study(study, "UPDATE trials SET point = zeroblob(16) WHERE id = 1;");
        refused_by_each_command({"does not match its own replay"});
    }
    SUBCASE("its job record without the algorithm's name") {
        edit_study(study, "UPDATE meta SET value = '{}' WHERE key = 'job';");
        refused_by_each_command({"damaged"});
    }
    SUBCASE("its spec record holding binary bytes: quoted escaped, never raw") {
        edit_study(study, "UPDATE meta SET value = CAST(x'7b22616ce70122' AS TEXT) WHERE key = 'spec';");
        refused_by_each_command({"damaged", "\\xe7"});
    }
    SUBCASE("its plugin_files record not JSON") {
        edit_study(study, "UPDATE meta SET value = '[\"unterminated' WHERE key = 'plugin_files';");
        refused_by_each_command({"damaged", "plugin_files"});
    }
}

TEST_CASE("battery inputs: an empty objective.command is refused naming the key (exit 2)") {
    TemporaryDirectory dir;
    check_refused(run_dpbo(command_objective("")), {"objective 'command'", "command = ''", "names no program"});
    check_refused(run_dpbo(command_objective("  ")), {"command = '  '", "names no program"});
    write(dir.path() + "/z.csv", "z0,z1\n0.1,0.2\n0.3,0.4\n");
    check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "curator", "--set",
                            "objective.candidates=" + dir.path() + "/z.csv", "--set", "objective.command="}),
                  {"objective 'curator'", "command = ''", "names no program"});
}

TEST_CASE("battery inputs: the CLI names the stray word, the empty key and the unknown option") {
    TemporaryDirectory dir;
    check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "stray"}),
                  {"dpbo run", "unexpected argument 'stray'", "options only"});
    check_refused(run_dpbo({"tell", "s.study", "1", "extra"}),
                  {"dpbo tell", "unexpected argument 'extra'", "at most 2 arguments (study, id)"});
    check_refused(run_dpbo({"info", "gaussian", "laplace"}), {"unexpected argument 'laplace'", "at most 1 argument"});
    check_refused(run_dpbo({"list", "algorithms"}), {"unexpected argument 'algorithms'"});
    check_refused(run_dpbo({"summary", dir.path(), "second"}), {"unexpected argument 'second'"});
    check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--set", "=5"}),
                  {"--set '=5'", "names no key", "ROLE.KEY=VALUE"});
    check_refused(run_dpbo({"run", "--help", "--frobnicate"}), {"unknown option '--frobnicate'", "--ROLE MODULE"});
    check_refused(run_dpbo({"run", "--algorithm", "random-search", "--objective", "quadratic", "--budgte", "1"}),
                  {"unknown option '--budgte'", "did you mean '--budget'"});
}
