// The run journal's cost (issue 29: a grid of millions of points spent most of its time in SQLite,
// one prepared INSERT per point, and a killed run left a journal many times its answers' size). Points
// of Branin are evaluated in batches by a serial evaluator, as a grid search evaluates them, once
// without a journal and once keeping one (a fresh journal.sqlite in a temporary folder); wall-clock
// time, best of 3. Prints the time of each, the journal's cost per batch and per point, and the size
// the journal has reached when the last batch is written — what a run killed then would leave.
//
//   dpbo_bench_journal [--points 1000000] [--batch 1000]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/repeat_journal.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"

namespace {

namespace fs = std::filesystem;

struct Pass {
    double seconds = std::numeric_limits<double>::infinity();
    std::uintmax_t journal_bytes = 0;
    std::size_t commits = 0;
    std::size_t statements_prepared = 0;
};

std::uintmax_t journal_bytes(const fs::path& file) {
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (const char* suffix : {"", "-wal"}) {
        const auto size = fs::file_size(file.string() + suffix, ec);
        if (!ec) bytes += size;
    }
    return bytes;
}

// Evaluates `points` points of Branin in batches of `batch`, with a journal in `folder` when given.
Pass evaluate_all(dpbo::Objective& objective, std::size_t points, std::size_t batch, const fs::path& folder) {
    std::unique_ptr<dpbo::RepeatJournal> journal;
    const fs::path file = folder / dpbo::RepeatJournal::kFileName;
    if (!folder.empty()) journal = std::make_unique<dpbo::RepeatJournal>(file, R"({"benchmark":"journal"})", 1, 1);
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_journal(journal.get());
    dpbo::ExperimentRng rng(1);
    const arma::mat unit = rng.uniform(batch, 2);
    const arma::mat block = objective.space().from_unit(unit);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t done = 0; done < points; done += batch) {
        const std::size_t count = std::min(batch, points - done);
        evaluator.evaluate(objective, block.head_rows(count), {.per_record = false, .rng = &rng});
    }
    Pass pass;
    pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (journal) {
        pass.journal_bytes = journal_bytes(file);
        pass.commits = journal->store().commits();
        pass.statements_prepared = journal->store().statements_prepared();
        journal->remove();
    }
    return pass;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::size_t points = 1'000'000;
        std::size_t batch = 1'000;
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--points")
                points = std::stoull(argv[i + 1]);
            else if (flag == "--batch")
                batch = std::stoull(argv[i + 1]);
            else
                throw std::invalid_argument(fmt::format("unknown option {}", flag));
        }
        if (points < 1 || batch < 1) throw std::invalid_argument("--points and --batch must be >= 1");
        if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_journal")) return 2;
        auto objective = dpbo::bench::registry().create_as<dpbo::Objective>("branin", {});
        const fs::path folder =
            fs::temp_directory_path() / fmt::format("dpbo-bench-journal-{}", std::random_device{}());
        fs::create_directories(folder);
        Pass without, with;
        for (int round = 0; round < 3; ++round) {
            const Pass a = evaluate_all(*objective, points, batch, {});
            const Pass b = evaluate_all(*objective, points, batch, folder);
            if (a.seconds < without.seconds) without = a;
            if (b.seconds < with.seconds) with = b;
        }
        fs::remove_all(folder);
        const double batches = static_cast<double>((points + batch - 1) / batch);
        const double cost = with.seconds - without.seconds;
        std::cout << fmt::format(
            "{} points of Branin in batches of {} ({:.0f} batches), best of 3: {:.3f} s without a journal, {:.3f} s "
            "with one: {:.1f} µs per batch, {:.3f} µs per point; the journal held {:.1f} MB ({:.1f} bytes per point) "
            "after the last batch, written in {} transactions with {} statements prepared\n",
            points, batch, batches, without.seconds, with.seconds, 1e6 * cost / batches,
            1e6 * cost / static_cast<double>(points), static_cast<double>(with.journal_bytes) / 1e6,
            static_cast<double>(with.journal_bytes) / static_cast<double>(points), with.commits,
            with.statements_prepared);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_journal: " << e.what() << "\n";
        return 2;
    }
}
