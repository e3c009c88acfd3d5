// The Objective interface's helpers.
#include <algorithm>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"

namespace dpbo {

std::string_view to_string(Sense sense) { return sense == Sense::Minimise ? "minimise" : "maximise"; }

Objective::~Objective() = default;

std::optional<double> Objective::regret(double value) const {
    const auto optimum = known_optimum(*this);
    if (!optimum) return std::nullopt;
    const double gap = sense() == Sense::Minimise ? value - optimum->value : optimum->value - value;
    return std::max(0.0, gap);
}

}  // namespace dpbo
