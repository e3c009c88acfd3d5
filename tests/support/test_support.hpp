#pragma once
// Shared helpers for the test suites: the registry over the build tree's plugins, module creation
// from "key=value" maps, and running the `dpbo` executable.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/registry.hpp"

namespace dpbo::test {

// Loaded once from the build tree's plugin directory.
PluginRegistry& registry();

template <class Interface>
std::shared_ptr<Interface> make(const std::string& name,
                                const std::map<std::string, std::string>& parameters = {}) {
    return registry().create_as<Interface>(name, parameters);
}

struct CommandResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs the built `dpbo` with the given arguments (no shell), stdin from /dev/null, an optional
// extra environment, and collects its output. Times out after `timeout_seconds` (then fails).
CommandResult run_dpbo(const std::vector<std::string>& arguments,
                       const std::map<std::string, std::string>& environment = {},
                       int timeout_seconds = 120);
// Runs any program the same way.
CommandResult run_program(const std::string& program, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment = {},
                          int timeout_seconds = 120);

// A fresh empty directory under the system temp dir, removed when the object is destroyed.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace dpbo::test
