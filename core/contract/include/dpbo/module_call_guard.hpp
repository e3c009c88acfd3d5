#pragma once
// The boundary between the host and a module's code. Every call the host makes into a module runs
// inside a ModuleCallGuard, so that whatever the module does there is reported naming it:
//   - an exception of any type (std or not) leaving the call becomes a RunError naming the module,
//     its file and what it was doing (dpbo's own ValidationError and RunError pass through: the
//     module chose them, and their messages and exit codes are part of its contract);
//   - a fatal signal (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) raised while the call runs prints
//     "dpbo: fatal signal ... in <module> while <doing>" on stderr before the signal takes its
//     default course (or the handler that was installed before, e.g. a test framework's).
// Guards nest; the innermost names the culprit. A module called by another module's code (a
// surrogate called by an algorithm) is inside its caller's guard and is reported as the caller.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "dpbo/errors.hpp"

namespace dpbo {

class ModuleCallGuard {
public:
    // `who`: "objective 'branin' (from /path/objective-branin.so)"; `doing`: "evaluating points".
    ModuleCallGuard(std::string_view who, std::string_view doing);
    ~ModuleCallGuard();
    ModuleCallGuard(const ModuleCallGuard&) = delete;
    ModuleCallGuard& operator=(const ModuleCallGuard&) = delete;

    // Read by the signal handler: formatted in advance, because a handler may not allocate.
    const char* message() const { return message_; }
    std::size_t message_length() const { return length_; }

private:
    const ModuleCallGuard* outer_;
    char message_[1024];
    std::size_t length_ = 0;
};

// Installs the fatal-signal report, saving the handlers in place to pass the signal on to. The
// first guard does it; call it again after something else replaced the handlers.
void install_fatal_signal_report();

// "std::runtime_error: what it said", or "a non-standard exception of type 'int'", for the
// exception being handled.
std::string describe_current_exception();

// Throws RunError "<who> failed while <doing>: <the exception being handled>".
[[noreturn]] void throw_module_failure(std::string_view who, std::string_view doing);

template <class Call>
decltype(auto) call_into_module(std::string_view who, std::string_view doing, Call&& call) {
    ModuleCallGuard guard(who, doing);
    try {
        return std::forward<Call>(call)();
    } catch (const ValidationError&) {
        throw;
    } catch (const RunError&) {
        throw;
    } catch (...) {
        throw_module_failure(who, doing);
    }
}

}  // namespace dpbo
