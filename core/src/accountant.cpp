// The Accountant interface's out-of-line parts.
#include "dpbo/accountant.hpp"

namespace dpbo {

Accountant::~Accountant() = default;

}  // namespace dpbo
