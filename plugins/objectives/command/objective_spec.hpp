#pragma once
// What a program declares about itself as an objective (the dpbo-objective protocol): its space, its
// outputs with their senses, and how many records its values are means over. Sent as the program's
// first line, or read from a spec file (one-shot mode). Every refusal names `where` it came from.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/objective.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/space.hpp"

namespace dpbo::command_objective {

// A program whose every evaluation is a private learner (PrivateTrials): what one trial protects and,
// when the program knows it, the events that cover every trial it can run.
struct TrialDeclaration {
    std::string neighbouring;
    std::string protected_unit;
    std::vector<dpbo::PrivacyEvent> bound;
};

struct ObjectiveSpec {
    dpbo::SearchSpace space;
    std::vector<dpbo::Output> outputs;
    std::size_t records = 0;
    std::optional<TrialDeclaration> trials;
};

// {"protocol":"dpbo-objective","version":1,"space":[{"name","lower","upper","scale","integer"}, ...],
//  "outputs":[{"name","sense"}, ...] (default one minimised "value"), "records":n (default 0),
//  "trials":{"neighbouring":"...","protected":"...","bound":["EVENT", ...]} (optional; bound optional)}.
// Throws ValidationError naming `where` and the offending field.
ObjectiveSpec parse_spec(const nlohmann::json& spec, const std::string& where);

// One trial's events as a program answers them: a non-empty list of event texts of built-in kinds
// ("subsampled-gaussian:q=0.01,sigma=1.1,sampling=poisson,steps=100"). Throws ValidationError naming `where` and the
// text that is not an event.
std::vector<dpbo::PrivacyEvent> parse_events(const nlohmann::json& texts, const std::string& where);

}  // namespace dpbo::command_objective
