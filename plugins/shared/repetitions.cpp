#include "repetitions.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace dpbo::plugin_data {

void for_each_repetition(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& body) {
    const std::size_t workers = std::max<std::size_t>(1, std::min(threads, count));
    if (workers == 1) {
        for (std::size_t r = 0; r < count; ++r) body(r);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    auto work = [&] {
        for (std::size_t r = next++; r < count && !failed; r = next++) {
            try {
                body(r);
            } catch (...) {
                const std::lock_guard lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work);
    work();
    for (std::thread& thread : pool) thread.join();
    if (first_error) std::rethrow_exception(first_error);
}

std::mt19937_64 repetition_engine(std::uint64_t seed, std::size_t repetition, std::uint64_t stream) {
    std::seed_seq seeds{seed, static_cast<std::uint64_t>(repetition), stream};
    return std::mt19937_64(seeds);
}

std::vector<double> repetition_values(std::size_t count, std::size_t threads,
                                      const std::function<double(std::size_t)>& body) {
    std::vector<double> values(count);
    for_each_repetition(count, threads, [&](std::size_t r) { values[r] = body(r); });
    return values;
}

void add_repetition_parameters(ParameterSchema& schema, std::int64_t paper_repetitions) {
    schema
        .integer("repetitions",
                 {.fallback = paper_repetitions,
                  .lower = 1,
                  .upper = 100000,
                  .doc = fmt::format("trainings the test error is averaged over (paper: {})", paper_repetitions)})
        .integer("seed", {.fallback = 1,
                          .lower = 0,
                          .doc = "the learner's randomness: repetition r draws from streams seeded by (seed, r) at "
                                 "every point (common random numbers), so the oracle is a function of its point"})
        .integer("threads", {.fallback = 2,
                             .lower = 1,
                             .upper = 256,
                             .doc = "threads the repetitions run on (results do not depend on it)"});
}

RepetitionErrors repetition_errors(const std::vector<double>& utilities) {
    if (utilities.empty()) throw std::invalid_argument("repetition_errors: no repetitions");
    double total = 0.0;
    for (const double utility : utilities) total += utility;
    const auto [lowest, highest] = std::minmax_element(utilities.begin(), utilities.end());
    return {
        .mean = 1.0 - total / static_cast<double>(utilities.size()), .best = 1.0 - *highest, .worst = 1.0 - *lowest};
}

std::vector<AuxiliaryOutput> repetition_auxiliary_outputs(const std::string& utility) {
    return {{"best_error", fmt::format("1 − the highest {} of the R repetitions", utility)},
            {"worst_error", fmt::format("1 − the lowest {} of the R repetitions", utility)}};
}

void set_repetition_auxiliary(arma::mat& auxiliary, arma::uword row, const RepetitionErrors& errors) {
    auxiliary(row, 0) = errors.best;
    auxiliary(row, 1) = errors.worst;
}

}  // namespace dpbo::plugin_data
