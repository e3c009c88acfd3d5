// dpbo run: combine modules by name into a job, run it, write and summarise the results.
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli.hpp"
#include "default_job.hpp"
#include "dpbo/errors.hpp"
#include "progress.hpp"

namespace dpbo::cli {

namespace {

struct RunOptions {
    std::string algorithm, objective, surrogate, acquisition, mechanism, config, out;
    std::vector<std::string> settings;
    std::string seed_text;
    std::size_t repeat = 1;
};

constexpr const char* kRoles[] = {"algorithm", "objective", "surrogate", "acquisition", "mechanism"};

std::map<std::string, std::string>& parameters_for(JobSpec& job, const std::string& role) {
    if (role == "algorithm") return job.algorithm.parameters;
    if (role == "objective") return job.objective.parameters;
    std::optional<ModuleChoice>& component =
        role == "surrogate" ? job.surrogate : role == "acquisition" ? job.acquisition : job.mechanism;
    if (!component) component = ModuleChoice{};  // no name: the algorithm's default for this role
    return component->parameters;
}

// "role.key=value" from --set or a config file; `source` names where it came from in errors.
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

// Program_options' INI form: top-level keys are the command's options, [role] sections (or dotted
// keys) are module parameters. The command line wins over the file.
void read_config(const std::string& file, RunOptions& options, const po::variables_map& given, JobSpec& job) {
    std::ifstream in(file);
    if (!in) throw ValidationError(fmt::format("--config '{}': cannot open the file", file));
    po::options_description known;
    std::string algorithm, objective, surrogate, acquisition, mechanism, out, seed;
    std::size_t repeat = 0;
    known.add_options()("algorithm", po::value(&algorithm))("objective", po::value(&objective))(
        "surrogate", po::value(&surrogate))("acquisition", po::value(&acquisition))("mechanism", po::value(&mechanism))(
        "out", po::value(&out))("seed", po::value(&seed))("repeat", po::value(&repeat));
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
    if (values.count("repeat") && given["repeat"].defaulted()) options.repeat = repeat;

    std::map<std::string, std::string> command_line_sets;
    for (const auto& option : parsed.options) {
        if (!option.unregistered) continue;
        if (option.string_key.find('.') == std::string::npos)
            throw ValidationError(fmt::format(
                "--config '{}': unknown key '{}'; expected algorithm, objective, surrogate, acquisition, mechanism, "
                "seed, repeat, out, or module parameters under [algorithm], [objective], ... sections",
                file, option.string_key));
        const std::string value = option.value.empty() ? "" : option.value.front();
        // Command-line --set values override the file: skip keys the command line sets.
        bool overridden = false;
        for (const auto& assignment : options.settings)
            if (assignment.rfind(option.string_key + "=", 0) == 0) overridden = true;
        if (!overridden) apply_setting(job, option.string_key, value, fmt::format("--config '{}'", file));
    }
}

std::uint64_t parse_seed(const std::string& text) {
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text.front() == '-')
        throw ValidationError(fmt::format("--seed '{}' is not a non-negative integer", text));
    return value;
}

std::filesystem::path default_out_dir(const JobSpec& job) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    const std::filesystem::path base =
        std::filesystem::path("results") / fmt::format("{}-{}-{}", job.algorithm.name, job.objective.name, stamp);
    std::filesystem::path candidate = base;
    for (int n = 2; std::filesystem::exists(candidate); ++n) candidate = base.string() + fmt::format("-{}", n);
    return candidate;
}

void print_outcome(const RepeatOutcome& outcome, std::size_t repeats) {
    std::cout << fmt::format("repeat {}/{}{}\n", outcome.index + 1, repeats, outcome.resumed ? " (kept)" : "");
    for (const auto& [key, value] : outcome.summary) std::cout << fmt::format("  {:<34} {}\n", key, value);
    if (!outcome.result_file.empty()) std::cout << fmt::format("  {:<34} {}\n", "result", outcome.result_file.string());
}

}  // namespace

int command_run(const std::vector<std::string>& arguments) {
    CommonOptions common;
    RunOptions options;
    po::options_description described("dpbo run [--algorithm A --objective O] [options]");
    described.add_options()
        ("algorithm", po::value(&options.algorithm), "algorithm module (see 'dpbo list --kind algorithm')")
        ("objective", po::value(&options.objective), "objective module")
        ("surrogate", po::value(&options.surrogate), "surrogate module (default: the algorithm's)")
        ("acquisition", po::value(&options.acquisition), "acquisition module (default: the algorithm's)")
        ("mechanism", po::value(&options.mechanism), "privacy mechanism module")
        ("set", po::value(&options.settings)->composing(), "ROLE.KEY=VALUE module parameter (repeatable)")
        ("config", po::value(&options.config), "INI file with the same keys ([objective] dim = 10, seed = 3, ...)")
        ("seed", po::value(&options.seed_text),
         "make the run reproducible; privacy noise is then not secure (default: seeds from the OS CSPRNG)")
        ("repeat", po::value(&options.repeat)->default_value(1), "independent repeats")
        ("out", po::value(&options.out), "output folder (default: results/ALGORITHM-OBJECTIVE-TIME); "
                                         "finished repeats found there are kept, not rerun");
    described.add(common_options(common));
    const po::variables_map given = parse_command(arguments, described);
    if (common.help) {
        std::cout << described << "\n";
        return kSuccess;
    }

    JobSpec job;
    if (!options.config.empty()) read_config(options.config, options, given, job);
    for (const auto& assignment : options.settings) apply_assignment(job, assignment);
    const bool default_modules = options.algorithm.empty() && options.objective.empty();
    if (default_modules) {
        // The user's settings refine the default job rather than replace it.
        JobSpec fallback = default_job();
        const auto overlay = [](std::map<std::string, std::string>& base, const std::map<std::string, std::string>& top) {
            for (const auto& [key, value] : top) base[key] = value;
        };
        overlay(fallback.algorithm.parameters, job.algorithm.parameters);
        overlay(fallback.objective.parameters, job.objective.parameters);
        job.algorithm = fallback.algorithm;
        job.objective = fallback.objective;
        // A component the default job configures keeps that configuration unless the user names
        // another module for the role; settings the user gives for it are laid on top.
        const auto overlay_component = [&](std::optional<ModuleChoice>& mine,
                                           const std::optional<ModuleChoice>& preset, const std::string& named) {
            if (!named.empty() || !preset) return;
            ModuleChoice merged = *preset;
            if (mine) overlay(merged.parameters, mine->parameters);
            mine = merged;
        };
        overlay_component(job.surrogate, fallback.surrogate, options.surrogate);
        overlay_component(job.acquisition, fallback.acquisition, options.acquisition);
        overlay_component(job.mechanism, fallback.mechanism, options.mechanism);
        std::cerr << fmt::format("dpbo run: no modules named; running the default job ({} on {})\n",
                                 job.algorithm.name, job.objective.name);
    } else if (options.algorithm.empty() || options.objective.empty()) {
        throw ValidationError(fmt::format("run needs both --algorithm and --objective (missing: --{}); "
                                          "'dpbo run' with neither runs the default job",
                                          options.algorithm.empty() ? "algorithm" : "objective"));
    } else {
        job.algorithm.name = options.algorithm;
        job.objective.name = options.objective;
    }
    const auto name_component = [](std::optional<ModuleChoice>& component, const std::string& name) {
        if (name.empty()) return;
        if (!component) component = ModuleChoice{};
        component->name = name;
    };
    name_component(job.surrogate, options.surrogate);
    name_component(job.acquisition, options.acquisition);
    name_component(job.mechanism, options.mechanism);
    if (!options.seed_text.empty()) job.seed = parse_seed(options.seed_text);
    job.repeat = options.repeat;
    job.out_dir = options.out.empty() ? default_out_dir(job) : std::filesystem::path(options.out);

    PluginRegistry registry;
    load_plugins(registry, common);
    std::vector<std::unique_ptr<ProgressBar>> bars;
    const JobReport report = run_job(registry, job, [&](std::size_t index) -> RunObserver& {
        bars.push_back(std::make_unique<ProgressBar>(fmt::format("repeat {}/{}", index + 1, job.repeat)));
        return *bars.back();
    });

    if (common.json) {
        if (report.repeats.size() == 1) {
            std::cout << report.repeats.front().json << "\n";
        } else {
            json all = json::array();
            for (const auto& r : report.repeats) all.push_back(json::parse(r.json));
            print_json(all);
        }
        return kSuccess;
    }
    std::cout << fmt::format("dpbo run: {} on {}", job.algorithm.name, job.objective.name);
    if (job.mechanism && !job.mechanism->name.empty()) std::cout << fmt::format(", mechanism {}", job.mechanism->name);
    std::cout << "\n";
    for (const auto& outcome : report.repeats) print_outcome(outcome, report.repeats.size());
    for (const auto& outcome : report.repeats) {
        if (outcome.resumed) continue;
        std::cout << outcome.privacy_description;
        break;
    }
    if (std::all_of(report.repeats.begin(), report.repeats.end(), [](const auto& r) { return r.resumed; }))
        std::cout << fmt::format("privacy: {} (from the kept results)\n", report.repeats.front().headline);
    return kSuccess;
}

}  // namespace dpbo::cli
