// The Objective interface's defaults: what an objective that does not provide an optional part says.
#include <algorithm>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"

namespace dpbo {

std::string_view to_string(Sense sense) {
    return sense == Sense::Minimise ? "minimise" : "maximise";
}

Objective::~Objective() = default;

arma::mat Objective::record_gradients(const arma::rowvec& /*point*/) const {
    throw ValidationError(
        "this objective does not provide per-record gradients; choose an objective that does "
        "(dpbo list --kind objective) or an algorithm that needs only values");
}

std::optional<double> Objective::declared_constant(std::string_view name) const {
    for (const auto& constant : declared_constants())
        if (constant.name == name) return constant.value;
    return std::nullopt;
}

std::optional<double> Objective::regret(double value) const {
    const auto optimum = known_optimum();
    if (!optimum) return std::nullopt;
    const double gap = sense() == Sense::Minimise ? value - optimum->value : optimum->value - value;
    return std::max(0.0, gap);
}

}  // namespace dpbo
