#include "regression_data.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/random.hpp"

namespace dpbo::gp_lengthscales {

RegressionData draw_regression_data(const DataSettings& settings, const char* owner) {
    dpbo::ExperimentRng rng(settings.seed);
    RegressionData data;
    data.signal_variance = settings.signal_variance;
    data.noise_variance = settings.noise_stddev * settings.noise_stddev;
    data.true_lengthscales = settings.lengthscale_low +
                             (settings.lengthscale_high - settings.lengthscale_low) * rng.uniform(settings.dim, 1);
    const arma::mat inputs = settings.input_range * rng.uniform(settings.records, settings.dim);
    const arma::vec standard_normals = rng.normal(settings.records, 1);

    dpbo::gp::KernelSpec spec;
    spec.family = dpbo::gp::KernelFamily::SquaredExponential;
    spec.dim = settings.dim;
    spec.lengthscales = data.true_lengthscales;
    spec.signal_variance = settings.signal_variance;
    arma::mat covariance = dpbo::gp::make_kernel(spec)->cross(inputs, inputs);
    covariance.diag() += data.noise_variance;
    arma::mat factor;
    if (!arma::chol(factor, covariance, "lower")) {
        throw dpbo::RunError(
            fmt::format("{}: the covariance of the {} records (GP kernel plus data_noise² = {:.3g} on the "
                        "diagonal) cannot be factorised; data_noise is too small for this many records — "
                        "raise data_noise or lower records",
                        owner, settings.records, data.noise_variance));
    }
    const arma::vec targets = factor * standard_normals;

    const arma::uword last_training = settings.training_records - 1;
    data.train_inputs = inputs.rows(0, last_training);
    data.train_targets = targets.subvec(0, last_training);
    data.validation_inputs = inputs.rows(last_training + 1, inputs.n_rows - 1);
    data.validation_targets = targets.subvec(last_training + 1, targets.n_elem - 1);
    return data;
}

}  // namespace dpbo::gp_lengthscales
