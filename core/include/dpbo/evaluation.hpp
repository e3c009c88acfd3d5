#pragma once
// What an objective returns for a batch of points. Each method takes what it needs: one value per
// point; per-record losses (b×n) for record-decomposable objectives (DP-GIBO clips per record);
// several named outputs per point (DPareto: "epsilon" and "error"); the candidate row index for
// finite sets (Kusner, PO-GP-UCB).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include <armadillo>

#include "dpbo/parameters.hpp"

namespace dpbo {

class ExperimentRng;

struct EvaluationRequest {
    bool per_record = false;  // fill Evaluations::per_record (b × n)
    // Randomness for noisy or randomised objectives; never privacy noise.
    ExperimentRng* rng = nullptr;
};

struct Evaluations {
    arma::mat points;           // b × d, the points as evaluated
    arma::vec values;           // b, the objective (minimised or maximised per Objective::sense)
    arma::mat per_record;       // b × n when requested; values == mean of each row
    std::map<std::string, arma::vec> outputs;  // named extra outputs, b each
    arma::uvec candidate_rows;  // b, for finite candidate sets

    std::size_t size() const { return values.n_elem; }
    // Throws RunError naming the module and the offending sizes or NaN entries.
    void check(const std::string& producer, std::size_t dim) const;
};

// Declares the `noise_stddev` parameter every benchmark objective shares (default 0: exact values).
void add_noise_parameter(ParameterSchema& schema, const std::string& note = "");

// Declares what objectives over records drawn from their own seed share (normal-location,
// huber-regression): `bound` (the search box [−bound, bound]^d, whose centre 0 is DP-GIBO's θ⁽⁰⁾),
// `data_seed`, and `noise_stddev` on the mean values only.
void add_synthetic_record_parameters(ParameterSchema& schema);

// Those parameters as read, with the objective's own `dim` and `records`.
struct SyntheticRecordSettings {
    std::size_t dim = 0;
    std::size_t records = 0;
    double bound = 0.0;
    std::uint64_t data_seed = 0;
    double noise_stddev = 0.0;
};
SyntheticRecordSettings synthetic_record_settings(const ParameterSet& parameters);

// Adds N(0, stddev²) observation noise to `values` from the request's experiment generator (a no-op
// for stddev == 0). Throws RunError naming `owner` when noise is asked for but the request carries
// no generator.
void add_observation_noise(arma::vec& values, double stddev, const EvaluationRequest& request,
                           const std::string& owner);

}  // namespace dpbo
