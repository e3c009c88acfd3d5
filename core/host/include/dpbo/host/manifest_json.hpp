#pragma once
// A manifest without its factory, as JSON: how the probe program reports what it read and how the
// manifest cache stores it. Reading is strict: anything malformed throws, so a corrupt cache entry
// is never half-trusted.
#include <nlohmann/json.hpp>

#include "dpbo/plugin.hpp"

namespace dpbo {

nlohmann::json manifest_to_json(const Manifest& manifest);

// Throws std::exception (nlohmann's, or std::invalid_argument) for a document that is not one
// manifest_to_json wrote. The factory is left empty.
Manifest manifest_from_json(const nlohmann::json& document);

}  // namespace dpbo
