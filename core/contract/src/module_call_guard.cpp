#include "dpbo/module_call_guard.hpp"

#include <cxxabi.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <typeinfo>

#include <fmt/format.h>

#include "signal_safe_line.hpp"

namespace dpbo {

namespace {

// initial-exec: reading it from a signal handler must not call into the dynamic loader, which the
// default TLS model of a shared library may do on first access.
thread_local const ModuleCallGuard* innermost_guard __attribute__((tls_model("initial-exec"))) = nullptr;

struct FatalSignal {
    int number;
    const char* text;  // written as is by the handler
};

constexpr FatalSignal kFatalSignals[] = {
    {SIGSEGV, "SIGSEGV (segmentation fault: invalid memory access)"},
    {SIGBUS, "SIGBUS (bus error: access to a mapping beyond its file)"},
    {SIGABRT, "SIGABRT (aborted)"},
    {SIGFPE, "SIGFPE (arithmetic exception)"},
    {SIGILL, "SIGILL (illegal instruction)"},
};

struct sigaction previous_actions[std::size(kFatalSignals)];

// The thread whose fatal signal is being reported (0: none yet). Two --workers threads can crash at
// the same moment; the first reports and ends the process, a second waits for that end instead of
// writing its report into the middle of the first's.
std::atomic<long> reporting_thread{0};

void wait_unless_first_to_report() {
    const long self = ::syscall(SYS_gettid);
    long expected = 0;
    if (reporting_thread.compare_exchange_strong(expected, self) || expected == self) return;
    for (;;) ::pause();  // the reporting thread's chain ends the process
}

// Async-signal-safe throughout: write(2) (one call for the line: signal_safe_line.hpp), sigaction(2),
// raise(3), pause(2), a lock-free atomic and reads of pre-formatted text.
void on_fatal_signal(int number, siginfo_t*, void*) {
    wait_unless_first_to_report();
    std::size_t index = 0;
    while (index < std::size(kFatalSignals) && kFatalSignals[index].number != number) ++index;
    if (const ModuleCallGuard* guard = innermost_guard; guard != nullptr && index < std::size(kFatalSignals)) {
        signal_safe::Line()
            .append("dpbo: fatal signal ")
            .append(kFatalSignals[index].text)
            .append(" in ")
            .append(guard->message(), guard->message_length())
            .append("; the process stops")
            .write_to_stderr();
    }
    // Hand the signal to whatever was installed before (the default action unless, e.g., a test
    // framework installed its own): the signal is blocked inside this handler, so the raise is
    // delivered to the restored action as soon as the handler returns.
    if (index < std::size(kFatalSignals))
        ::sigaction(number, &previous_actions[index], nullptr);
    else
        ::signal(number, SIG_DFL);
    ::raise(number);
}

// A stack overflow inside a module raises SIGSEGV with no stack left to run the handler on.
void ensure_alternate_stack() {
    stack_t current{};
    if (::sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    static constexpr std::size_t kSize = 64 * 1024;
    static std::unique_ptr<char[]> memory(new char[kSize]);
    stack_t stack{};
    stack.ss_sp = memory.get();
    stack.ss_size = kSize;
    ::sigaltstack(&stack, nullptr);
}

std::string demangle(const char* name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(name);
}

}  // namespace

void install_fatal_signal_report() {
    ensure_alternate_stack();
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
        struct sigaction current {};
        ::sigaction(kFatalSignals[i].number, nullptr, &current);
        // Already in place: saving it as the one to pass the signal on to would loop.
        if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == &on_fatal_signal) continue;
        struct sigaction action {};
        action.sa_sigaction = &on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(kFatalSignals[i].number, &action, &previous_actions[i]);
    }
}

ModuleCallGuard::ModuleCallGuard(std::string_view who, std::string_view doing) : outer_(innermost_guard) {
    static std::once_flag installed;
    std::call_once(installed, install_fatal_signal_report);
    const auto written = fmt::format_to_n(message_, sizeof message_, "{} while {}", who, doing);
    length_ = std::min(written.size, sizeof message_);
    innermost_guard = this;
}

ModuleCallGuard::~ModuleCallGuard() { innermost_guard = outer_; }

std::string describe_current_exception() {
    const std::type_info* type = abi::__cxa_current_exception_type();
    const std::string type_name = type != nullptr ? demangle(type->name()) : "unknown";
    try {
        throw;
    } catch (const std::exception& e) {
        return fmt::format("{}: {}", type_name, e.what());
    } catch (...) {
        return fmt::format("a non-standard exception of type '{}'", type_name);
    }
}

void throw_module_failure(std::string_view who, std::string_view doing) {
    throw RunError(fmt::format("{} failed while {}: {}", who, doing, describe_current_exception()));
}

}  // namespace dpbo
