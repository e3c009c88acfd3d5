// dpbo curator: the curator's side of PO-GP-UCB with two parties (Kharkovskii, Dai & Low 2020). The
// curator holds the sensitive rows (a finite-row objective); `release` writes the rows' private
// release Z for the modeler, `answer` turns the row indices the modeler asks for into responses,
// once (--rows) or as a curator program speaking the dpbo-curator protocol on stdin/stdout.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "dpbo/curator_release.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/host/privacy_limits.hpp"
#include "dpbo/host/result_io.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "job_options.hpp"

namespace dpbo::cli {

namespace {

// The curator's data: a finite-row objective with its parameters.
std::shared_ptr<Objective> curator_data(PluginRegistry& registry, const JobOptions& options, const JobSpec& job) {
    if (options.objective.empty()) throw ValidationError("dpbo curator needs --objective NAME: the curator's rows");
    auto data = registry.create_as<Objective>(options.objective, job.objective.parameters);
    if (!data->space().is_finite())
        throw ValidationError(
            fmt::format("objective '{}' searches a box; the curator holds a finite set of rows "
                        "(e.g. table, loan-roi, property-price, or a grid objective)",
                        options.objective));
    if (data->output_count() != 1)
        throw ValidationError(fmt::format("objective '{}' has {} outputs; the curator answers one response per row",
                                          options.objective, data->output_count()));
    check_objective_capabilities(*data);
    return data;
}

// The curator's rows, whatever their status: the curator is the party that holds them.
const arma::mat& curator_rows(const Objective& data) {
    return require<FiniteCandidates>(data, "dpbo curator").candidates().rows;
}

void refuse_roles_except(const JobOptions& options, const JobSpec& job, const std::string& allowed) {
    for (const auto& [role, module] : options.role_modules)
        if (role != allowed)
            throw ValidationError(fmt::format("--{} {}: dpbo curator takes --objective{}", role, module,
                                              allowed.empty() ? "" : " and --" + allowed));
    for (const auto& [role, spec] : job.roles)
        if (role != allowed)
            throw ValidationError(fmt::format("--set {}.…: dpbo curator takes settings for objective{}", role,
                                              allowed.empty() ? "" : " and " + allowed));
    if (!job.algorithm.parameters.empty()) throw ValidationError("--set algorithm.…: dpbo curator runs no algorithm");
}

// The files a release writes, in the order it writes them.
constexpr const char* kReleaseFiles[] = {"curator_only.json", "release.json", "released_rows.csv"};

// A release goes into a new or empty folder: it never replaces a file dpbo did not write, nor an
// earlier release, which may have been sent already (and which a new release would add its privacy
// cost to). Checked before anything is released; the temporaries of a release killed while writing
// are removed.
void check_release_folder(const std::filesystem::path& out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status link = fs::symlink_status(out, ec);
    if (fs::is_symlink(link) && !fs::exists(out, ec))
        throw ValidationError(fmt::format(
            "--out '{}' is a symbolic link to '{}', which does not exist; create the folder it points to or choose "
            "another --out",
            out.string(), fs::read_symlink(out, ec).string()));
    if (!fs::exists(out, ec)) return;
    if (!fs::is_directory(out, ec))
        throw ValidationError(fmt::format("--out '{}' exists and is not a folder; choose another --out", out.string()));
    std::vector<std::string> held;
    std::vector<fs::path> temporaries;
    for (const auto& entry : fs::directory_iterator(out, ec)) {
        const std::string name = entry.path().filename().string();
        const bool temporary = std::any_of(std::begin(kReleaseFiles), std::end(kReleaseFiles),
                                           [&](const char* file) { return is_atomic_write_temporary(name, file); });
        if (temporary)
            temporaries.push_back(entry.path());
        else
            held.push_back(name);
    }
    if (ec) throw ValidationError(fmt::format("--out '{}': cannot list the folder ({})", out.string(), ec.message()));
    if (!held.empty()) {
        std::sort(held.begin(), held.end());
        const std::size_t shown = std::min<std::size_t>(held.size(), 6);
        std::string names;
        for (std::size_t i = 0; i < shown; ++i) names += (i ? ", " : "") + (out / held[i]).string();
        if (held.size() > shown) names += fmt::format(", … ({} entries)", held.size());
        throw ValidationError(fmt::format(
            "--out '{}' is not empty: it holds {}; dpbo curator release writes only into a new or empty folder, "
            "so that it replaces neither your files nor an earlier release (which may have been sent; a new one "
            "would add to its privacy cost); nothing was released; choose another --out",
            out.string(), names));
    }
    for (const fs::path& temporary : temporaries) fs::remove(temporary, ec);
}

int curator_release(const std::vector<std::string>& arguments) {
    CommonOptions common;
    JobOptions options;
    double norm_bound = 25.0;
    po::options_description described("options");
    add_module_options(described, options);
    described.add_options()(
        "norm-bound", po::value(&norm_bound)->default_value(25.0),
        "rows are scaled from their declared column bounds to L2 norm at most this (the paper: 25)")(
        "seed", po::value(&options.seed_text), "reproducible release; its noise is then not secure")(
        "out", po::value(&options.out), "folder for the release (required)");
    described.add(common_options(common));
    const po::variables_map given = parse_command(take_role_options(arguments, described, options), described);
    if (common.help) {
        print_help(
            "dpbo curator release --objective O [--set objective.K=V] [--release R] [--set release.K=V] "
            "[--norm-bound B] [--seed S] --out DIR",
            described,
            "Releases the rows of the curator's data privately for a PO-GP-UCB modeler: writes "
            "released_rows.csv (for the modeler), release.json (its privacy statement) and curator_only.json "
            "(figures about the data, never to be sent) into --out.");
        return kSuccess;
    }
    const JobSpec job = job_settings(options, given);
    refuse_roles_except(options, job, "release");
    if (!options.algorithm.empty()) throw ValidationError("--algorithm: dpbo curator release runs no algorithm");
    if (options.out.empty()) throw ValidationError("dpbo curator release needs --out DIR, the folder for the release");
    if (!std::isfinite(norm_bound) || norm_bound <= 0.0)
        throw ValidationError(fmt::format("--norm-bound {}: expected a finite number > 0", norm_bound));
    check_release_folder(options.out);
    PluginRegistry registry;
    load_plugins(registry, common);
    const auto data = curator_data(registry, options, job);
    const std::string release_name =
        options.role_modules.count("release") ? options.role_modules.at("release") : "noisy-projection";
    const auto role_settings = job.roles.find("release");
    auto release = registry.create_as<RowRelease>(release_name, role_settings == job.roles.end()
                                                                    ? std::map<std::string, std::string>{}
                                                                    : role_settings->second.parameters);

    const std::optional<std::uint64_t> seed = given_seed(options);
    PrivacyNoiseSource noise = seed ? PrivacyNoiseSource::from_seed(*seed) : PrivacyNoiseSource::from_os();
    const AccountantChoice accountant_choice = release->accountant();
    PrivacyLedger ledger(registry.create_as<Accountant>(accountant_choice.name, accountant_choice.parameters),
                         std::nullopt, noise, fmt::format("the curator's release '{}'", release_name));
    const CuratorRelease released =
        release_objective_rows(*data, *release, norm_bound, ledger, fmt::format("dpbo curator release"));
    PrivacyStatement described_release = released.guarantee;
    described_release.released = {fmt::format("the released rows Z ({} × {}), in the order of the curator's rows",
                                              released.rows.n_rows, released.rows.n_cols)};
    described_release.assumptions.push_back(released.scaling);
    if (seed)
        described_release.assumptions.push_back(fmt::format(
            "the noise is keyed from --seed {}: reproducible, and no protection once the seed is known", *seed));
    PrivacyStatement statement = ledger.statement_for(described_release);
    add_privacy_limits(statement, *data);

    const std::filesystem::path out(options.out);
    std::filesystem::create_directories(out);
    const std::string csv = released_rows_csv(released.rows);
    json release_json;
    release_json["release"] = {
        {"name", release_name},
        {"parameters", role_settings == job.roles.end() ? json::object() : json(role_settings->second.parameters)},
        {"norm_bound", norm_bound}};
    release_json["objective"] = {{"name", options.objective}, {"description", data_description(*data)}};
    release_json["rows"] = released.rows.n_rows;
    release_json["columns"] = released.rows.n_cols;
    release_json["privacy"] = privacy_statement_json(statement);
    json private_json;
    private_json["note"] = "computed from the curator's sensitive rows: keep it, never send it to the modeler";
    for (const auto& value : released.evaluation_only)
        private_json[value.name] = {{"value", value.value(0, 0)}, {"description", value.description}};
    write_file_atomically(out / kReleaseFiles[0], private_json.dump(2) + "\n");
    write_file_atomically(out / kReleaseFiles[1], release_json.dump(2) + "\n");
    write_file_atomically(out / kReleaseFiles[2], csv);
    if (common.json) {
        print_json(release_json);
    } else {
        std::cout << fmt::format("dpbo curator release: {} rows of objective '{}' released by '{}' into {}\n",
                                 released.rows.n_rows, options.objective, release_name,
                                 (out / "released_rows.csv").string());
        std::cout << statement.describe() << "\n";
        if (seed)
            std::cout << fmt::format(
                "warning: the noise is keyed from --seed {}: reproducible, for experiments; it "
                "protects nothing once the seed is known, so do not send this release for real "
                "data\n",
                *seed);
    }
    return kSuccess;
}

// A request names row indices, a few bytes each: far fewer than this in any batch a modeler asks for.
constexpr std::size_t kMaxRequestBytes = std::size_t{16} << 20;

// One answer line for one request line; a request that cannot be served gets {"error": ...} and the
// curator goes on serving.
std::string answer_line(const std::string& line, Objective& data, ExperimentRng& rng) {
    const auto request = json::parse(line, nullptr, false);
    const auto refuse = [&](const std::string& why) {
        return json{
            {"error", fmt::format("request '{}': {}", line.size() > 200 ? line.substr(0, 200) + "…" : line, why)}}
            .dump();
    };
    if (request.is_discarded() || !request.is_object() || !request.contains("rows") || !request["rows"].is_array())
        return refuse("expected {\"rows\":[i, j, ...]}");
    const std::size_t n = curator_rows(data).n_rows;
    arma::uvec rows(request["rows"].size());
    for (std::size_t i = 0; i < rows.n_elem; ++i) {
        const auto& row = request["rows"][i];
        if (!row.is_number_unsigned() || row.get<std::uint64_t>() >= n)
            return refuse(fmt::format("row {} is not an index in [0, {})", row.dump(), n));
        rows(i) = row.get<arma::uword>();
    }
    if (rows.is_empty()) return json{{"values", json::array()}}.dump();
    const arma::mat points = curator_rows(data).rows(rows);
    EvaluationRequest evaluation;
    evaluation.rng = &rng;
    Evaluations values = data.evaluate(points, evaluation);
    check_evaluation_contract(data, points, evaluation, values);
    add_observation_noise(values.values, observation_noise_stddev(data), evaluation, data.describe_origin());
    return json{{"values", std::vector<double>(values.values.begin(), values.values.end())}}.dump();
}

int curator_answer(const std::vector<std::string>& arguments) {
    CommonOptions common;
    JobOptions options;
    std::string rows_text;
    po::options_description described("options");
    add_module_options(described, options);
    described.add_options()("rows", po::value(&rows_text), "answer these 0-based row indices once and exit")(
        "seed", po::value(&options.seed_text), "seed of the objective's observation noise (default: from the OS)");
    described.add(common_options(common));
    const po::variables_map given = parse_command(take_role_options(arguments, described, options), described);
    if (common.help) {
        print_help("dpbo curator answer --objective O [--set objective.K=V] [--rows I,J,...] [--seed S]", described,
                   "Answers a PO-GP-UCB modeler with the responses of the rows it names: once, for --rows, or as a "
                   "curator program (the dpbo-curator protocol: a handshake line, then one {\"values\":[...]} line "
                   "per {\"rows\":[...]} line on stdin, until stdin ends).");
        return kSuccess;
    }
    const JobSpec job = job_settings(options, given);
    refuse_roles_except(options, job, "");
    PluginRegistry registry;
    load_plugins(registry, common);
    const auto data = curator_data(registry, options, job);
    const std::optional<std::uint64_t> seed = given_seed(options);
    ExperimentRng rng(seed.value_or(os_random_u64()));
    if (given.count("rows")) {
        json request{{"rows", json::array()}};
        std::string current;
        for (const char c : rows_text + ",") {
            if (c != ',') {
                current += c;
                continue;
            }
            request["rows"].push_back(parse_whole_number(current, "--rows"));
            current.clear();
        }
        const std::string answer = answer_line(request.dump(), *data, rng);
        if (json::parse(answer).contains("error"))
            throw ValidationError(
                fmt::format("--rows {}: {}", rows_text, json::parse(answer)["error"].get<std::string>()));
        std::cout << answer << "\n";
        return kSuccess;
    }
    const bool maximise = data->outputs().front().sense == Sense::Maximise;
    std::cout << json{{"protocol", "dpbo-curator"},
                      {"version", 1},
                      {"rows", curator_rows(*data).n_rows},
                      {"sense", maximise ? "maximise" : "minimise"}}
                     .dump()
              << std::endl;
    // A request longer than any modeler sends is answered with an error, like any request that cannot
    // be served, without ever being held whole.
    const bounded_input::Input request{"request", "{\"rows\":[i, j, ...]}, one request a line", kMaxRequestBytes};
    bounded_input::LineReader requests(STDIN_FILENO, request);
    std::string line;
    for (auto status = requests.read(line); status != bounded_input::LineReader::Status::End;
         status = requests.read(line)) {
        if (status == bounded_input::LineReader::Status::TooLong) {
            const std::string why =
                bounded_input::too_long(request, fmt::format("on line {} is", requests.line_number()));
            std::cout << json{{"error", why}}.dump() << std::endl;
            continue;
        }
        if (line.empty()) continue;
        std::cout << answer_line(line, *data, rng) << std::endl;
    }
    return kSuccess;
}

constexpr Command kCuratorSubcommands[] = {
    {.name = "release",
     .summary = "release the curator's rows privately (released_rows.csv) for a PO-GP-UCB modeler",
     .run = &curator_release},
    {.name = "answer",
     .summary = "answer the modeler's row queries: once (--rows) or as a curator program on stdin/stdout",
     .run = &curator_answer},
};
DPBO_CHECK_COMMAND_TABLE(kCuratorSubcommands);

}  // namespace

std::span<const Command> curator_subcommands() { return kCuratorSubcommands; }

}  // namespace dpbo::cli
