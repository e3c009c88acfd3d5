#pragma once
// DP-GIBO's model coordinates: the objective's, with each log-scaled dimension replaced by its
// natural logarithm. The GP, the batch choice and the gradient steps work there, so that a step moves
// a log-scaled hyperparameter by a factor rather than by an amount; points are mapped back with exp
// (post-processing) before the objective evaluates them and before they are released.
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/space.hpp"

namespace dpbo::dp_gibo {

class ModelCoordinates {
public:
    // `objective_space` must be a box without integer dimensions (checked by the caller).
    explicit ModelCoordinates(const SearchSpace& objective_space);

    // The box in model coordinates: a log-scaled dimension [a, b] becomes "log(name)" on [ln a, ln b].
    const SearchSpace& space() const { return model_; }
    // The names of the log-scaled dimensions (empty when the model's coordinates are the objective's).
    const std::vector<std::string>& log_scaled() const { return log_scaled_; }

    // Rows in model coordinates to rows in the objective's, kept inside the objective's box (exp of
    // ln b may round past b).
    arma::mat to_objective(const arma::mat& model_points) const;
    arma::rowvec to_model(const arma::rowvec& objective_point) const;
    // ∂f/∂u from ∂f/∂x at the objective's point x: on a log-scaled dimension u = ln x, ∂f/∂u = x·∂f/∂x.
    arma::vec model_gradient(const arma::vec& objective_gradient, const arma::rowvec& objective_point) const;

private:
    SearchSpace objective_;
    SearchSpace model_;
    std::vector<bool> is_log_;
    std::vector<std::string> log_scaled_;
};

}  // namespace dpbo::dp_gibo
