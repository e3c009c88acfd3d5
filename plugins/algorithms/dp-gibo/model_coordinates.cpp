#include "model_coordinates.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace dpbo::dp_gibo {

ModelCoordinates::ModelCoordinates(const SearchSpace& objective_space) : objective_(objective_space) {
    std::vector<Dimension> dimensions;
    for (const Dimension& d : objective_.dimensions()) {
        const bool log = d.scale == Scale::Log;
        is_log_.push_back(log);
        if (!log) {
            dimensions.push_back(d);
            continue;
        }
        log_scaled_.push_back(d.name);
        dimensions.push_back({fmt::format("log({})", d.name), std::log(d.lower), std::log(d.upper), Scale::Linear});
    }
    model_ = SearchSpace::box(std::move(dimensions));
}

arma::mat ModelCoordinates::to_objective(const arma::mat& model_points) const {
    arma::mat out = model_points;
    const auto& dimensions = objective_.dimensions();
    for (std::size_t j = 0; j < is_log_.size(); ++j)
        if (is_log_[j]) out.col(j) = arma::clamp(arma::exp(out.col(j)), dimensions[j].lower, dimensions[j].upper);
    return out;
}

arma::rowvec ModelCoordinates::to_model(const arma::rowvec& objective_point) const {
    arma::rowvec out = objective_point;
    for (std::size_t j = 0; j < is_log_.size(); ++j)
        if (is_log_[j]) out(j) = std::log(out(j));
    return model_.clamp(out);
}

arma::vec ModelCoordinates::model_gradient(const arma::vec& objective_gradient,
                                           const arma::rowvec& objective_point) const {
    arma::vec out = objective_gradient;
    for (std::size_t j = 0; j < is_log_.size(); ++j)
        if (is_log_[j]) out(j) *= objective_point(j);
    return out;
}

}  // namespace dpbo::dp_gibo
