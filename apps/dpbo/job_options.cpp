#include "job_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

bool role_like(const std::string& name) {
    if (name.empty() || !(name.front() >= 'a' && name.front() <= 'z')) return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}

// Whether `a` is `b` with two neighbouring letters swapped (edit distance counts that as two edits).
bool swapped_letters(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    std::size_t first = 0;
    while (first < a.size() && a[first] == b[first]) ++first;
    return first + 1 < a.size() && a[first] == b[first + 1] && a[first + 1] == b[first] &&
           a.compare(first + 2, std::string::npos, b, first + 2, std::string::npos) == 0;
}

std::map<std::string, std::string>& parameters_for(JobSpec& job, const std::string& role) {
    if (role == "algorithm") return job.algorithm.parameters;
    if (role == "objective") return job.objective.parameters;
    return job.roles[role].parameters;  // no name yet: the role's default, unless one is named
}

// Offset of the first byte that cannot be in a text file: a control character other than tab, CR
// and LF, or a byte that does not continue valid UTF-8. Program_options would echo such bytes back
// to the terminal in its error; a dozen lines of UTF-8 decoding are less than a library dependency.
std::optional<std::size_t> first_non_text_byte(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7f) return i;
            ++i;
            continue;
        }
        const std::size_t length = byte >= 0xc2 && byte <= 0xdf   ? 2
                                   : byte >= 0xe0 && byte <= 0xef ? 3
                                   : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                                  : 0;
        if (length == 0 || i + length > text.size()) return i;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return i;
        i += length;
    }
    return std::nullopt;
}

std::string read_config_text(const std::string& file) {
    // A FIFO, a device or a folder is refused by name before anything is read (a FIFO would block).
    const std::string text = bounded_input::read_file(
        file, {fmt::format("--config '{}'", file), "a short INI file", bounded_input::kShortFileBytes});
    if (const auto bad = first_non_text_byte(text))
        throw ValidationError(fmt::format("--config '{}' is not a text file: byte {} is 0x{:02x}; expected an INI file",
                                          file, *bad, static_cast<unsigned char>(text[*bad])));
    return text;
}

}  // namespace

const char* const kRoleOptionHelp =
    "role options:\n"
    "  --ROLE MODULE          a module for one of the algorithm's roles, e.g. --surrogate gp or --mechanism laplace\n"
    "                         ('dpbo info ALGORITHM' lists its roles, their kinds and defaults)\n"
    "  --accountant NAME      the run's accountant, for any algorithm (default: the algorithm's, else the one\n"
    "                         its mechanisms ask for); 'dpbo list --kind accountant' lists them\n";

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
        const std::string name =
            token.rfind("--", 0) == 0 ? token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2) : "";
        if (name.empty() || known.find_nothrow(name, false) != nullptr || !role_like(name)) {
            rest.push_back(token);
            continue;
        }
        std::vector<std::string> option_names;
        for (const auto& option : known.options()) option_names.push_back(option->long_name());
        const auto near = closest_match(name, option_names);
        // One edit or two swapped letters from an option is a typo of it, not a role: --budgte 1.
        if (near && (edit_distance(name, *near) <= 1 || swapped_letters(name, *near)))
            throw ValidationError(fmt::format("unknown option '--{}' (did you mean '--{}'?)", name, *near));
        std::string module;
        if (eq != std::string::npos) {
            module = token.substr(eq + 1);
        } else if (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) {
            module = arguments[++i];
        }
        if (module.empty())
            throw ValidationError(fmt::format(
                "unknown option '--{}'{}: not an option of this command ('--help' lists them), and as a role "
                "it names no module; a role's module is given as --ROLE MODULE ('dpbo info ALGORITHM' lists "
                "the algorithm's roles)",
                name, near ? fmt::format(" (did you mean '--{}'?)", *near) : ""));
        if (!options.role_modules.emplace(name, module).second)
            throw ValidationError(
                fmt::format("--{} is given twice ('{}' and '{}')", name, options.role_modules[name], module));
    }
    return rest;
}

void apply_setting(JobSpec& job, const std::string& key, const std::string& value, const std::string& source) {
    const auto dot = key.find('.');
    const std::string role = key.substr(0, dot);
    if (dot == std::string::npos || dot + 1 == key.size() || !role_like(role))
        throw ValidationError(
            fmt::format("{}: '{}' is not of the form ROLE.KEY (e.g. objective.dim=10, "
                        "surrogate.kernel=rbf)",
                        source, key));
    auto& parameters = parameters_for(job, role);
    const std::string name = key.substr(dot + 1);
    if (parameters.count(name) != 0) throw ValidationError(fmt::format("{}: '{}' is set twice", source, key));
    parameters[name] = value;
}

void apply_assignment(JobSpec& job, const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos)
        throw ValidationError(fmt::format("--set '{}' is not of the form ROLE.KEY=VALUE", assignment));
    if (eq == 0)
        throw ValidationError(fmt::format(
            "--set '{}' names no key before '='; expected ROLE.KEY=VALUE (e.g. objective.dim=10)", assignment));
    apply_setting(job, assignment.substr(0, eq), assignment.substr(eq + 1), "--set");
}

void read_config(const std::string& file, JobOptions& options, const po::variables_map& given, JobSpec& job) {
    std::istringstream in(read_config_text(file));
    po::options_description known;
    std::string algorithm, objective, out, seed, budget, repeat;
    known.add_options()("algorithm", po::value(&algorithm))("objective", po::value(&objective))("out", po::value(&out))(
        "seed", po::value(&seed))("repeat", po::value(&repeat))("budget", po::value(&budget));
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
            if (values.count(key)) {
                target = from_file;
                options.given_by[key] = fmt::format("--config '{}' key '{}'", file, key);
            }
        }
    };
    take("algorithm", options.algorithm, algorithm);
    take("objective", options.objective, objective);
    take("out", options.out, out);
    take("seed", options.seed_text, seed);
    take("budget", options.budget, budget);
    take("repeat", options.repeat_text, repeat);

    for (const auto& option : parsed.options) {
        if (!option.unregistered) continue;
        const std::string value = option.value.empty() ? "" : option.value.front();
        if (option.string_key.find('.') == std::string::npos) {
            // ROLE = MODULE; a module named on the command line for the same role wins. A key one edit
            // from a command key is a typo, not a role (a role may well be a few edits from one:
            // po-gp-ucb's `release` against `repeat`).
            const auto near =
                closest_match(option.string_key, {"algorithm", "objective", "seed", "repeat", "out", "budget"});
            if (near && edit_distance(option.string_key, *near) <= 1)
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
    for (const char* key : {"seed", "out", "repeat", "budget"})
        if (given.count(key) && !given[key].defaulted()) options.given_by[key] = fmt::format("--{}", key);
    if (given.count("config") && options.config.empty())
        throw ValidationError("--config '' names no file; give an INI file");
    JobSpec job;
    if (!options.config.empty()) read_config(options.config, options, given, job);
    for (const auto& assignment : options.settings) apply_assignment(job, assignment);
    return job;
}

void add_module_options(po::options_description& options, JobOptions& job) {
    options.add_options()("algorithm", po::value(&job.algorithm),
                          "algorithm module (see 'dpbo list --kind algorithm')")(
        "objective", po::value(&job.objective), "objective module")("set", po::value(&job.settings)->composing(),
                                                                    "ROLE.KEY=VALUE module parameter (repeatable)")(
        "config", po::value(&job.config), "INI file with the same keys ([objective] dim = 10, seed = 3, ...)");
}

void name_roles(JobSpec& job, const JobOptions& options) {
    for (const auto& [role, module] : options.role_modules) job.roles[role].name = module;
}

std::uint64_t parse_whole_number(const std::string& text, const std::string& option) {
    // Digits only: stoull would skip leading blanks and wrap a minus sign (" -5" to 2^64 - 5).
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool digits =
        !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || end != text.data() + text.size())
        throw ValidationError(fmt::format("{} '{}' is not a non-negative integer", option, text));
    if (error == std::errc::result_out_of_range)
        throw ValidationError(fmt::format("{} '{}' is larger than the largest allowed, {}", option, text,
                                          std::numeric_limits<std::uint64_t>::max()));
    return value;
}

double parse_finite_number(const std::string& text, const std::string& where) {
    // strtod, not stod: stod throws out_of_range for denormals such as 1e-320, which are finite.
    // Past the smallest denormal the value rounds to zero; past the largest double it is refused.
    const bool blank = text.empty() || std::isspace(static_cast<unsigned char>(text.front()));
    char* end = nullptr;
    const double value = blank ? 0.0 : std::strtod(text.c_str(), &end);
    if (blank || end != text.c_str() + text.size() || !std::isfinite(value))
        throw ValidationError(fmt::format("{}: '{}' is not a finite number", where, text));
    return value;
}

std::uint64_t parse_seed(const std::string& text, const std::string& where) { return parse_whole_number(text, where); }

std::optional<std::uint64_t> given_seed(const JobOptions& options) {
    if (!options.given("seed")) return std::nullopt;
    return parse_seed(options.seed_text, options.source("seed"));
}

std::size_t given_repeat(const JobOptions& options) {
    if (!options.given("repeat")) return 1;
    const std::uint64_t repeat = parse_whole_number(options.repeat_text, options.source("repeat"));
    if (repeat == 0)
        throw ValidationError(
            fmt::format("{} '{}': a job needs at least 1 repeat", options.source("repeat"), options.repeat_text));
    return static_cast<std::size_t>(repeat);
}

}  // namespace dpbo::cli
