#pragma once
// What a program declares about itself as an objective (the dpbo-objective protocol): its space, its
// outputs with their senses, and how many records its values are means over. Sent as the program's
// first line, or read from a spec file (one-shot mode). Every refusal names `where` it came from.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/objective.hpp"
#include "dpbo/space.hpp"

namespace dpbo::command_objective {

struct ObjectiveSpec {
    dpbo::SearchSpace space;
    std::vector<dpbo::Output> outputs;
    std::size_t records = 0;
};

// {"protocol":"dpbo-objective","version":1,"space":[{"name","lower","upper","scale","integer"}, ...],
//  "outputs":[{"name","sense"}, ...] (default one minimised "value"), "records":n (default 0)}.
// Throws ValidationError naming `where` and the offending field.
ObjectiveSpec parse_spec(const nlohmann::json& spec, const std::string& where);

}  // namespace dpbo::command_objective
