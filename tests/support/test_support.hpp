#pragma once
// Shared helpers for the test suites: the registry over the build tree's plugins, module creation
// from "key=value" maps, and running the `dpbo` executable.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/result.hpp"

namespace dpbo {
class Accountant;
class Algorithm;
class Evaluator;
class Objective;
class RunObserver;
}  // namespace dpbo

namespace dpbo::test {

// Loaded once from the build tree's plugin directory.
PluginRegistry& registry();

template <class Interface>
std::shared_ptr<Interface> make(const std::string& name, const std::map<std::string, std::string>& parameters = {}) {
    return registry().create_as<Interface>(name, parameters);
}

// objective.evaluate(points) with per-record losses (by default) and an optional experiment
// generator: exactly what the objective returns, unchecked and without observation noise.
Evaluations evaluate(Objective& objective, const arma::mat& points, bool per_record = true,
                     ExperimentRng* rng = nullptr);
// The points evaluated as a run evaluates them, through a SerialEvaluator: the points are checked
// against the space, the result against the objective contract, and the objective's observation
// noise is added to the values.
Evaluations evaluate_as_run(Objective& objective, const arma::mat& points, bool per_record = true,
                            ExperimentRng* rng = nullptr);

// What an algorithm runs with besides its objective: modules for some of its roles, by role name;
// a serial evaluator and a silent observer unless given.
struct RunComponents {
    std::map<std::string, std::shared_ptr<Module>> roles;
    Evaluator* evaluator = nullptr;
    RunObserver* observer = nullptr;
    std::shared_ptr<Accountant> accountant;  // none: 'gdp' at its default δ
    std::optional<PrivacyBudget> budget;
};

// Runs `algorithm` on `objective`, experiment randomness and privacy noise both seeded by `seed`.
// Every role the algorithm declares and `components` leaves out gets its default module with the
// default parameters, as `dpbo run` would give it; a required role without a default fails the test.
// Privacy releases go through a ledger as in the runner; the result's statement is the ledger's.
RunResult run_algorithm(Algorithm& algorithm, Objective& objective, std::uint64_t seed,
                        const RunComponents& components = {});

// One trace column, a value per row.
arma::vec trace_column(const Trace& trace, const std::string& name);
// The vector column prefix[0..dim−1] (e.g. "theta"), a row per trace row.
arma::mat trace_vectors(const Trace& trace, const std::string& prefix, std::size_t dim);
// The value called `name` among a result's released or evaluation-only values; fails the test when absent.
const arma::mat& named_value(const std::vector<ReleasedValue>& values, const std::string& name);
// The objective's per-record gradients and declared constants, through its capabilities
// (RecordGradients, DeclaredConstants): a ValidationError naming the objective when it lacks one.
arma::mat record_gradients(const Objective& objective, const arma::rowvec& point);
std::optional<double> declared_constant(const Objective& objective, std::string_view name);

struct CommandResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs the built `dpbo` with the given arguments (no shell), stdin from /dev/null, an optional
// extra environment, and collects its output. Times out after `timeout_seconds` (then fails).
CommandResult run_dpbo(const std::vector<std::string>& arguments,
                       const std::map<std::string, std::string>& environment = {}, int timeout_seconds = 120);
// Runs any program the same way.
CommandResult run_program(const std::string& program, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment = {}, int timeout_seconds = 120);

// A fresh empty directory under the system temp dir, removed when the object is destroyed.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// Links to the build's shared libraries whose file names start with `prefix` (in the folder of
// libdpbo), made in `lib`: the lib/ of a test's own tree in the install layout, where the launcher and
// the plugins look for them relative to their own files.
void link_build_libraries(const std::string& lib, std::string_view prefix);

// The rows of a committed reference table (tests/reference/*.txt): tab-separated fields, blank lines
// and '#' comments skipped; every row must have `columns` fields (fails the test otherwise).
std::vector<std::vector<std::string>> reference_table(const std::string& path, std::size_t columns);

}  // namespace dpbo::test
