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
//     (random-projection); and the same with the GP refitted at every step.
// Medians over the repeats of thread CPU seconds, BLAS limited to one thread.
//
//   dpbo_bench_po_gp_ucb [--rows 36000] [--budget 55] [--repeats 5] [--seed 1]
#include <cstdint>
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

struct Options {
    int rows = 36000;
    int budget = 55;
    int repeats = 5;
    std::uint64_t seed = 1;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
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
        else
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

}  // namespace

int main(int argc, char** argv) {
    try {
        if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_po_gp_ucb")) return 2;
        const Options options = parse(argc, argv);
        const dpbo::bench::ScratchFolder scratch("dpbo-bench-po-gp-ucb");
        const std::filesystem::path& folder = scratch.path();
        std::vector<double> projections, noisy, runs, every_step;
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
            const auto run = dpbo::bench::run_with_roles(
                "po-gp-ucb",
                {{"budget", std::to_string(options.budget)}, {"initial_points", "5"}, {"write_released_rows", "false"}},
                *table, {{"release", {"random-projection", {{"r", "15"}, {"epsilon", "3"}}}}}, seed);
            runs.push_back(run.cpu_seconds);
            const auto refitting = dpbo::bench::run_with_roles(
                "po-gp-ucb",
                {{"budget", std::to_string(options.budget)}, {"initial_points", "5"}, {"write_released_rows", "false"}},
                *table,
                {{"release", {"random-projection", {{"r", "15"}, {"epsilon", "3"}}}},
                 {"surrogate",
                  {"gp",
                   {{"kernel", "rbf"},
                    {"ard", "false"},
                    {"mean", "constant"},
                    {"standardise", "true"},
                    {"fit", "marginal-likelihood"},
                    {"refit_every", "1"}}}}},
                seed);
            every_step.push_back(refitting.cpu_seconds);
        }
        const double projection = dpbo::bench::median(projections);
        const double run = dpbo::bench::median(runs);
        std::cout << fmt::format(
            "n = {} rows in 3-D (bootstrapped loans), r = 15, T = {} after 5 random rows, medians "
            "of {} seeded repeats, thread CPU seconds\n",
            rows, options.budget - 5, options.repeats);
        std::cout << fmt::format("  release, random-projection   {:.4f} s   (target <= {} s)\n", projection,
                                 kReleaseTargetSeconds);
        std::cout << fmt::format("  release, noisy-projection    {:.4f} s   (target <= {} s)\n",
                                 dpbo::bench::median(noisy), kReleaseTargetSeconds);
        std::cout << fmt::format("  po-gp-ucb run (release + modeler)  {:.4f} s\n", run);
        std::cout << fmt::format("  modeler (run - release)      {:.4f} s   (target <= {} s)\n", run - projection,
                                 kModelerTargetSeconds);
        std::cout << fmt::format("  modeler, GP refitted at every step (refit_every = 1)  {:.4f} s\n",
                                 dpbo::bench::median(every_step) - projection);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_po_gp_ucb: " << e.what() << "\n";
        return 2;
    }
}
