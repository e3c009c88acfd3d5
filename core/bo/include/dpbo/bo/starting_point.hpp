#pragma once
// θ⁽⁰⁾ of a local method (GIBO, DP-GIBO, DP-GD): the box's centre, a uniform draw from the
// experiment generator, or a point the user gives. All three are independent of the sensitive
// data, which the private methods' guarantees require of θ⁽⁰⁾.
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/parameters.hpp"

namespace dpbo {

class ExperimentRng;
class SearchSpace;

enum class StartKind { Centre, Random, Given };

struct StartingPoint {
    StartKind kind = StartKind::Centre;
    std::vector<double> theta0;  // with kind == Given
};

// Declares `start` (centre | random | given; default centre) and `theta0`.
void add_starting_point_parameters(ParameterSchema& schema);

// Reads them. theta0 alone means start = given; a start the user set must agree with theta0
// (given exactly when theta0 is present), or ValidationError names `owner` and both keys.
StartingPoint starting_point_settings(const ParameterSet& parameters, const std::string& owner);

// θ⁽⁰⁾ in the objective's coordinates. A given point must have the space's dimension and lie in
// the box (ValidationError naming `owner` and theta0); a random one is the generator's next draw.
arma::rowvec choose_starting_point(const StartingPoint& start, const SearchSpace& space, ExperimentRng& rng,
                                   const std::string& owner);

}  // namespace dpbo
