// Nothing computed from the sensitive data without privatisation may leave evaluation_only. For
// every shipped private algorithm on every shipped objective with records, the same job is run
// three times: on the data (A), on other data with the same seed, so the same noise (B), and on the
// data with another seed, so other noise (C). A public field that changes with the data but not
// with the noise (A ≠ B, A = C) carries the data unprivatised — a privatised value moves with its
// noise, a constant moves with neither. Every such field is reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/observer.hpp"
#include "dpbo/host/runner.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Fields = std::map<std::string, std::string>;

struct ScanCase {
    std::string label;
    dpbo::JobSpec job;
};

// The data change: another draw of the records. The public description names the seed it was drawn
// with — configuration, not data — so that name is read past when descriptions are compared.
constexpr const char* kDataKey = "data_seed";

std::string without_data_seed(const std::string& text) {
    static const std::regex seed_mention(R"(data_seed \d+)");
    return std::regex_replace(text, seed_mention, "data_seed ?");
}

// Every leaf of result.json outside what may differ: the job (the configuration itself), the
// evaluation-only values, the timing (evaluation-only) and the randomness record (the seeds).
void flatten(const json& value, const std::string& path, Fields& out) {
    static const std::set<std::string> kExempt = {"/job", "/evaluation_only", "/timing", "/randomness"};
    if (kExempt.count(path) != 0) return;
    if (value.is_object()) {
        for (const auto& [key, child] : value.items()) flatten(child, path + "/" + key, out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], path + "/" + std::to_string(i), out);
    } else {
        out[path] = path == "/objective/data" ? without_data_seed(value.get<std::string>()) : value.dump();
    }
}

// Public trace columns, one field per column (the whole column as text).
void add_public_trace(const fs::path& folder, const json& result, Fields& out) {
    std::vector<bool> public_column;
    std::vector<std::string> names;
    for (const auto& column : result["trace"]["columns"]) {
        names.push_back(column["name"].get<std::string>());
        public_column.push_back(!column["evaluation_only"].get<bool>());
    }
    std::ifstream in(folder / "trace.csv");
    std::string line;
    std::getline(in, line);  // header
    std::vector<std::string> columns(names.size());
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        std::string cell;
        for (std::size_t j = 0; j < names.size() && std::getline(cells, cell, ','); ++j) columns[j] += cell + ";";
    }
    for (std::size_t j = 0; j < names.size(); ++j)
        if (public_column[j]) out["trace.csv:" + names[j]] = columns[j];
}

Fields run_and_read(dpbo::JobSpec job, std::uint64_t seed, const std::string& data_seed) {
    static dpbo::RunObserver quiet;
    dpbo::test::TemporaryDirectory dir;
    job.seed = seed;
    job.objective.parameters[kDataKey] = data_seed;
    job.out_dir = dir.path();
    dpbo::run_job(dpbo::test::registry(), job, [](std::size_t) -> dpbo::RunObserver& { return quiet; });
    std::ifstream in(fs::path(dir.path()) / "result.json");
    const json result = json::parse(in);
    Fields fields;
    flatten(result, "", fields);
    add_public_trace(dir.path(), result, fields);
    return fields;
}

std::vector<std::string> unprivatised_fields(const dpbo::JobSpec& job) {
    const Fields a = run_and_read(job, 11, "0");
    const Fields b = run_and_read(job, 11, "1");  // other data, same noise
    const Fields c = run_and_read(job, 12, "0");  // same data, other noise
    std::vector<std::string> leaks;
    for (const auto& [path, value] : a) {
        const auto in_b = b.find(path);
        const auto in_c = c.find(path);
        const bool moves_with_data = in_b == b.end() || in_b->second != value;
        const bool moves_with_noise = in_c == c.end() || in_c->second != value;
        if (moves_with_data && !moves_with_noise) leaks.push_back(path + " = " + value);
    }
    return leaks;
}

dpbo::JobSpec job(const std::string& algorithm, std::map<std::string, std::string> algorithm_parameters,
                  const std::string& objective, std::map<std::string, std::string> objective_parameters) {
    dpbo::JobSpec spec;
    spec.algorithm = {algorithm, std::move(algorithm_parameters)};
    spec.objective = {objective, std::move(objective_parameters)};
    return spec;
}

std::vector<ScanCase> shipped_private_runs() {
    const std::map<std::string, std::map<std::string, std::string>> objectives = {
        {"normal-location", {{"dim", "2"}, {"records", "20"}}},
        {"huber-regression", {{"dim", "2"}, {"records", "30"}}},
        {"gp-lengthscales", {{"dim", "2"}, {"records", "60"}}},
        {"svr-tuning", {{"features", "3"}, {"train_rows", "40"}, {"validation_rows", "30"}}},
    };
    std::vector<ScanCase> cases;
    for (const auto& [objective, parameters] : objectives) {
        cases.push_back(
            {"dp-gibo on " + objective, job("dp-gibo", {{"iterations", "2"}, {"mu", "1"}}, objective, parameters)});
        if (objective != "svr-tuning")  // DP-GD needs exact per-record gradients
            cases.push_back(
                {"dp-gd on " + objective, job("dp-gd", {{"iterations", "3"}, {"mu", "1"}}, objective, parameters)});
        dpbo::JobSpec search =
            job("random-search", {{"budget", "6"}, {"value_sensitivity", "0.1"}}, objective, parameters);
        search.roles["mechanism"] = dpbo::ModuleChoice{"gaussian", {{"mu", "1"}}};
        cases.push_back({"random-search + gaussian on " + objective, search});
    }
    dpbo::JobSpec grid = job("grid-search", {{"per_dimension", "3"}, {"value_sensitivity", "0.1"}}, "normal-location",
                             objectives.at("normal-location"));
    grid.roles["mechanism"] = dpbo::ModuleChoice{"laplace", {{"epsilon", "1"}}};
    cases.push_back({"grid-search + laplace on normal-location", grid});
    return cases;
}

}  // namespace

TEST_CASE("evaluation-only scan: no shipped private run writes unprivatised data outside evaluation_only") {
    for (const ScanCase& scan : shipped_private_runs()) {
        CAPTURE(scan.label);
        const std::vector<std::string> leaks = unprivatised_fields(scan.job);
        for (const std::string& leak : leaks) CAPTURE(leak);
        CHECK(leaks.empty());
    }
}

TEST_CASE("evaluation-only scan: it flags a release of exact values") {
    // Grid search without a mechanism releases the exact best value: it moves with the data and not
    // with the seed, which is what the scan must catch (and why such runs are stated not private).
    const dpbo::JobSpec exact =
        job("grid-search", {{"per_dimension", "3"}}, "normal-location", {{"dim", "2"}, {"records", "20"}});
    const std::vector<std::string> leaks = unprivatised_fields(exact);
    const auto names_best_value = [](const std::string& leak) { return leak.rfind("/released/best_value", 0) == 0; };
    CHECK(std::any_of(leaks.begin(), leaks.end(), names_best_value));
}
