// dpbo check FILE.so...: runs the conformance checks of their kind (dpbo/host/conformance.hpp) on
// every module in a plugin file, a third party's before anyone relies on it. Each module is checked
// in a child process with a time limit, so a module that crashes or hangs is reported as the
// failure of the check it was in, and the checker carries on.
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "cli.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/conformance.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "unnamed_temporary_file.hpp"

namespace dpbo::cli {

namespace {

namespace fs = std::filesystem;

json report_json(const ConformanceReport& report) {
    json checks = json::array();
    for (const auto& check : report.checks)
        checks.push_back({{"check", check.name}, {"passed", check.passed}, {"detail", check.detail}});
    return {
        {"kind", to_string(report.kind)}, {"module", report.module}, {"passed", report.passed()}, {"checks", checks}};
}

ConformanceReport report_from_json(const json& j) {
    ConformanceReport report;
    report.kind = *module_kind_from_string(j.at("kind").get<std::string>());
    report.module = j.at("module").get<std::string>();
    for (const auto& c : j.at("checks"))
        report.checks.push_back(
            {c.at("check").get<std::string>(), c.at("passed").get<bool>(), c.at("detail").get<std::string>()});
    return report;
}

// The longest report read back from a child.
constexpr std::size_t kMaxReportBytes = std::size_t{16} << 20;

// The checks of one module in a child process; a child that dies or overruns `limit` is one failed
// check naming what happened (the module call guard has printed which check it was in on stderr).
ConformanceReport check_in_child(PluginRegistry& registry, ModuleKind kind, const std::string& name,
                                 const std::map<std::string, std::string>& parameters, std::chrono::seconds limit) {
    int fds[2];
    if (::pipe(fds) != 0) throw RunError(fmt::format("dpbo check: cannot make a pipe: {}", std::strerror(errno)));
    std::cout.flush();
    std::cerr.flush();
    // The child's stderr goes to a file of its own: the module call guard's report of a fatal signal
    // (naming the check it was in) becomes the failed check's detail. The file has no name, so a
    // killed check leaves nothing in /tmp.
    const int stderr_fd = open_unnamed_temporary_file("dpbo-check");
    if (stderr_fd < 0)
        throw RunError(fmt::format("dpbo check: cannot make a temporary file: {}", std::strerror(errno)));
    const pid_t checker = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(stderr_fd);
        throw RunError(fmt::format("dpbo check: cannot fork: {}", std::strerror(errno)));
    }
    if (child == 0) {
        // Dies with the checker, so that a killed `dpbo check` leaves no check running (nor the
        // programs a module started).
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != checker) ::_exit(1);
        // Dies of the signal, so the parent can say which; the guard still names the check first.
        let_fatal_signals_kill();
        ::close(fds[0]);
        ::dup2(stderr_fd, 2);
        std::string text;
        try {
            text = report_json(check_module(registry, kind, name, parameters)).dump();
        } catch (...) {
            text = json{{"error", "the checker failed"}}.dump();
        }
        for (std::size_t written = 0; written < text.size();) {
            const ssize_t n = ::write(fds[1], text.data() + written, text.size() - written);
            if (n <= 0) break;
            written += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string text;
    char buffer[4096];
    const auto deadline = std::chrono::steady_clock::now() + limit;
    bool timed_out = false;
    bool overran = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n <= 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        // A report is a few kilobytes; a module's code writing into the pipe is not let fill memory.
        if (text.size() > kMaxReportBytes) {
            text.clear();
            overran = true;
            break;
        }
    }
    ::close(fds[0]);
    if (timed_out || overran) ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    // Only the end of what the child wrote is read: the last line is what is reported.
    std::string printed = bounded_input::read_tail(stderr_fd, 64 * 1024);
    ::close(stderr_fd);
    while (!printed.empty() && (printed.back() == '\n' || printed.back() == ' ')) printed.pop_back();
    if (const auto last = printed.rfind('\n'); last != std::string::npos) printed = printed.substr(last + 1);
    ConformanceReport report{kind, name, {}};
    if (timed_out) {
        report.checks.push_back(
            {"finishes its checks in time", false, fmt::format("still running after {} s; killed", limit.count())});
        return report;
    }
    if (overran) {
        report.checks.push_back(
            {"survives its checks", false,
             fmt::format("its report grew past {} bytes (the module's code writes into it); killed", kMaxReportBytes)});
        return report;
    }
    if (WIFSIGNALED(status)) {
        report.checks.push_back({"survives its checks", false,
                                 fmt::format("the module's code died of signal {} ({}){}", WTERMSIG(status),
                                             ::strsignal(WTERMSIG(status)), printed.empty() ? "" : ": " + printed)});
        return report;
    }
    const json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object() || parsed.contains("error")) {
        report.checks.push_back(
            {"survives its checks", false,
             WIFEXITED(status) && WEXITSTATUS(status) != 0
                 ? fmt::format("the module's code ended the process with exit status {}", WEXITSTATUS(status))
                 : "the checker failed to report"});
        return report;
    }
    return report_from_json(parsed);
}

void print_report(const ConformanceReport& report) {
    std::cout << fmt::format("{} '{}': {}\n", to_string(report.kind), report.module,
                             report.passed() ? "conforms" : fmt::format("{} check(s) failed", report.failures()));
    for (const auto& check : report.checks)
        std::cout << fmt::format("  {} {}{}\n", check.passed ? "pass" : "FAIL", check.name,
                                 check.passed || check.detail.empty() ? "" : ": " + check.detail);
}

}  // namespace

int command_check(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::vector<std::string> files, settings;
    double timeout = 300;
    po::options_description options("options");
    options.add_options()("file", po::value(&files)->composing(), "a plugin file to check (positional, repeatable)")(
        "set", po::value(&settings)->composing(),
        "KEY=VALUE: a parameter for every module checked; MODULE.KEY=VALUE: for the module of that name only "
        "(e.g. --set gaussian.mu=1, --set table.file=data.csv)")(
        "timeout", po::value(&timeout), "seconds one module's checks may take before it is killed (default 300)");
    options.add(common_options(common));
    po::positional_options_description positional;
    positional.add("file", -1);
    parse_command(arguments, options, &positional);
    if (common.help) {
        print_help("dpbo check FILE.so... [--set KEY=VALUE ...] [--timeout S] [--json]", options,
                   "Checks every module in each plugin file against the promises of its kind: a mechanism, "
                   "selection or row release (calibration, charging before noise, its guarantee, noise from the "
                   "ledger alone), an accountant (refusals by name, monotone composition, independent clones, "
                   "delta(epsilon) and epsilon(delta)), an objective (the evaluation contract, reproducibility, its "
                   "known optimum); other kinds are checked for being created. Each module runs in a child process. "
                   "Exit codes: 0 every check passed, 1 a check failed, 2 usage error.");
        return kSuccess;
    }
    if (files.empty()) throw ValidationError("check needs at least one plugin file (dpbo check FILE.so)");
    if (!(timeout > 0)) throw ValidationError(fmt::format("--timeout {} must be > 0 seconds", timeout));
    // KEY=VALUE for every module checked; MODULE.KEY=VALUE for the module of that name only.
    std::map<std::string, std::string> for_all;
    std::map<std::string, std::map<std::string, std::string>> for_module;
    for (const auto& setting : settings) {
        const auto equals = setting.find('=');
        if (equals == std::string::npos || equals == 0)
            throw ValidationError(fmt::format("--set '{}': expected KEY=VALUE or MODULE.KEY=VALUE", setting));
        const std::string key = setting.substr(0, equals);
        const std::string value = setting.substr(equals + 1);
        if (const auto dot = key.find('.'); dot != std::string::npos && dot > 0 && dot + 1 < key.size())
            for_module[key.substr(0, dot)][key.substr(dot + 1)] = value;
        else
            for_all[key] = value;
    }
    const auto parameters_for = [&](const std::string& module) {
        std::map<std::string, std::string> parameters = for_all;
        if (const auto it = for_module.find(module); it != for_module.end())
            for (const auto& [key, value] : it->second) parameters[key] = value;
        return parameters;
    };

    PluginRegistry registry;
    std::vector<fs::path> paths;
    for (const auto& file : files) {
        std::error_code ec;
        if (!fs::exists(file, ec))
            throw ValidationError(fmt::format("check: file '{}' does not exist; expected a plugin file (*.so)", file));
        paths.push_back(fs::canonical(file, ec));
    }
    // The files first, so that their modules win over installed ones of the same name; then the
    // search path, for the accountants a private release is checked through.
    registry.load_files(paths);
    load_plugins(registry, common);

    json all = json::array();
    std::size_t failed = 0;
    std::size_t checks = 0;
    for (const fs::path& path : paths) {
        if (!common.json) std::cout << fmt::format("{}\n", path.string());
        bool any = false;
        for (const auto& refused : registry.refused()) {
            if (refused.path != path) continue;
            any = true;
            ++failed, ++checks;
            if (common.json)
                all.push_back({{"file", path.string()}, {"refused", refused.reason}});
            else
                std::cout << fmt::format("  FAIL loads as a dpbo plugin: {}\n", refused.reason);
        }
        for (const LoadedPlugin& plugin : registry.plugins()) {
            if (plugin.path != path) continue;
            any = true;
            const auto report = check_in_child(registry, plugin.manifest.kind, plugin.manifest.name,
                                               parameters_for(plugin.manifest.name),
                                               std::chrono::seconds(static_cast<long>(std::ceil(timeout))));
            checks += report.checks.size();
            failed += report.failures();
            if (common.json) {
                json entry = report_json(report);
                entry["file"] = path.string();
                all.push_back(entry);
            } else {
                print_report(report);
            }
        }
        if (!any && !common.json) std::cout << "  no module (the file holds none this dpbo can read)\n";
    }
    if (common.json)
        print_json(all);
    else
        std::cout << fmt::format("{} passed, {} failed\n", checks - failed, failed);
    return failed == 0 ? kSuccess : kRunFailure;
}

}  // namespace dpbo::cli
