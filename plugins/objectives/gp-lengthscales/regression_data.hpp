#pragma once
// The synthetic regression data set that gp-lengthscales tunes a GP on: inputs uniform in the cube
// [0, input_range]^d, targets one draw of a zero-mean GP (RBF ARD kernel) plus Gaussian noise,
// split into a training and a validation part. Drawn once from its own seed: it is data, not run randomness.
//
// Draws from dpbo::ExperimentRng(seed), in this order (the tests rebuild the data from it):
//   1. uniform(dim, 1) → true length-scales ℓ = low + (high − low)·u;
//   2. uniform(records, dim) → inputs X = input_range·u (row i is record i);
//   3. normal(records, 1) → z, and targets y = L z with L the lower Cholesky factor of
//      K_ℓ(X, X) + noise²·I.
// Step 3 draws the GP values and their noise jointly: f ~ N(0, K) plus independent N(0, noise² I)
// is N(0, K + noise² I). The noise term keeps that matrix well conditioned, so unlike a bare GP
// sample at 2000 points it needs no jitter.
// The first training_records records are the training split, the rest the validation split; the
// records are i.i.d., so this positional split is a random split.
#include <cstddef>
#include <cstdint>

#include <armadillo>

namespace dpbo::gp_lengthscales {

struct DataSettings {
    std::size_t dim = 15;
    std::size_t records = 2000;
    std::size_t training_records = 1000;
    double lengthscale_low = 0.5;
    double lengthscale_high = 5.0;
    double input_range = 1.75;
    double signal_variance = 1.0;
    double noise_stddev = 0.11;
    std::uint64_t seed = 0;
};

struct RegressionData {
    arma::vec true_lengthscales;  // dim
    arma::mat train_inputs;       // training_records × dim
    arma::vec train_targets;
    arma::mat validation_inputs;  // (records − training_records) × dim
    arma::vec validation_targets;
    double signal_variance = 1.0;
    double noise_variance = 0.0;
};

// Throws dpbo::RunError naming `owner` if the covariance cannot be factorised (noise far too small
// for the number of records).
RegressionData draw_regression_data(const DataSettings& settings, const char* owner);

}  // namespace dpbo::gp_lengthscales
