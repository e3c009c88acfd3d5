#include "job_options.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

bool role_like(const std::string& name) {
    if (name.empty() || !(name.front() >= 'a' && name.front() <= 'z')) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

std::map<std::string, std::string>& parameters_for(JobSpec& job, const std::string& role) {
    if (role == "algorithm") return job.algorithm.parameters;
    if (role == "objective") return job.objective.parameters;
    return job.roles[role].parameters;  // no name yet: the role's default, unless one is named
}

}  // namespace

const char* const kRoleOptionHelp =
    "  --ROLE MODULE         a module for one of the algorithm's roles, e.g. --surrogate gp or --mechanism laplace\n"
    "                        ('dpbo info ALGORITHM' lists its roles, their kinds and defaults)\n";

std::vector<std::string> take_role_options(const std::vector<std::string>& arguments,
                                           const po::options_description& known, JobOptions& options) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& token = arguments[i];
        if (token == "--") {
            rest.insert(rest.end(), arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.end());
            break;
        }
        const auto eq = token.find('=');
        const std::string name = token.rfind("--", 0) == 0 ? token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2) : "";
        if (name.empty() || known.find_nothrow(name, false) != nullptr || !role_like(name)) {
            rest.push_back(token);
            continue;
        }
        std::string module;
        if (eq != std::string::npos) {
            module = token.substr(eq + 1);
        } else if (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) {
            module = arguments[++i];
        }
        if (module.empty())
            throw ValidationError(fmt::format("--{} needs a module name: --{} MODULE (a role of the algorithm; see "
                                              "'dpbo info ALGORITHM')",
                                              name, name));
        if (!options.role_modules.emplace(name, module).second)
            throw ValidationError(fmt::format("--{} is given twice ('{}' and '{}')", name, options.role_modules[name],
                                              module));
    }
    return rest;
}

void apply_setting(JobSpec& job, const std::string& key, const std::string& value, const std::string& source) {
    const auto dot = key.find('.');
    const std::string role = key.substr(0, dot);
    if (dot == std::string::npos || dot + 1 == key.size() || !role_like(role))
        throw ValidationError(fmt::format("{}: '{}' is not of the form ROLE.KEY (e.g. objective.dim=10, "
                                          "surrogate.kernel=rbf)",
                                          source, key));
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
    std::string algorithm, objective, out, seed, budget;
    std::size_t repeat = 0;
    known.add_options()("algorithm", po::value(&algorithm))("objective", po::value(&objective))(
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
    take("out", options.out, out);
    take("seed", options.seed_text, seed);
    take("budget", options.budget, budget);
    if (values.count("repeat") && given["repeat"].defaulted()) options.repeat = repeat;

    for (const auto& option : parsed.options) {
        if (!option.unregistered) continue;
        const std::string value = option.value.empty() ? "" : option.value.front();
        if (option.string_key.find('.') == std::string::npos) {
            // ROLE = MODULE; a module named on the command line for the same role wins. A near miss of
            // a command key is a typo, not a role.
            const auto near = closest_match(option.string_key, {"algorithm", "objective", "seed", "repeat", "out", "budget"});
            if (near)
                throw ValidationError(fmt::format("--config '{}': unknown key '{}' (did you mean '{}'?)", file,
                                                  option.string_key, *near));
            if (!role_like(option.string_key) || value.empty())
                throw ValidationError(fmt::format(
                    "--config '{}': unknown key '{}'; expected algorithm, objective, seed, repeat, out, budget, "
                    "ROLE = MODULE for one of the algorithm's roles, or module parameters under [algorithm], "
                    "[objective], [ROLE] sections",
                    file, option.string_key));
            options.role_modules.emplace(option.string_key, value);
            continue;
        }
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
        ("set", po::value(&job.settings)->composing(), "ROLE.KEY=VALUE module parameter (repeatable)")
        ("config", po::value(&job.config), "INI file with the same keys ([objective] dim = 10, seed = 3, ...)");
}

void name_roles(JobSpec& job, const JobOptions& options) {
    for (const auto& [role, module] : options.role_modules) job.roles[role].name = module;
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

double parse_finite_number(const std::string& text, const std::string& where) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || !std::isfinite(value))
        throw ValidationError(fmt::format("{}: '{}' is not a finite number", where, text));
    return value;
}

std::uint64_t parse_seed(const std::string& text) { return parse_whole_number(text, "--seed"); }

}  // namespace dpbo::cli
