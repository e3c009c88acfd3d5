#pragma once
// Error types shared by the host and every plugin. Their classes live in libdpbo so that a
// plugin's throw is caught by the host's catch (one typeinfo for the whole process).
#include <stdexcept>
#include <string>

namespace dpbo {

// Bad input: an unknown key, a wrong type, a value out of range, an unknown module name.
// The host maps it to exit code 2.
class ValidationError : public std::invalid_argument {
public:
    explicit ValidationError(const std::string& message);
    ~ValidationError() override;
};

// Something failed while running (numerical breakdown, unreadable data file).
// The host maps it to exit code 1.
class RunError : public std::runtime_error {
public:
    explicit RunError(const std::string& message);
    ~RunError() override;
};

// A release refused because it would exceed the run's stated privacy budget. Thrown by the privacy
// ledger before any noise is drawn; the message names the budget, the would-be spend and the
// refused release. The host still writes what was released until then. Exit code 1, as any RunError.
class BudgetExceeded : public RunError {
public:
    explicit BudgetExceeded(const std::string& message);
    ~BudgetExceeded() override;
};

}  // namespace dpbo
