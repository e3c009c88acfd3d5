#include "private_run_scan.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "test_support.hpp"

namespace dpbo::test::scan {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---- the data the scan runs on -------------------------------------------------------------------

// Sizes that keep each run to a fraction of a second; an objective not named gets its defaults.
const std::map<std::string, Parameters> kObjectiveSizes = {
    {"normal-location", {{"dim", "2"}, {"records", "20"}}},
    {"huber-regression", {{"dim", "2"}, {"records", "30"}}},
    {"gp-lengthscales", {{"dim", "2"}, {"records", "60"}}},
    {"svr-tuning", {{"features", "3"}, {"train_rows", "40"}, {"validation_rows", "30"}}},
    {"logreg-validation", {{"training_records", "500"}, {"validation_records", "20"}}},
};

// CSV text with data row `row` (0-based, after the header) replaced by `replacement`.
std::string with_row_replaced(const std::string& text, std::size_t row, const std::string& replacement) {
    std::istringstream in(text);
    std::ostringstream out;
    std::string line;
    for (std::size_t i = 0; std::getline(in, line); ++i) out << (i == row + 1 ? replacement : line) << '\n';
    return out.str();
}

std::string shipped_csv(const std::string& relative) {
    const auto r = run_program("/usr/bin/env", {"gzip", "-dc", std::string(DPBO_SOURCE_DIR) + "/" + relative});
    REQUIRE_MESSAGE(r.exit_code == 0, "cannot read " << relative << ": " << r.err);
    return r.out;
}

// Row objectives' data as files: D in data/, D′ (row 0's features moved) in neighbour/, under the same
// file name, so that the objective's public description names both alike once the folders are read past.
struct RowFixtures {
    TemporaryDirectory dir;
    std::string data_dir = dir.path() + "/data";
    std::string neighbour_dir = dir.path() + "/neighbour";
    std::map<std::string, std::pair<Parameters, Parameters>> parameters;  // name → (D, D′ overrides)

    void add(const std::string& objective, const std::string& key, const std::string& file, const std::string& text,
             const std::string& moved_row, Parameters more = {}) {
        std::ofstream(data_dir + "/" + file) << text;
        std::ofstream(neighbour_dir + "/" + file) << with_row_replaced(text, 0, moved_row);
        more[key] = data_dir + "/" + file;
        parameters[objective] = {more, {{key, neighbour_dir + "/" + file}}};
    }

    RowFixtures() {
        fs::create_directories(data_dir);
        fs::create_directories(neighbour_dir);
        // Features off the integers, so that no public counter (iteration 1, 2, ...) can look like a row.
        add("table", "file", "table.csv",
            "a,b,y\n0.37,0.81,3.5\n1.93,0.44,2.0\n4.21,3.67,1.0\n0.58,4.73,0.5\n"
            "3.14,2.72,4.0\n2.23,1.41,1.7\n",
            "2.61,3.09,3.5", {{"columns", "a,b"}, {"response", "y"}, {"bounds", "0:5,0:5"}});
        // One loan's amount, rate and income, one block group's location moved to another's.
        add("loan-roi", "data_file", "loans.csv",
            shipped_csv("plugins/objectives/loan-roi/data/lending_club_first1000_roi.csv.gz"),
            "1077501,20125,7.51,90125,5831.78");
        add("property-price", "data_file", "blocks.csv",
            shipped_csv("plugins/objectives/property-price/data/cal_housing_sample2004.csv.gz"),
            "20,-118.310000,34.110000,162900.000000");
    }
};

RowFixtures& row_fixtures() {
    static RowFixtures instance;
    return instance;
}

// ---- reading a run's public output ---------------------------------------------------------------

// The records are drawn with a data seed, a record objective's description says which record its
// neighbour switch replaced, and a row objective's file lies in data/ or neighbour/: the public
// description names them (configuration, not data), so those names are read past.
std::string read_past_configuration(std::string text) {
    static const std::regex seed_mention(R"(data_seed \d+)");
    static const std::regex neighbour_switch(
        R"(; record \d+ replaced by .*\(neighbour_record = \d+, neighbour_value = [^)]*\))");
    text = std::regex_replace(text, seed_mention, "data_seed ?");
    text = std::regex_replace(text, neighbour_switch, "");
    for (const std::string& folder : {row_fixtures().data_dir, row_fixtures().neighbour_dir})
        for (std::size_t at = text.find(folder); at != std::string::npos; at = text.find(folder))
            text.replace(at, folder.size(), "FOLDER");
    return text;
}

// Everything in result.json but what may differ: the job (the configuration itself), the
// evaluation-only values, the timing (evaluation-only) and the randomness record (the seeds).
bool exempt(const std::string& path) {
    static const std::set<std::string> kExempt = {"/job", "/evaluation_only", "/timing", "/randomness"};
    return kExempt.count(path) != 0;
}

void read_public(const json& value, const std::string& path, ScanRun& out) {
    if (exempt(path)) return;
    if (value.is_object()) {
        for (const auto& [key, child] : value.items()) read_public(child, path + "/" + key, out);
    } else if (value.is_array()) {
        std::vector<double> numbers;
        for (const auto& element : value)
            if (element.is_number()) numbers.push_back(element.get<double>());
        if (!numbers.empty() && numbers.size() == value.size()) out.public_arrays.emplace_back(path, numbers);
        for (std::size_t i = 0; i < value.size(); ++i) read_public(value[i], path + "/" + std::to_string(i), out);
    } else {
        out.fields[path] = value.is_string() ? read_past_configuration(value.get<std::string>()) : value.dump();
    }
}

// Public trace columns: one field per column (the whole column as text), and each row's public cells.
void read_public_trace(const fs::path& folder, const json& result, ScanRun& out) {
    std::vector<std::string> names;
    std::vector<bool> is_public;
    for (const auto& column : result["trace"]["columns"]) {
        names.push_back(column["name"].get<std::string>());
        is_public.push_back(!column["evaluation_only"].get<bool>());
    }
    std::ifstream in(folder / "trace.csv");
    std::string line;
    std::getline(in, line);  // header
    std::vector<std::string> columns(names.size());
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        std::string cell;
        std::vector<double> row;
        for (std::size_t j = 0; j < names.size() && std::getline(cells, cell, ','); ++j) {
            if (!is_public[j]) continue;
            columns[j] += cell + ";";
            row.push_back(std::strtod(cell.c_str(), nullptr));
        }
        out.public_trace_rows.push_back(row);
    }
    for (std::size_t j = 0; j < names.size(); ++j)
        if (is_public[j]) out.fields["trace.csv:" + names[j]] = columns[j];
}

bool schema_has(const std::string& objective, const std::string& key) {
    const LoadedPlugin* plugin = registry().find(ModuleKind::Objective, objective);
    return plugin != nullptr && plugin->manifest.schema.find(key) != nullptr;
}

// Whether `row` occurs in `values` as it is, at consecutive positions.
bool holds_row(const std::vector<double>& values, const arma::rowvec& row) {
    if (values.size() < row.n_elem) return false;
    for (std::size_t start = 0; start + row.n_elem <= values.size(); ++start) {
        bool all = true;
        for (std::size_t j = 0; j < row.n_elem && all; ++j)
            all = std::abs(values[start + j] - row(j)) <= 1e-12 * std::max(1.0, std::abs(row(j)));
        if (all) return true;
    }
    return false;
}

}  // namespace

const std::vector<PrivateConfig>& private_configs() {
    const Parameters dp_ucb = {{"epsilon", "1"}, {"delta", "1e-3"},      {"one_minus_k1", "0.1"}, {"lengthscale", "1"},
                               {"budget", "4"},  {"candidates", "grid"}, {"per_dimension", "3"}};
    const auto with = [](Parameters base, const Parameters& more) {
        for (const auto& [key, value] : more) base[key] = value;
        return base;
    };
    // Λ = the objective's own finite set (per_dimension applies to grids only).
    const auto own_candidates = [&](const Parameters& base, const Parameters& more) {
        Parameters parameters = with(base, more);
        parameters["candidates"] = "objective";
        parameters.erase("per_dimension");
        return parameters;
    };
    static const std::vector<PrivateConfig> configs = {
        {"dp-gibo", "dp-gibo", {{"iterations", "2"}, {"mu", "1"}}, {}, {}},
        {"dp-gd", "dp-gd", {{"iterations", "3"}, {"mu", "1"}}, {}, {}},
        {"random-search + gaussian",
         "random-search",
         {{"budget", "6"}, {"value_sensitivity", "0.1"}},
         {{"mechanism", {"gaussian", {{"mu", "1"}}}}},
         {}},
        // max_points admits every row objective's rows (≤ 2 004) and 7^d grids up to d = 4.
        {"grid-search + laplace",
         "grid-search",
         {{"max_points", "5000"}, {"value_sensitivity", "0.1"}},
         {{"mechanism", {"laplace", {{"epsilon", "1"}}}}},
         {}},
        {"dp-ucb noisy over a grid", "dp-ucb", dp_ucb, {}, {{"noise_stddev", "0.1"}}},
        {"dp-ucb noise-free over a grid",
         "dp-ucb",
         with(dp_ucb, {{"variant", "noise-free"}, {"A", "1"}, {"tau", "1"}}),
         {},
         {}},
        // Λ = the objective's own finite set: refused over boxes, and over rows that are the data.
        {"dp-ucb noisy over the objective's candidates",
         "dp-ucb",
         own_candidates(dp_ucb, {}),
         {},
         {{"noise_stddev", "0.1"}}},
        {"dp-ucb noise-free over the objective's candidates",
         "dp-ucb",
         own_candidates(dp_ucb, {{"variant", "noise-free"}, {"A", "1"}, {"tau", "1"}}),
         {},
         {}},
        // Algorithm 3 needs a Lipschitz gain (logreg-validation's ramp; its accuracy declares no L).
        {"dp-ucb lipschitz",
         "dp-ucb",
         {{"variant", "lipschitz"}, {"epsilon", "1"}, {"budget", "4"}, {"initial_points", "2"}},
         {},
         {{"gain", "ramp"}}},
        // Private selection among trials that are private learners: over PrivateTrials objectives only.
        {"private-search", "private-search", {{"count", "geometric:mean=3"}}, {}, {}},
        {"po-gp-ucb + noisy-projection",
         "po-gp-ucb",
         {{"budget", "4"}, {"initial_points", "2"}},
         {{"release", {"noisy-projection", {{"epsilon", "1"}, {"delta", "1e-5"}}}}},
         {}},
    };
    return configs;
}

const std::map<std::string, std::string>& not_private_algorithms() {
    static const std::map<std::string, std::string> names = {
        {"dpareto", "the Pareto front of a DP learner for trusted analysts; each point's ε is the learner's"},
        {"gibo", "GIBO without privacy"},
        {"gp-ei", "GP-EI without privacy"},
        {"gp-ucb", "GP-UCB without privacy"},
    };
    return names;
}

const std::map<std::string, std::string>& not_scanned_objectives() {
    static const std::string oracle =
        "a privacy–utility oracle with two outputs (ε and a DP learner's error): no private algorithm takes several "
        "outputs";
    static const std::map<std::string, std::string> names = {
        {"bolt-on-logreg", oracle},
        {"dpsgd", oracle},
        {"mlp", oracle},
        {"svt", oracle},
        {"synthetic-gp", "a function fixed by its seed, with no records or rows to replace: no neighbouring dataset"},
        {"command", "its data live behind the user's program, which alone can define a neighbour"},
        {"curator", "its rows are a curator's earlier release (public); that release is scanned through po-gp-ucb"},
    };
    return names;
}

const std::vector<ScanObjective>& scanned_objectives() {
    static const std::vector<ScanObjective> objectives = [] {
        std::vector<ScanObjective> found;
        for (const LoadedPlugin& plugin : registry().plugins()) {
            if (plugin.manifest.kind != ModuleKind::Objective) continue;
            const std::string& name = plugin.manifest.name;
            if (not_scanned_objectives().count(name) != 0) continue;
            ScanObjective scan{name, {}, {}, {}, false};
            const auto rows = row_fixtures().parameters.find(name);
            if (rows != row_fixtures().parameters.end()) {
                scan.data = rows->second.first;
                scan.neighbour = rows->second.second;
            } else if (const auto sizes = kObjectiveSizes.find(name); sizes != kObjectiveSizes.end()) {
                scan.data = sizes->second;
            }
            std::shared_ptr<Objective> objective;
            try {
                objective = make<Objective>(name, scan.data);
            } catch (const ValidationError& e) {
                FAIL("objective '" << name << "' cannot be built for the scan (" << e.what()
                                   << "); give it parameters or a reason not to scan it");
            }
            if (capability<SensitiveData>(*objective) == nullptr) continue;  // a public benchmark
            const auto* finite = capability<FiniteCandidates>(*objective);
            scan.rows_are_data = finite != nullptr && finite->candidates().sensitive();
            if (scan.neighbour.empty() && schema_has(name, "neighbour_record"))
                scan.neighbour = {{"neighbour_record", "0"}};
            if (scan.neighbour.empty())
                FAIL("objective '" << name
                                   << "' holds sensitive data but the scan has no neighbouring dataset for it: give "
                                      "it a neighbour_record switch, a row file here, or a reason not to scan it");
            scan.other = schema_has(name, "data_seed") ? Parameters{{"data_seed", "1"}} : scan.neighbour;
            found.push_back(scan);
        }
        return found;
    }();
    return objectives;
}

ScanRun run(const PrivateConfig& config, const ScanObjective& objective, const Parameters& overrides,
            std::uint64_t seed) {
    static RunObserver quiet;
    TemporaryDirectory dir;
    JobSpec job;
    job.algorithm = {config.algorithm, config.parameters};
    job.objective = {objective.name, objective.data};
    for (const auto& [key, value] : config.objective_settings)
        if (schema_has(objective.name, key)) job.objective.parameters[key] = value;
    for (const auto& [key, value] : overrides) job.objective.parameters[key] = value;
    job.roles = config.roles;
    job.seed = seed;
    job.out_dir = dir.path();
    ScanRun out;
    try {
        run_job(registry(), job, [](std::size_t) -> RunObserver& { return quiet; });
    } catch (const ValidationError& e) {
        out.refused = e.what();
        return out;
    }
    std::ifstream in(fs::path(dir.path()) / "result.json");
    const json result = json::parse(in);
    read_public(result, "", out);
    read_public_trace(dir.path(), result, out);
    return out;
}

// A dimension's name is the objective's declaration, set by its configuration: svr-tuning names each
// length-scale by the feature its data_seed drew, and the scan's "other data" is another data_seed.
// It may move with that, but not with one record replaced: unreleased_differences still checks it.
bool declared_dimension_name(const std::string& path) {
    static const std::regex name(R"(/objective/dimensions/\d+/name)");
    return std::regex_match(path, name);
}

std::vector<std::string> moves_with_data_not_noise(const Fields& a, const Fields& b, const Fields& c) {
    std::vector<std::string> leaks;
    for (const auto& [path, value] : a) {
        if (declared_dimension_name(path)) continue;
        const auto in_b = b.find(path);
        const auto in_c = c.find(path);
        const bool moves_with_data = in_b == b.end() || in_b->second != value;
        const bool moves_with_noise = in_c == c.end() || in_c->second != value;
        if (moves_with_data && !moves_with_noise) leaks.push_back(path + " = " + value);
    }
    return leaks;
}

std::vector<std::string> unreleased_differences(const Fields& first, const Fields& neighbour) {
    const auto released = [](const std::string& path) {
        return path.rfind("/released/", 0) == 0 || path.rfind("trace.csv:", 0) == 0;
    };
    std::vector<std::string> leaks;
    for (const auto& [path, value] : first) {
        const auto other = neighbour.find(path);
        if (other == neighbour.end())
            leaks.push_back(path + " is written on D but not on D′");
        else if (other->second != value && !released(path))
            leaks.push_back(path + ": " + value + " on D, " + other->second + " on D′");
    }
    for (const auto& [path, value] : neighbour)
        if (first.count(path) == 0) leaks.push_back(path + " is written on D′ but not on D");
    return leaks;
}

std::vector<std::string> verbatim_rows(const ScanRun& run, const arma::mat& rows) {
    std::vector<std::string> found;
    for (arma::uword i = 0; i < rows.n_rows; ++i) {
        const arma::rowvec row = rows.row(i);
        for (const auto& [path, values] : run.public_arrays)
            if (holds_row(values, row)) found.push_back(path + " holds row " + std::to_string(i) + " of the data");
        for (std::size_t t = 0; t < run.public_trace_rows.size(); ++t)
            if (holds_row(run.public_trace_rows[t], row))
                found.push_back("trace.csv row " + std::to_string(t + 1) + " holds row " + std::to_string(i) +
                                " of the data");
    }
    return found;
}

arma::mat sensitive_rows(const ScanObjective& objective, const Parameters& overrides) {
    Parameters parameters = objective.data;
    for (const auto& [key, value] : overrides) parameters[key] = value;
    const auto built = make<Objective>(objective.name, parameters);
    const auto* finite = capability<FiniteCandidates>(*built);
    if (finite == nullptr || !finite->candidates().sensitive()) return {};
    return finite->candidates().rows;
}

}  // namespace dpbo::test::scan
