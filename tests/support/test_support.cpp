#include "test_support.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include <doctest/doctest.h>

#include "dpbo/capability.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/runner.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

extern char** environ;

namespace dpbo::test {

Evaluations evaluate(Objective& objective, const arma::mat& points, bool per_record, ExperimentRng* rng) {
    EvaluationRequest request;
    request.per_record = per_record;
    request.rng = rng;
    return objective.evaluate(points, request);
}

Evaluations evaluate_as_run(Objective& objective, const arma::mat& points, bool per_record, ExperimentRng* rng) {
    EvaluationRequest request;
    request.per_record = per_record;
    request.rng = rng;
    SerialEvaluator evaluator;
    return evaluator.evaluate(objective, points, request);
}

RunResult run_algorithm(Algorithm& algorithm, Objective& objective, std::uint64_t seed,
                        const RunComponents& components) {
    SerialEvaluator serial;
    RunObserver quiet;
    ExperimentRng rng(seed);
    auto noise = PrivacyNoiseSource::from_seed(seed);
    RoleModules roles;
    for (const Role& role : algorithm.roles()) {
        if (const auto given = components.roles.find(role.name); given != components.roles.end()) {
            roles.add(role.name, given->second);
        } else if (!role.default_module.empty()) {
            roles.add(role.name, registry().create(role.kind, role.default_module, role.default_parameters));
        } else if (role.required) {
            FAIL("run_algorithm: role '" << role.name << "' is required and has no default; pass a module for it");
        }
    }
    for (const auto& [name, module] : components.roles)
        if (!roles.has(name)) FAIL("run_algorithm: the algorithm declares no role '" << name << "'");
    const std::string owner = "the algorithm under test";
    const std::shared_ptr<Accountant> accountant =
        components.accountant ? components.accountant
                              : dpbo::create_run_accountant(registry(), owner, algorithm.roles(), roles,
                                                            capability<PrivateTrials>(objective) != nullptr);
    PrivacyLedger ledger(accountant, components.budget, noise, owner);
    Evaluator& evaluator = components.evaluator != nullptr ? *components.evaluator : serial;
    // Trials that are private learners draw their noise from, and are charged to, the run's ledger.
    evaluator.attach_trial_ledger(&ledger);
    RunContext context{
        objective,  evaluator,       rng, ledger, components.observer != nullptr ? *components.observer : quiet,
        registry(), std::move(roles)};
    RunResult result = algorithm.run(context);
    result.privacy = ledger.statement_for(result.privacy);
    return result;
}

arma::vec trace_column(const Trace& trace, const std::string& name) {
    const std::size_t column = trace.column_index(name);
    arma::vec values(trace.rows().size());
    for (std::size_t i = 0; i < values.n_elem; ++i) values(i) = trace.rows()[i][column];
    return values;
}

arma::mat trace_vectors(const Trace& trace, const std::string& prefix, std::size_t dim) {
    arma::mat rows(trace.rows().size(), dim);
    for (std::size_t j = 0; j < dim; ++j) rows.col(j) = trace_column(trace, prefix + "[" + std::to_string(j) + "]");
    return rows;
}

arma::mat record_gradients(const Objective& objective, const arma::rowvec& point) {
    return require<RecordGradients>(objective, "the test").record_gradients(point);
}

std::optional<double> declared_constant(const Objective& objective, std::string_view name) {
    return require<DeclaredConstants>(objective, "the test").declared_constant(name);
}

const arma::mat& named_value(const std::vector<ReleasedValue>& values, const std::string& name) {
    const auto found =
        std::find_if(values.begin(), values.end(), [&](const ReleasedValue& v) { return v.name == name; });
    REQUIRE_MESSAGE(found != values.end(), "no value named " << name);
    return found->value;
}

PluginRegistry& registry() {
    static PluginRegistry instance = [] {
        PluginRegistry r;
        r.load({{DPBO_TEST_PLUGIN_DIR, "test"}});
        return r;
    }();
    return instance;
}

CommandResult run_program(const std::string& program, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment, int timeout_seconds) {
    int out_pipe[2];
    int err_pipe[2];
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");

    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry(*e);
        const std::string key = entry.substr(0, entry.find('='));
        if (environment.count(key) == 0) env_strings.push_back(entry);
    }
    for (const auto& [key, value] : environment) env_strings.push_back(key + "=" + value);

    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (spawned != 0) throw std::runtime_error("cannot start " + program);

    CommandResult result;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_streams = 2;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    while (open_streams > 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
            throw std::runtime_error(program + " did not finish within the test's time limit");
        }
        if (poll(fds, 2, static_cast<int>(left.count())) < 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
            char buffer[4096];
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                sinks[i]->append(buffer, static_cast<std::size_t>(n));
            } else {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_streams;
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

CommandResult run_dpbo(const std::vector<std::string>& arguments, const std::map<std::string, std::string>& environment,
                       int timeout_seconds) {
    // Tests see only the plugins they name, never a DPBO_PLUGIN_PATH from the caller's shell.
    std::map<std::string, std::string> env = {{"DPBO_PLUGIN_PATH", ""}};
    for (const auto& [k, v] : environment) env[k] = v;
    return run_program(DPBO_EXECUTABLE, arguments, env, timeout_seconds);
}

void link_build_libraries(const std::string& lib, std::string_view prefix) {
    namespace fs = std::filesystem;
    const fs::path build_lib = fs::path(DPBO_EXECUTABLE).parent_path().parent_path() / "lib";
    fs::create_directories(lib);
    for (const auto& entry : fs::directory_iterator(build_lib)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(prefix) && name.find(".so") != std::string::npos)
            fs::create_symlink(entry.path(), fs::path(lib) / name);
    }
}

TemporaryDirectory::TemporaryDirectory() {
    std::random_device device;
    const auto base = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        const auto candidate = base / ("dpbo-test-" + std::to_string(device()));
        if (std::filesystem::create_directory(candidate)) {
            path_ = candidate.string();
            return;
        }
    }
    throw std::runtime_error("cannot create a temporary directory");
}

TemporaryDirectory::~TemporaryDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::vector<std::vector<std::string>> reference_table(const std::string& path, std::size_t columns) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot read the reference table " << path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.front() == '#') continue;
        std::vector<std::string> fields;
        std::istringstream split(line);
        for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
        REQUIRE_MESSAGE(fields.size() == columns,
                        path << ": a row has " << fields.size() << " fields, expected " << columns << ": " << line);
        rows.push_back(std::move(fields));
    }
    return rows;
}

}  // namespace dpbo::test
