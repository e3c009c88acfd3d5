#include "mpfr_number.hpp"

#include <cmath>
#include <limits>

namespace dpbo::rdp {

double upward(mpfr_srcptr x) {
    const double rounded = mpfr_get_d(x, MPFR_RNDU);
    return std::nextafter(rounded, std::numeric_limits<double>::infinity());
}

}  // namespace dpbo::rdp
