// TwoSidedAccountant's key function: its destructor, defined once in libdpbo so that host and
// plugins share one vtable and typeinfo (dpbo/capability.hpp).
#include "dpbo/two_sided_accountant.hpp"

namespace dpbo {

TwoSidedAccountant::~TwoSidedAccountant() = default;

}  // namespace dpbo
