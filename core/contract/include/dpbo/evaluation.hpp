#pragma once
// What an objective returns for a batch of points. Each method takes what it needs: one value per
// point and output (DPareto: "epsilon" and "error" side by side); per-record losses (b×n) for
// record-decomposable objectives (DP-GIBO clips per record); the candidate row index for finite
// sets (Kusner, PO-GP-UCB).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/parameters.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

class ExperimentRng;
class PrivacyNoiseSource;

struct EvaluationRequest {
    bool per_record = false;  // fill Evaluations::per_record (b × n)
    // Randomness for noisy or randomised objectives; never privacy noise.
    ExperimentRng* rng = nullptr;
    // Privacy noise for a PrivateTrials objective's training and score release: a stream the host
    // keys for this batch from the run's noise source. Null for every other objective.
    PrivacyNoiseSource* trial_noise = nullptr;
    // Set by an algorithm that judges a point for an evaluation-only figure (f(θ_T), a regret), outside
    // its evaluation budget: an objective that draws observation noise inside evaluate() leaves it
    // out, so the figure is the exact value its description promises.
    bool exact = false;
};

struct Evaluations {
    arma::mat points;  // b × d, the points as evaluated
    // b × k, one column per Objective::outputs() entry, each minimised or maximised by its own
    // sense. With one output, values(i), values.n_elem and `arma::vec v = values` read it as a vector.
    arma::mat values;
    arma::mat per_record;       // b × n when requested; values == mean of each row
    arma::uvec candidate_rows;  // b, for finite candidate sets
    // b × a, one column per Objective::auxiliary_outputs() entry (empty when a = 0): reported with
    // the point, never modelled, and without the host's observation noise.
    arma::mat auxiliary;
    // b lists for a PrivateTrials objective: the events each point's evaluation spent (what the host
    // charges); empty for every other objective.
    std::vector<std::vector<PrivacyEvent>> trial_events;

    std::size_t size() const { return values.n_rows; }
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

// Adds N(0, stddev²) observation noise to every entry of `values` from the request's experiment
// generator (a no-op for stddev == 0 or an `exact` request). Throws RunError naming `owner` when
// noise is asked for but the request carries no generator. The evaluator calls it with
// ObservationNoise::observation_noise_stddev(); an objective whose per-record losses are themselves
// noisy observations may call it inside evaluate(), as long as its values stay the mean of those rows.
void add_observation_noise(arma::mat& values, double stddev, const EvaluationRequest& request,
                           const std::string& owner);

}  // namespace dpbo
