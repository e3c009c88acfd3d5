#pragma once
// "name1, name2" of an objective's auxiliary outputs, for release descriptions and errors.
#include <string>
#include <vector>

#include "dpbo/objective.hpp"

namespace dpbo {

inline std::string auxiliary_names(const std::vector<AuxiliaryOutput>& auxiliary) {
    std::string names;
    for (const AuxiliaryOutput& output : auxiliary) {
        if (!names.empty()) names += ", ";
        names += output.name;
    }
    return names.empty() ? "none" : names;
}

}  // namespace dpbo
