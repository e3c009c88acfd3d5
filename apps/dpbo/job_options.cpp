#include "job_options.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

constexpr const char* kRoles[] = {"algorithm", "objective", "surrogate", "acquisition", "mechanism"};

std::map<std::string, std::string>& parameters_for(JobSpec& job, const std::string& role) {
    if (role == "algorithm") return job.algorithm.parameters;
    if (role == "objective") return job.objective.parameters;
    std::optional<ModuleChoice>& component =
        role == "surrogate" ? job.surrogate : role == "acquisition" ? job.acquisition : job.mechanism;
    if (!component) component = ModuleChoice{};  // no name: the algorithm's default for this role
    return component->parameters;
}

}  // namespace

void apply_setting(JobSpec& job, const std::string& key, const std::string& value, const std::string& source) {
    const auto dot = key.find('.');
    const std::string role = key.substr(0, dot);
    if (dot == std::string::npos || dot + 1 == key.size())
        throw ValidationError(fmt::format("{}: '{}' is not of the form ROLE.KEY (e.g. objective.dim=10)", source, key));
    if (std::find(std::begin(kRoles), std::end(kRoles), role) == std::end(kRoles)) {
        const auto near = closest_match(role, {std::begin(kRoles), std::end(kRoles)});
        throw ValidationError(fmt::format("{}: '{}' names an unknown role '{}'{}; roles: {}", source, key, role,
                                          near ? fmt::format(" (did you mean '{}'?)", *near) : "",
                                          "algorithm, objective, surrogate, acquisition, mechanism"));
    }
    auto& parameters = parameters_for(job, role);
    const std::string name = key.substr(dot + 1);
    if (parameters.count(name) != 0)
        throw ValidationError(fmt::format("{}: '{}' is set twice", source, key));
    parameters[name] = value;
}

void apply_assignment(JobSpec& job, const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos)
        throw ValidationError(fmt::format("--set '{}' is not of the form ROLE.KEY=VALUE", assignment));
    apply_setting(job, assignment.substr(0, eq), assignment.substr(eq + 1), "--set");
}

void read_config(const std::string& file, JobOptions& options, const po::variables_map& given, JobSpec& job) {
    std::ifstream in(file);
    if (!in) throw ValidationError(fmt::format("--config '{}': cannot open the file", file));
    po::options_description known;
    std::string algorithm, objective, surrogate, acquisition, mechanism, out, seed, budget;
    std::size_t repeat = 0;
    known.add_options()("algorithm", po::value(&algorithm))("objective", po::value(&objective))(
        "surrogate", po::value(&surrogate))("acquisition", po::value(&acquisition))("mechanism", po::value(&mechanism))(
        "out", po::value(&out))("seed", po::value(&seed))("repeat", po::value(&repeat))("budget", po::value(&budget));
    po::variables_map values;
    po::parsed_options parsed(nullptr);
    try {
        parsed = po::parse_config_file(in, known, true);
        po::store(parsed, values);
        po::notify(values);
    } catch (const po::error& e) {
        throw ValidationError(fmt::format("--config '{}': {}", file, e.what()));
    }
    const auto take = [&](const char* key, std::string& target, const std::string& from_file) {
        if (!given.count(key) || given[key].defaulted()) {
            if (values.count(key)) target = from_file;
        }
    };
    take("algorithm", options.algorithm, algorithm);
    take("objective", options.objective, objective);
    take("surrogate", options.surrogate, surrogate);
    take("acquisition", options.acquisition, acquisition);
    take("mechanism", options.mechanism, mechanism);
    take("out", options.out, out);
    take("seed", options.seed_text, seed);
    take("budget", options.budget, budget);
    if (values.count("repeat") && given["repeat"].defaulted()) options.repeat = repeat;

    std::map<std::string, std::string> command_line_sets;
    for (const auto& option : parsed.options) {
        if (!option.unregistered) continue;
        if (option.string_key.find('.') == std::string::npos)
            throw ValidationError(fmt::format(
                "--config '{}': unknown key '{}'; expected algorithm, objective, surrogate, acquisition, mechanism, "
                "seed, repeat, out, budget, or module parameters under [algorithm], [objective], ... sections",
                file, option.string_key));
        const std::string value = option.value.empty() ? "" : option.value.front();
        // Command-line --set values override the file: skip keys the command line sets.
        bool overridden = false;
        for (const auto& assignment : options.settings)
            if (assignment.rfind(option.string_key + "=", 0) == 0) overridden = true;
        if (!overridden) apply_setting(job, option.string_key, value, fmt::format("--config '{}'", file));
    }
}

JobSpec job_settings(JobOptions& options, const po::variables_map& given) {
    JobSpec job;
    if (!options.config.empty()) read_config(options.config, options, given, job);
    for (const auto& assignment : options.settings) apply_assignment(job, assignment);
    return job;
}

void add_module_options(po::options_description& options, JobOptions& job) {
    options.add_options()
        ("algorithm", po::value(&job.algorithm), "algorithm module (see 'dpbo list --kind algorithm')")
        ("objective", po::value(&job.objective), "objective module")
        ("surrogate", po::value(&job.surrogate), "surrogate module (default: the algorithm's)")
        ("acquisition", po::value(&job.acquisition), "acquisition module (default: the algorithm's)")
        ("mechanism", po::value(&job.mechanism), "privacy mechanism module")
        ("set", po::value(&job.settings)->composing(), "ROLE.KEY=VALUE module parameter (repeatable)")
        ("config", po::value(&job.config), "INI file with the same keys ([objective] dim = 10, seed = 3, ...)");
}

void name_components(JobSpec& job, const JobOptions& options) {
    const auto name = [](std::optional<ModuleChoice>& component, const std::string& module) {
        if (module.empty()) return;
        if (!component) component = ModuleChoice{};
        component->name = module;
    };
    name(job.surrogate, options.surrogate);
    name(job.acquisition, options.acquisition);
    name(job.mechanism, options.mechanism);
}

std::uint64_t parse_whole_number(const std::string& text, const std::string& option) {
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text.front() == '-')
        throw ValidationError(fmt::format("{} '{}' is not a non-negative integer", option, text));
    return value;
}

std::uint64_t parse_seed(const std::string& text) { return parse_whole_number(text, "--seed"); }

}  // namespace dpbo::cli
