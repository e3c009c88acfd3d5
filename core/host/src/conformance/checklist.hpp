#pragma once
// Runs one named check at a time and records it: a check is a function that throws (anything) to
// say the promise failed, with what it saw; returning means the promise held.
#include <exception>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "dpbo/host/conformance.hpp"
#include "dpbo/module_call_guard.hpp"

namespace dpbo::conformance {

// Thrown by a check to say its promise does not hold.
class Broken : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

template <class... Args>
[[noreturn]] void broken(fmt::format_string<Args...> format, Args&&... args) {
    throw Broken(fmt::format(format, std::forward<Args>(args)...));
}

class Checklist {
public:
    explicit Checklist(ConformanceReport& report) : report_(report) {}

    // Runs `check` under a module call guard naming `who` (a fatal signal in the module's code says
    // which promise was being checked). Returns whether it passed.
    bool run(const std::string& name, const std::string& who, const std::function<void()>& check) {
        ConformanceCheck result{name, false, {}};
        try {
            ModuleCallGuard guard(who, "conformance check '" + name + "'");
            check();
            result.passed = true;
        } catch (const Broken& e) {
            result.detail = e.what();
        } catch (...) {
            result.detail = "unexpected " + describe_current_exception();
        }
        report_.checks.push_back(std::move(result));
        return report_.checks.back().passed;
    }

private:
    ConformanceReport& report_;
};

// Calls `call`, which must throw an exception of type E (`expected` names it in words); otherwise
// the check is broken, saying what was to be refused.
template <class E, class Call>
void expect_refusal(const std::string& what, const char* expected, Call&& call) {
    try {
        call();
    } catch (const E&) {
        return;
    } catch (...) {
        broken("{}: expected {}, got {}", what, expected, describe_current_exception());
    }
    broken("{}: accepted, expected {}", what, expected);
}

}  // namespace dpbo::conformance
