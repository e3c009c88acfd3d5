#pragma once
// Reading a privacy event as the mechanism whose privacy-loss distribution the pld accountant
// composes, and the neighbouring relation its guarantee is stated under.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dpbo/privacy_event.hpp"
#include "pld_composition_state.hpp"

namespace dpbo::pld {

// Any: every event so far holds under whichever relation its sensitivity is stated for (a
// Gaussian, Laplace or stated (ε, δ) release); a subsampled event fixes the relation its
// amplification is proved for.
enum class Relation { Any, AddRemoveOne, ReplaceOne };
std::string relation_text(Relation relation);

struct EventMechanism {
    Mechanism mechanism;
    std::size_t times;  // repetitions × steps
    Relation relation;  // the composition's relation once the event is added
};

// The built-in kinds read by name (gaussian, gdp, laplace, exponential, subsampled-gaussian, pure,
// approx); the rest through their μ-GDP or (ε, δ) view.
std::vector<std::string> named_event_kinds();
// Throws ValidationError naming `owner`, the event and the reason when the event's sampling is
// paired with a neighbouring relation its amplification is not proved for, or when it would mix
// add/remove-one and replace-one subsampling in one composition.
EventMechanism event_mechanism(const PrivacyEvent& event, Relation relation, std::string_view owner);

}  // namespace dpbo::pld
