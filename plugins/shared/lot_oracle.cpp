#include "lot_oracle.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "repetitions.hpp"

namespace dpbo::plugin_data {

void add_noise_hyperparameter_parameter(ParameterSchema& schema) {
    schema.choice("noise_hyperparameter", {"variance", "multiplier"}, "variance",
                  "what the noise dimension's [0.1, 16] sets: the noise variance σ² as the paper writes it "
                  "(noise (2L/m)·N(0, σ²I), dimension noise_variance), or the noise multiplier σ itself as the "
                  "authors' code uses it (dimension noise_multiplier)");
}

NoiseHyperparameter noise_hyperparameter(const ParameterSet& parameters) {
    return parameters.text("noise_hyperparameter") == "multiplier" ? NoiseHyperparameter::Multiplier
                                                                   : NoiseHyperparameter::Variance;
}

Dimension noise_dimension(NoiseHyperparameter reading) {
    return {.name = reading == NoiseHyperparameter::Multiplier ? "noise_multiplier" : "noise_variance",
            .lower = 0.1,
            .upper = 16};
}

LotHyperparameters lot_hyperparameters(const arma::rowvec& point, arma::uword index, std::size_t rows,
                                       NoiseHyperparameter reading, const std::string& owner) {
    const double epochs = point(0), lot = point(1);
    const auto positive = [](double x) { return x > 0 && std::isfinite(x); };
    if (epochs != std::round(epochs) || lot != std::round(lot) || epochs < 1 || lot < 1 ||
        lot > static_cast<double>(rows) || !positive(point(2)) || !positive(point(3)) || !positive(point(4)))
        throw RunError(
            fmt::format("{}: point {} = ({}, {}, {}, {}, {}) is outside the domain: integer epochs ≥ 1, an "
                        "integer lot size in 1..{} (the training rows), and finite positive learning "
                        "rate, {} and clipping norm",
                        owner, index, epochs, lot, point(2), point(3), point(4), rows, noise_dimension(reading).name));
    return {.epochs = static_cast<std::size_t>(epochs),
            .lot_size = static_cast<std::size_t>(lot),
            .learning_rate = point(2),
            .noise_multiplier = reading == NoiseHyperparameter::Multiplier ? point(3) : std::sqrt(point(3)),
            .clipping_norm = point(4)};
}

Evaluations evaluate_lot_oracle(const arma::mat& points, std::size_t rows, NoiseHyperparameter reading,
                                const std::string& owner, FixedLotEpsilon& epsilon,
                                const std::function<std::vector<double>(const LotHyperparameters&)>& utilities) {
    if (points.n_cols != 5)
        throw RunError(
            fmt::format("{}: points have {} columns; expected 5 (epochs, lot_size, learning_rate, "
                        "{}, clipping_norm)",
                        owner, points.n_cols, noise_dimension(reading).name));
    Evaluations result;
    result.points = points;
    result.values.set_size(points.n_rows, 2);
    result.auxiliary.set_size(points.n_rows, 2);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const LotHyperparameters h = lot_hyperparameters(points.row(i), i, rows, reading, owner);
        const RepetitionErrors errors = repetition_errors(utilities(h));
        result.values(i, 0) = epsilon(rows, h.lot_size, h.noise_multiplier, h.steps(rows));
        result.values(i, 1) = errors.mean;
        set_repetition_auxiliary(result.auxiliary, i, errors);
    }
    return result;
}

std::vector<Output> privacy_utility_outputs() { return {{"epsilon", Sense::Minimise}, {"error", Sense::Minimise}}; }

}  // namespace dpbo::plugin_data
