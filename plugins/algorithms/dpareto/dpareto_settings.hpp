#pragma once
// DPareto's parameters beyond the BO loop's: the output transforms, the reference point v†, the
// batch size, and their checks against the objective.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/bo/loop.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo::dpareto {

ParameterSchema schema();

struct Settings {
    BoLoopSettings loop;     // output_transforms, reference, adaptive_reference and logit_margin filled in
    std::size_t batch = 1;   // q points per iteration
    arma::rowvec reference;  // v† of the reports (and of the acquisition unless adaptive)
    bool adaptive_reference = false;
    std::optional<std::string> distributions;  // of the k₀ seed points; none: uniform
    bool random_on_plateau = true;             // a proposal with HVPoI ≤ 0 is replaced by a random-design draw
};

// Throws ValidationError naming the key and what was expected.
Settings settings_from(const ParameterSet& parameters);

// Refuses (ValidationError) an objective without exactly two outputs, naming its count, and a
// reference point an output's transform cannot mean: a log output's reference must be finite and
// > 0; a logit output's in (0, 1] when minimised, [0, 1) when maximised (the reference must be
// worse than the output's best value, 0 or 1); an identity output's finite.
void check_against(const Settings& settings, const Objective& objective);

}  // namespace dpbo::dpareto
