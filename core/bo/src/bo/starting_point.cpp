#include "dpbo/bo/starting_point.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

namespace dpbo {

void add_starting_point_parameters(ParameterSchema& schema) {
    schema
        .choice("start", {"centre", "random", "given"}, "centre",
                "θ⁽⁰⁾: the centre of the box, a uniform draw from the experiment seed, or theta0 (all "
                "data-independent); theta0 alone implies given")
        .real_list("theta0", std::nullopt, "θ⁽⁰⁾ in the objective's coordinates (start = given)");
}

StartingPoint starting_point_settings(const ParameterSet& parameters, const std::string& owner) {
    StartingPoint start;
    const bool has_point = parameters.has("theta0");
    const std::string& kind = parameters.text("start");
    if (parameters.given_by_user("start") && (kind == "given") != has_point) {
        throw ValidationError(fmt::format("{}: start = {} {} theta0; allowed: theta0 exactly when start = given", owner,
                                          kind, has_point ? "with" : "without"));
    }
    start.kind = has_point ? StartKind::Given : kind == "random" ? StartKind::Random : StartKind::Centre;
    if (has_point) start.theta0 = parameters.real_list("theta0");
    return start;
}

arma::rowvec choose_starting_point(const StartingPoint& start, const SearchSpace& space, ExperimentRng& rng,
                                   const std::string& owner) {
    switch (start.kind) {
        case StartKind::Centre:
            return space.centre();
        case StartKind::Random:
            return space.sample(1, rng);
        case StartKind::Given: {
            if (start.theta0.size() != space.dim()) {
                throw ValidationError(fmt::format("{}: theta0 has {} coordinates; the objective has dimension {}",
                                                  owner, start.theta0.size(), space.dim()));
            }
            const arma::rowvec point(start.theta0);
            space.check_contains(point, fmt::format("{}: theta0", owner));
            return point;
        }
    }
    return space.centre();
}

}  // namespace dpbo
