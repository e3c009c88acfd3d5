#include "privacy_bound.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "clopper_pearson.hpp"

namespace dpbo::audit {

PrivacyLowerBound privacy_lower_bound(const EventCounts& counts, double delta, double alpha) {
    PrivacyLowerBound out;
    out.p_lower = clopper_pearson_lower(counts.in_p, counts.trials_p, alpha);
    out.q_upper = clopper_pearson_upper(counts.in_q, counts.trials_q, alpha);
    if (out.p_lower > delta) out.epsilon = std::max(0.0, std::log((out.p_lower - delta) / out.q_upper));
    if (out.p_lower > 0.0 && out.q_upper < 1.0) {
        const boost::math::normal standard;
        out.mu =
            std::max(0.0, boost::math::quantile(standard, out.p_lower) - boost::math::quantile(standard, out.q_upper));
    }
    return out;
}

PrivacyLowerBound largest_detectable(std::size_t trials, double delta, double alpha) {
    return privacy_lower_bound({trials, trials, 0, trials}, delta, alpha);
}

}  // namespace dpbo::audit
