// dpareto end to end through `dpbo run`, on the closed-form two-output test objective
// privacy-utility-toy (an integer and a log-scaled dimension): the files it writes agree with each
// other and with the objective, the per-iteration hypervolume is the exact one of the front so far,
// batches are whole, and bad settings are refused by name.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <armadillo>
#include <nlohmann/json.hpp>

#include "dpbo/bo/pareto.hpp"
#include "dpbo/objective.hpp"
#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Csv {
    std::vector<std::string> header;
    std::vector<std::vector<double>> rows;
    std::size_t column(const std::string& name) const {
        for (std::size_t j = 0; j < header.size(); ++j)
            if (header[j] == name) return j;
        FAIL("no column ", name);
        return 0;
    }
};

Csv read_csv(const std::filesystem::path& file) {
    std::ifstream in(file);
    REQUIRE(in);
    Csv csv;
    std::string line;
    std::getline(in, line);
    std::stringstream head(line);
    for (std::string cell; std::getline(head, cell, ',');) csv.header.push_back(cell);
    while (std::getline(in, line)) {
        std::vector<double> row;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
        REQUIRE(row.size() == csv.header.size());
        csv.rows.push_back(row);
    }
    return csv;
}

arma::mat values_of(const Csv& csv, std::size_t rows) {
    arma::mat values(rows, 2);
    for (std::size_t i = 0; i < rows; ++i) {
        values(i, 0) = csv.rows[i][csv.column("epsilon")];
        values(i, 1) = csv.rows[i][csv.column("error")];
    }
    return values;
}

const std::vector<dpbo::Sense> kMinimiseBoth = {dpbo::Sense::Minimise, dpbo::Sense::Minimise};

// Runs dpareto on the toy and checks what every run must satisfy; returns the points file.
Csv check_run(const std::vector<std::string>& extra, std::size_t budget, std::size_t initial, std::size_t batch) {
    TemporaryDirectory dir;
    std::vector<std::string> args = {"run",
                                     "--algorithm",
                                     "dpareto",
                                     "--objective",
                                     "privacy-utility-toy",
                                     "--plugin-path",
                                     DPBO_TEST_FLAWED_PLUGIN_DIR,
                                     "--set",
                                     "algorithm.budget=" + std::to_string(budget),
                                     "--set",
                                     "algorithm.initial_points=" + std::to_string(initial),
                                     "--set",
                                     "algorithm.batch=" + std::to_string(batch),
                                     "--seed",
                                     "3",
                                     "--out",
                                     dir.path(),
                                     "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_dpbo(args);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = nlohmann::json::parse(r.out);
    CHECK(result["evaluations"] == budget);
    CHECK(result["privacy"]["notion"] == "not private");
    const std::string statement = result["privacy"].dump();
    CHECK(contains(statement, "trusted analysts"));
    CHECK(contains(statement, "not a cost of this run"));
    const std::filesystem::path out(dir.path());

    // Every evaluated point, with the toy's closed-form outputs; steps are integers throughout.
    const Csv points = read_csv(out / "points.csv");
    REQUIRE(points.rows.size() == budget);
    double random_draws = 0.0;
    for (std::size_t i = 0; i < budget; ++i) {
        const double s = points.rows[i][points.column("steps")], sigma = points.rows[i][points.column("sigma")];
        CAPTURE(i);
        CHECK(s == std::round(s));
        CHECK(s >= 1.0);
        CHECK(s <= 20.0);
        CHECK(points.rows[i][points.column("epsilon")] == doctest::Approx(2.0 * std::sqrt(s) / sigma).epsilon(1e-12));
        CHECK(points.rows[i][points.column("error")] ==
              doctest::Approx(0.05 + 0.9 * sigma * sigma / (sigma * sigma + s) + 0.002 * s).epsilon(1e-12));
        // The design is iteration 0, then q points per iteration.
        const double expected_iteration = i < initial ? 0.0 : std::floor(double(i - initial) / double(batch)) + 1.0;
        CHECK(points.rows[i][points.column("iteration")] == expected_iteration);
        if (i < initial)
            CHECK(points.rows[i][points.column("random")] == 1.0);
        else
            random_draws += points.rows[i][points.column("random")];
    }
    // Every model-based choice the acquisition gave no positive HVPoI was replaced by a random draw.
    CHECK(result["released"]["plateau_draws"]["value"].get<double>() == random_draws);
    // No point is evaluated twice: the oracle is deterministic, a repeat would add nothing.
    for (std::size_t a = 0; a < budget; ++a)
        for (std::size_t b = a + 1; b < budget; ++b) {
            const double da = std::abs(points.rows[a][points.column("steps")] - points.rows[b][points.column("steps")]);
            const double db = std::abs(points.rows[a][points.column("sigma")] - points.rows[b][points.column("sigma")]);
            CAPTURE(a);
            CAPTURE(b);
            CHECK(da + db > 0.0);
        }
    const arma::mat all = values_of(points, budget);

    // The front file is the non-dominated set of the points file (computed here, by definition).
    const Csv front = read_csv(out / "front.csv");
    std::vector<std::size_t> expected_front;
    for (std::size_t a = 0; a < budget; ++a) {
        bool dominated = false;
        for (std::size_t b = 0; b < budget; ++b)
            dominated = dominated || (all(b, 0) <= all(a, 0) && all(b, 1) <= all(a, 1) &&
                                      (all(b, 0) < all(a, 0) || all(b, 1) < all(a, 1)));
        if (!dominated) expected_front.push_back(a);
    }
    REQUIRE(front.rows.size() == expected_front.size());
    for (std::size_t k = 0; k < expected_front.size(); ++k) CHECK(front.rows[k] == points.rows[expected_front[k]]);
    const auto front_json = nlohmann::json::parse(std::ifstream(out / "front.json"));
    CHECK(front_json["points"].size() == expected_front.size());
    CHECK(contains(front_json["statement"].get<std::string>(), "not private"));

    // The trace: one row per iteration, its hypervolume the exact one of the front so far w.r.t.
    // v† = (10, 1), never decreasing; the last is the released one.
    const Csv trace = read_csv(out / "trace.csv");
    CHECK(trace.rows.size() == 1 + (budget - initial + batch - 1) / batch);
    double previous = 0.0;
    for (const auto& row : trace.rows) {
        const auto n = static_cast<std::size_t>(row[trace.column("evaluations")]);
        const arma::mat so_far = all.rows(0, n - 1);
        const double expected =
            dpbo::hypervolume_2d(so_far.rows(dpbo::non_dominated(so_far, kMinimiseBoth)), {10.0, 1.0}, kMinimiseBoth);
        CAPTURE(n);
        CHECK(row[trace.column("hypervolume")] == doctest::Approx(expected).epsilon(1e-12));
        CHECK(row[trace.column("hypervolume")] >= previous);
        previous = row[trace.column("hypervolume")];
    }
    CHECK(result["released"]["hypervolume"]["value"].get<double>() == doctest::Approx(previous).epsilon(1e-12));
    CHECK(front_json["hypervolume"].get<double>() == doctest::Approx(previous).epsilon(1e-12));
    return points;
}

}  // namespace

TEST_CASE("cli dpareto: a sequential run's files agree and its hypervolume grows past the design's") {
    const Csv points = check_run({}, 24, 8, 1);
    // The model-based points improve on the random design: the hypervolume after the run exceeds
    // the design's (a run that learnt nothing would often leave it unchanged).
    const arma::mat all = values_of(points, points.rows.size());
    const arma::mat design = all.rows(0, 7);
    const double before =
        dpbo::hypervolume_2d(design.rows(dpbo::non_dominated(design, kMinimiseBoth)), {10.0, 1.0}, kMinimiseBoth);
    const double after =
        dpbo::hypervolume_2d(all.rows(dpbo::non_dominated(all, kMinimiseBoth)), {10.0, 1.0}, kMinimiseBoth);
    MESSAGE("hypervolume after the design ", before, ", after the run ", after);
    CHECK(after > before);
}

TEST_CASE("cli dpareto: batches of q = 3 are distinct points chosen together") {
    const Csv points = check_run({}, 20, 8, 3);
    for (std::size_t first = 8; first < points.rows.size(); first += 3) {
        for (std::size_t a = first; a < std::min(first + 3, points.rows.size()); ++a)
            for (std::size_t b = a + 1; b < std::min(first + 3, points.rows.size()); ++b) {
                CAPTURE(a);
                CAPTURE(b);
                CHECK(points.rows[a] != points.rows[b]);
            }
    }
}

TEST_CASE("cli dpareto: reference = adaptive changes the acquisition only, reports keep v† = (10, 1)") {
    check_run({"--set", "algorithm.reference=adaptive"}, 16, 8, 1);
}

TEST_CASE("cli dpareto: an oracle's best and worst repetition are reported with every point, not modelled") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--algorithm", "dpareto", "--objective", "svt", "--set", "objective.repetitions=4",
                             "--set", "algorithm.budget=10", "--set", "algorithm.initial_points=6", "--seed", "2",
                             "--out", dir.path(), "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const std::filesystem::path out(dir.path());
    const Csv points = read_csv(out / "points.csv");
    REQUIRE(points.rows.size() == 10);
    bool spread = false;
    for (const auto& row : points.rows) {
        const double best = row[points.column("best_error")], mean = row[points.column("error")],
                     worst = row[points.column("worst_error")];
        CHECK(best <= mean);
        CHECK(mean <= worst);
        spread = spread || best < worst;
    }
    CHECK(spread);  // four query orders do not all score alike
    const auto front_json = nlohmann::json::parse(std::ifstream(out / "front.json"));
    CHECK(front_json["auxiliary_outputs"][0]["name"] == "best_error");
    for (const auto& point : front_json["points"]) {
        const auto& row = points.rows.at(point["evaluation"].get<std::size_t>());
        CHECK(point["auxiliary"]["worst_error"].get<double>() == row[points.column("worst_error")]);
    }
    const auto result = nlohmann::json::parse(r.out);
    CHECK(contains(result["privacy"].dump(), "auxiliary outputs"));
}

TEST_CASE("cli dpareto: refusals name what is wrong") {
    TemporaryDirectory dir;
    const auto run = [&](const std::vector<std::string>& extra, const std::string& objective) {
        std::vector<std::string> args = {"run",
                                         "--algorithm",
                                         "dpareto",
                                         "--objective",
                                         objective,
                                         "--plugin-path",
                                         DPBO_TEST_FLAWED_PLUGIN_DIR,
                                         "--set",
                                         "algorithm.budget=12",
                                         "--set",
                                         "algorithm.initial_points=6",
                                         "--seed",
                                         "1",
                                         "--out",
                                         (std::filesystem::path(dir.path()) / objective).string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_dpbo(args);
    };
    {
        const auto r = run({}, "quadratic");
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "exactly 2 outputs"));
        CHECK(contains(r.err, "declares 1"));
    }
    {
        const auto r = run({"--set", "algorithm.reference=0,1"}, "privacy-utility-toy");
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "reference"));
        CHECK(contains(r.err, "'epsilon'"));
        CHECK(contains(r.err, "> 0"));
    }
    {
        const auto r = run({"--set", "algorithm.reference=10,1.5"}, "privacy-utility-toy");
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "'error'"));
        CHECK(contains(r.err, "(0, 1]"));
    }
    {
        const auto r = run({"--set", "algorithm.reference=ten,1"}, "privacy-utility-toy");
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "'ten' is not a finite number"));
    }
    {
        const auto r = run({"--set", "algorithm.output_transforms=log,sqrt"}, "privacy-utility-toy");
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "'sqrt' is not a transform"));
    }
    {
        // two-distances' second output, −‖x − b‖² (maximised, so v† = 0 is worse than its best, 1,
        // and accepted), is negative: no logit exists; the run stops at the first observation,
        // naming the output and the transform.
        const auto r = run({"--set", "algorithm.reference=10,0"}, "two-distances");
        CAPTURE(r.err);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "output 'closeness_b'"));
        CHECK(contains(r.err, "logit transform"));
    }
}
