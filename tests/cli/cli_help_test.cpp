// Help at every level of the `dpbo` command. The commands and subcommands come from the binary itself
// (`dpbo help --list`, read from its table of commands), so a new command is checked here without
// editing this file. Help is asked of a copy of the executable in a folder with no plugin beside it,
// and of files that do not exist: answering --help must need neither.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

using dpbo::test::CommandResult;
using dpbo::test::run_dpbo;
using dpbo::test::run_program;
using dpbo::test::TemporaryDirectory;

namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string word; in >> word;) out.push_back(word);
    return out;
}

// Every command path ("list", "study", "study create", ...), as the binary lists them.
std::vector<std::string> command_paths() {
    const CommandResult listed = run_dpbo({"help", "--list"});
    REQUIRE(listed.exit_code == 0);
    std::vector<std::string> paths = lines(listed.out);
    REQUIRE(!paths.empty());
    return paths;
}

// The subcommands of `path` among `paths` (none: a command that runs); of "", the top-level commands.
std::vector<std::string> children(const std::vector<std::string>& paths, const std::string& path) {
    const std::string prefix = path.empty() ? "" : path + " ";
    std::vector<std::string> out;
    for (const std::string& p : paths)
        if (p.rfind(prefix, 0) == 0 && p.find(' ', prefix.size()) == std::string::npos)
            out.push_back(p.substr(prefix.size()));
    return out;
}

// The names listed under `heading` ("commands:") of a usage text, up to the next blank line.
std::vector<std::string> listed_under(const std::string& usage, const std::string& heading) {
    std::vector<std::string> names;
    bool inside = false;
    for (const std::string& line : lines(usage)) {
        if (line == heading) {
            inside = true;
        } else if (inside && line.empty()) {
            break;
        } else if (inside) {
            names.push_back(words(line).front());
        }
    }
    return names;
}

// A line that starts "usage: dpbo PATH" and then ends or goes on after a space.
bool has_usage_line(const std::string& out, const std::string& path) {
    const std::string start = "usage: dpbo " + path;
    for (const std::string& line : lines(out))
        if (line.rfind(start, 0) == 0 && (line.size() == start.size() || line[start.size()] == ' ')) return true;
    return false;
}

// An indented line that starts with an option, "  --kind arg ...".
bool has_option_line(const std::string& out) {
    const std::vector<std::string> all = lines(out);
    return std::any_of(all.begin(), all.end(), [](const std::string& line) {
        const std::size_t first = line.find_first_not_of(' ');
        return first != std::string::npos && first > 0 && line.compare(first, 2, "--") == 0 && line.size() > first + 2;
    });
}

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The executable in a tree of its own: bin/dpbo and links to the build's libraries in lib/ (the
// launcher loads its commands from there), but no plugin under lib/dpbo/plugins and none on
// DPBO_PLUGIN_PATH.
class LoneExecutable {
public:
    LoneExecutable() : program_(fs::path(folder_.path()) / "bin" / "dpbo") {
        fs::create_directories(program_.parent_path());
        fs::copy_file(DPBO_EXECUTABLE, program_);
        dpbo::test::link_build_libraries((fs::path(folder_.path()) / "lib").string(), "lib");
    }
    CommandResult run(const std::vector<std::string>& arguments) const {
        return run_program(program_.string(), arguments, {{"DPBO_PLUGIN_PATH", ""}}, 60);
    }

private:
    TemporaryDirectory folder_;
    fs::path program_;
};

}  // namespace

TEST_CASE("cli help: 'dpbo --help', 'dpbo -h' and 'dpbo help' list every command 'dpbo help --list' names") {
    const std::vector<std::string> top = children(command_paths(), "");
    CHECK(top.size() >= 11);
    for (const std::vector<std::string>& asked : std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
        CAPTURE(asked.front());
        const CommandResult r = run_dpbo(asked);
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(has_usage_line(r.out, "<command>"));
        CHECK(listed_under(r.out, "commands:") == top);
    }
    const CommandResult version = run_dpbo({"--version"});
    CHECK(version.exit_code == 0);
    CHECK(version.out.rfind("dpbo ", 0) == 0);
}

TEST_CASE(
    "cli help: every command and subcommand answers --help, -h and 'dpbo help' with exit 0, its usage and its "
    "options, with no plugin to load") {
    const std::vector<std::string> paths = command_paths();
    const LoneExecutable dpbo;
    for (const std::string& path : paths) {
        const std::vector<std::string> subcommands = children(paths, path);
        for (const std::vector<std::string>& asked :
             {plus(words(path), {"--help"}), plus(words(path), {"-h"}), plus({"help"}, words(path))}) {
            CAPTURE(path);
            CAPTURE(asked.back());
            const CommandResult r = dpbo.run(asked);
            CHECK(r.exit_code == 0);
            CHECK(r.err == "");
            CHECK(has_usage_line(r.out, path));
            if (subcommands.empty()) {
                CHECK(has_option_line(r.out));
                CHECK(contains(r.out, "--help"));
            } else {
                CHECK(listed_under(r.out, "subcommands:") == subcommands);
            }
        }
    }
}

TEST_CASE("cli help: --help after other options and arguments, naming files and modules that do not exist") {
    const LoneExecutable dpbo;
    const std::vector<std::vector<std::string>> asked = {
        {"run", "--algorithm", "no-such-algorithm", "--objective", "branin", "--surrogate", "gp", "--help"},
        {"study", "create", "/no/such/folder/s.db", "--algorithm", "gp-ucb", "--surrogate", "gp", "--help"},
        {"study", "show", "/no/such/study.db", "--help"},
        {"ask", "/no/such/study.db", "--count", "2", "--help"},
        {"tell", "/no/such/study.db", "7", "--value", "1", "--help"},
        {"curator", "release", "--objective", "loan-roi", "--release", "noisy-projection", "--help"},
        {"audit", "--mechanism", "laplace", "--help"},
        {"summary", "/no/such/folder", "--help"},
        {"info", "no-such-module", "--help"},
    };
    for (const std::vector<std::string>& arguments : asked) {
        CAPTURE(arguments.front() + " " + arguments[1]);
        const CommandResult r = dpbo.run(arguments);
        CHECK(r.exit_code == 0);
        CHECK(r.err == "");
        CHECK(contains(r.out, "usage: dpbo " + arguments.front()));
    }
}

TEST_CASE("cli help: a group without its subcommand, like dpbo alone, prints its usage on stderr, exit 2") {
    const std::vector<std::string> paths = command_paths();
    CHECK(has_usage_line(run_dpbo({}).err, "<command>"));
    CHECK(run_dpbo({}).exit_code == 2);
    std::size_t groups = 0;
    for (const std::string& path : paths) {
        if (children(paths, path).empty()) continue;
        ++groups;
        CAPTURE(path);
        const CommandResult r = run_dpbo(words(path));
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(has_usage_line(r.err, path));
    }
    CHECK(groups >= 2);  // study, curator
}

TEST_CASE("cli help: an unknown command or subcommand exits 2, names the nearest and lists them all") {
    const std::vector<std::string> paths = command_paths();
    // Each name with its last letter doubled: a near miss of that name and of no other.
    for (const std::string& path : paths) {
        std::vector<std::string> typed = words(path);
        const std::string meant = typed.back();
        typed.back() += meant.back();
        CAPTURE(path);
        const CommandResult r = run_dpbo(typed);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, typed.size() == 1 ? "unknown command '" : "unknown subcommand '"));
        CHECK(contains(r.err, "did you mean '" + meant + "'?"));
        const std::string parent = typed.size() == 1 ? "" : path.substr(0, path.size() - meant.size() - 1);
        std::string all;
        for (const std::string& sibling : children(paths, parent)) all += (all.empty() ? "" : ", ") + sibling;
        CHECK(contains(r.err, "commands: " + all));  // "commands: list, ..." or "subcommands: create, show"
    }
    const CommandResult far = run_dpbo({"xyzzyplugh"});
    CHECK(far.exit_code == 2);
    CHECK(contains(far.err, "unknown command 'xyzzyplugh'"));
    CHECK(!contains(far.err, "did you mean"));
    const CommandResult help = run_dpbo({"help", "stdy"});
    CHECK(help.exit_code == 2);
    CHECK(contains(help.err, "did you mean 'study'?"));
}

TEST_CASE(
    "cli help: 'dpbo help MODULE' describes the module as 'dpbo info MODULE' does, and a near miss of a command "
    "is told both") {
    for (const std::vector<std::string>& module :
         std::vector<std::vector<std::string>>{{"dp-gibo"}, {"branin", "--json"}}) {
        CAPTURE(module.front());
        const CommandResult info = run_dpbo(plus({"info"}, module));
        REQUIRE(info.exit_code == 0);
        const CommandResult help = run_dpbo(plus({"help"}, module));
        CHECK(help.exit_code == 0);
        CHECK(help.out == info.out);
        CHECK(help.err == "");
    }
    const CommandResult unknown = run_dpbo({"help", "no-such-module"});
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "no-such-module"));
    const CommandResult typo = run_dpbo({"help", "stdy"});
    CHECK(typo.exit_code == 2);
    CHECK(contains(typo.err, "did you mean 'study'?"));
    CHECK(contains(typo.err, "a module is described by 'dpbo info stdy'"));
}
