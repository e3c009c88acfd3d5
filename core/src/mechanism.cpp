// The Mechanism interface's out-of-line parts.
#include "dpbo/mechanism.hpp"

namespace dpbo {

std::string_view to_string(SensitivityNorm norm) {
    return norm == SensitivityNorm::L1 ? "L1" : "L2";
}

Mechanism::~Mechanism() = default;

}  // namespace dpbo
