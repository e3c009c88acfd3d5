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

}  // namespace dpbo
