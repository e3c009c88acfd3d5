// PO-GP-UCB's CPU time (issue 14: n = 36 000 candidates in 3-D, T = 50; the modeler's whole run with
// its hyperparameter fits in ≤ 0.3 s CPU, the curator's release in ≤ 0.2 s).
//
// The data: the loan dataset's size, 36 000 rows bootstrapped from the shipped 1 000-loan sample
// (loan-roi), each with a jitter far below the data's resolution (±0.5 USD, ±0.0005 %) so the rows
// stay distinct (the curator addresses a row by its values), written to a CSV and read by `table`
// with loan-roi's declared bounds. Per repeat, with its own seed:
//   - release: the curator's release of the 36 000 rows (release_objective_rows: scaling, SVD,
//     M, Z = r^-1/2·X̃·M) by random-projection and by noisy-projection, r = 15;
//   - run: po-gp-ucb's whole run in one process (that release by random-projection, then the
//     modeler: 5 random rows and 50 GP-UCB steps over Z, the GP's hyperparameters refitted by
//     maximum likelihood every 5 observations, its default); modeler = run − release
//     (random-projection), per repeat (the same seed releases the same rows); and, unless
//     --no-every-step, the same with the GP refitted at every step.
// Medians and ranges over the repeats of thread CPU seconds, BLAS limited to one thread, and the
// median simple regret of the best row (the curator's, evaluation-only), so that a faster modeler
// can be shown to choose as well.
//
// --refit-every N runs the main variant with po-gp-ucb's GP refitted every N observations instead
// of its default (to compare a schedule's time and regret with the default's).
//
//   dpbo_bench_po_gp_ucb [--rows 36000] [--budget 55] [--repeats 5] [--seed 1] [--no-every-step]
//                        [--refit-every N]
#include <algorithm>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <unistd.h>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/curator_release.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"

namespace {

constexpr double kModelerTargetSeconds = 0.3;
constexpr double kReleaseTargetSeconds = 0.2;
// The whole run, the curator's release by random-projection included (the faster target set later).
constexpr double kRunTargetSeconds = 0.15;

struct Options {
    int rows = 36000;
    int budget = 55;
    int repeats = 5;
    std::uint64_t seed = 1;
    bool every_step = true;
    int refit_every = 0;  // 0: po-gp-ucb's default surrogate; else its GP refitted every this many observations
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--no-every-step") {
            options.every_step = false;
            continue;
        }
        if (i + 1 >= argc) throw std::invalid_argument(fmt::format("{} needs a value", flag));
        const std::string value = argv[++i];
        if (flag == "--rows")
            options.rows = std::stoi(value);
        else if (flag == "--budget")
            options.budget = std::stoi(value);
        else if (flag == "--repeats")
            options.repeats = std::stoi(value);
        else if (flag == "--seed")
            options.seed = std::stoull(value);
        else if (flag == "--refit-every") {
            options.refit_every = std::stoi(value);
            if (options.refit_every < 1)
                throw std::invalid_argument(fmt::format("--refit-every {}: expected a whole number >= 1", value));
        } else
            throw std::invalid_argument(fmt::format("unknown option {}", flag));
    }
    if (options.rows < 10 || options.budget < 6 || options.repeats < 1)
        throw std::invalid_argument("--rows must be >= 10, --budget >= 6, --repeats >= 1");
    return options;
}

// The bootstrapped loans as a CSV `table` reads, with loan-roi's declared bounds.
std::string bootstrap_loans(int rows, std::uint64_t seed, const std::filesystem::path& folder) {
    auto loans = dpbo::bench::registry().create_as<dpbo::Objective>("loan-roi", {});
    const arma::mat& sample = loans->space().candidate_rows();
    const arma::vec responses = loans->evaluate(sample, dpbo::EvaluationRequest{}).values.col(0);
    dpbo::ExperimentRng rng(seed);
    const std::filesystem::path path = folder / "loans.csv";
    std::ofstream out(path);
    out << "funded_amnt_inv,int_rate,annual_inc,roi\n";
    const arma::rowvec jitter{0.5, 0.0005, 0.5};
    const arma::rowvec lower = loans->space().lower();
    const arma::rowvec upper = loans->space().upper();
    for (int i = 0; i < rows; ++i) {
        const std::size_t k = rng.index(sample.n_rows);
        arma::rowvec row = sample.row(k) + jitter % (2.0 * rng.uniform(1, 3) - 1.0);
        row = arma::min(arma::max(row, lower), upper);
        out << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g}\n", row(0), row(1), row(2), responses(k));
    }
    return path.string();
}

double release_seconds(dpbo::Objective& data, const std::string& name, std::uint64_t seed) {
    auto release = dpbo::bench::registry().create_as<dpbo::RowRelease>(name, {{"r", "15"}, {"epsilon", "3"}});
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::PrivacyLedger ledger(dpbo::bench::registry().create_as<dpbo::Accountant>("basic", {}), std::nullopt, noise,
                               "benchmark");
    const double start = dpbo::bench::thread_cpu_seconds();
    const dpbo::CuratorRelease released = dpbo::release_objective_rows(data, *release, 25.0, ledger, "benchmark");
    const double seconds = dpbo::bench::thread_cpu_seconds() - start;
    if (released.rows.n_rows != data.space().candidate_rows().n_rows) throw std::runtime_error("release lost rows");
    return seconds;
}

// po-gp-ucb's surrogate role with its GP refitted every `every` observations (its default otherwise).
dpbo::bench::RoleModule gp_refitted_every(int every) {
    return {"gp",
            {{"kernel", "rbf"},
             {"ard", "false"},
             {"mean", "constant"},
             {"standardise", "true"},
             {"fit", "marginal-likelihood"},
             {"refit_every", std::to_string(every)}}};
}

// The curator's simple regret of the run's best row (evaluation-only); NaN when the objective knows
// no optimum.
double simple_regret(const dpbo::RunResult& result) {
    for (const auto& value : result.evaluation_only)
        if (value.name == "simple_regret") return value.value(0, 0);
    return std::numeric_limits<double>::quiet_NaN();
}

// "median s (min–max)" of per-repeat seconds.
std::string spread(const std::vector<double>& seconds) {
    const auto [low, high] = std::minmax_element(seconds.begin(), seconds.end());
    return fmt::format("{:.4f} s ({:.4f}–{:.4f})", dpbo::bench::median(seconds), *low, *high);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_po_gp_ucb")) return 2;
        const Options options = parse(argc, argv);
        const dpbo::bench::ScratchFolder scratch("dpbo-bench-po-gp-ucb");
        const std::filesystem::path& folder = scratch.path();
        std::vector<double> projections, noisy, runs, modelers, every_step, regrets, every_step_regrets;
        const std::map<std::string, std::string> algorithm{
            {"budget", std::to_string(options.budget)}, {"initial_points", "5"}, {"write_released_rows", "false"}};
        const dpbo::bench::RoleModule release{"random-projection", {{"r", "15"}, {"epsilon", "3"}}};
        std::size_t rows = 0;
        for (int r = 0; r < options.repeats; ++r) {
            const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(r);
            const std::string file = bootstrap_loans(options.rows, seed, folder);
            auto table = dpbo::bench::registry().create_as<dpbo::Objective>(
                "table", {{"file", file},
                          {"columns", "funded_amnt_inv,int_rate,annual_inc"},
                          {"response", "roi"},
                          {"bounds", "0:35000,5:25,0:250000"}});
            rows = table->space().candidate_rows().n_rows;
            projections.push_back(release_seconds(*table, "random-projection", seed));
            noisy.push_back(release_seconds(*table, "noisy-projection", seed));
            std::map<std::string, dpbo::bench::RoleModule> roles{{"release", release}};
            if (options.refit_every > 0) roles["surrogate"] = gp_refitted_every(options.refit_every);
            const auto run = dpbo::bench::run_with_roles("po-gp-ucb", algorithm, *table, roles, seed);
            runs.push_back(run.cpu_seconds);
            modelers.push_back(run.cpu_seconds - projections.back());
            regrets.push_back(simple_regret(run.result));
            if (!options.every_step) continue;
            const auto refitting = dpbo::bench::run_with_roles(
                "po-gp-ucb", algorithm, *table, {{"release", release}, {"surrogate", gp_refitted_every(1)}}, seed);
            every_step.push_back(refitting.cpu_seconds - projections.back());
            every_step_regrets.push_back(simple_regret(refitting.result));
        }
        std::cout << fmt::format(
            "n = {} rows in 3-D (bootstrapped loans), r = 15, T = {} after 5 random rows, medians (min–max) "
            "of {} seeded repeats, thread CPU seconds; GP refitted every {}\n",
            rows, options.budget - 5, options.repeats,
            options.refit_every > 0 ? fmt::format("{} observations", options.refit_every)
                                    : std::string("5 observations (the default)"));
        std::cout << fmt::format("  release, random-projection   {}   (target <= {} s)\n", spread(projections),
                                 kReleaseTargetSeconds);
        std::cout << fmt::format("  release, noisy-projection    {}   (target <= {} s)\n", spread(noisy),
                                 kReleaseTargetSeconds);
        std::cout << fmt::format("  po-gp-ucb run (release + modeler)  {}   (target <= {} s)\n", spread(runs),
                                 kRunTargetSeconds);
        std::cout << fmt::format("  modeler (run - release)      {}   (target <= {} s)\n", spread(modelers),
                                 kModelerTargetSeconds);
        std::string per_repeat;
        for (const double regret : regrets) per_repeat += fmt::format(" {:.4g}", regret);
        std::cout << fmt::format("  simple regret of the best row, median {:.6g}; per repeat:{}\n",
                                 dpbo::bench::median(regrets), per_repeat);
        if (options.every_step)
            std::cout << fmt::format(
                "  modeler, GP refitted at every step (refit_every = 1)  {}; simple regret median {:.6g}\n",
                spread(every_step), dpbo::bench::median(every_step_regrets));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_po_gp_ucb: " << e.what() << "\n";
        return 2;
    }
}
