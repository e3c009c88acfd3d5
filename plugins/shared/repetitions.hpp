#pragma once
// The R repetitions of a randomised learner an oracle averages (DPareto: 10 for DP-SGD, 50 for the
// illustrative examples), run on threads. Each repetition draws from its own stream seeded by
// (seed, r), so the results do not depend on the thread count or on the order repetitions finish.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo::plugin_data {

// body(r) for r = 0 .. count − 1 on up to `threads` threads (1: in the caller's thread). The first
// exception a repetition throws is rethrown here after every thread has stopped.
void for_each_repetition(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& body);

// The generator of repetition r: independent streams for distinct (seed, r, stream); `stream`
// separates what one repetition draws for different purposes (e.g. training order and noise), so
// each can be reused on its own.
std::mt19937_64 repetition_engine(std::uint64_t seed, std::size_t repetition, std::uint64_t stream = 0);

// body(r) for every repetition as for_each_repetition, its values in repetition order (what an
// oracle averages, and reports per repetition).
std::vector<double> repetition_values(std::size_t count, std::size_t threads,
                                      const std::function<double(std::size_t)>& body);

// repetitions (default `paper_repetitions`), seed and threads: R trainings on threads, repetition r
// drawing from streams seeded by (seed, r) at every point (common random numbers).
void add_repetition_parameters(ParameterSchema& schema, std::int64_t paper_repetitions);

// An oracle's error (1 − utility) over its R repetitions: the mean it outputs, and the best and the
// worst repetition, which DPareto's oracles also report (as auxiliary outputs). The mean is
// 1 − (Σ_r u_r)/R, summed in repetition order.
struct RepetitionErrors {
    double mean = 0.0;
    double best = 0.0;
    double worst = 0.0;
};
RepetitionErrors repetition_errors(const std::vector<double>& utilities);

// The auxiliary outputs "best_error" and "worst_error" of an oracle whose repetitions each measure
// `utility` (e.g. "test accuracy"), and the two as one row of Evaluations::auxiliary.
std::vector<AuxiliaryOutput> repetition_auxiliary_outputs(const std::string& utility);
void set_repetition_auxiliary(arma::mat& auxiliary, arma::uword row, const RepetitionErrors& errors);

}  // namespace dpbo::plugin_data
