// dpbo-probe FILE: loads one plugin file in a process of its own and reports its manifest, so that
// a plugin which crashes, hangs, throws or exits while loading takes down only this process. The
// registry (core/host/src/plugin_probe.cpp) starts it with a time limit and reads the report.
//
// The report goes to file descriptor 3, one line per event, so that nothing the plugin prints on
// stdout or stderr can be mistaken for it:
//   step loading | step header | step manifest    before each step (a crash is placed by the last)
//   result {"manifest": {...}, "compiler": "..."} or result {"refused": "why"}
// Written with write(2), unbuffered: a plugin calling exit() or crashing loses nothing reported.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "dpbo/host/manifest_json.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/plugin_library.hpp"

namespace {

constexpr int kReportFd = 3;

void report(const std::string& line) {
    const std::string text = line + "\n";
    const char* data = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        const ssize_t n = ::write(kReportFd, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(3);
        data += n;
        left -= static_cast<std::size_t>(n);
    }
}

// A plugin's strings need not be UTF-8; JSON text must be.
std::string one_line(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

dpbo::PluginStep current_step = dpbo::PluginStep::Loading;

// An exception thrown by a static initialiser does not come out of dlopen: glibc's loader lets it
// reach std::terminate. Report it as the refusal, naming the exception, instead of dying of SIGABRT.
[[noreturn]] void report_uncaught_exception() {
    const std::string what = std::current_exception() ? dpbo::describe_current_exception() : "no exception";
    const std::string reason = current_step == dpbo::PluginStep::Loading
                                   ? "its static initialiser threw " + what
                                   : std::string("it threw ") + what + " while " + dpbo::describe_step(current_step);
    report("result " + one_line({{"refused", reason}}));
    _exit(0);
}

const char* step_word(dpbo::PluginStep step) {
    switch (step) {
        case dpbo::PluginStep::Loading:
            return "loading";
        case dpbo::PluginStep::CheckingHeader:
            return "header";
        case dpbo::PluginStep::ReadingManifest:
            return "manifest";
    }
    return "loading";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 || ::fcntl(kReportFd, F_GETFD) < 0) {
        const char usage[] = "usage: dpbo-probe FILE 3>REPORT (started by dpbo's plugin registry)\n";
        (void)!::write(STDERR_FILENO, usage, sizeof usage - 1);
        return 2;
    }
    try {
        std::set_terminate(report_uncaught_exception);
        const dpbo::OpenedPlugin opened = dpbo::open_plugin(argv[1], [](dpbo::PluginStep step) {
            current_step = step;
            report(std::string("step ") + step_word(step));
        });
        report("result " +
               one_line({{"manifest", dpbo::manifest_to_json(opened.manifest)}, {"compiler", opened.compiler}}));
        // Leave with the library still loaded: its static destructors are not the probe's business.
        _exit(0);
    } catch (const dpbo::PluginRefused& e) {
        report("result " + one_line({{"refused", e.what()}}));
    } catch (const std::exception& e) {
        report("result " + one_line({{"refused", std::string("cannot be probed: ") + e.what()}}));
    }
    _exit(0);
}
