#include "clopper_pearson.hpp"

#include <boost/math/special_functions/beta.hpp>
#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::audit {

namespace {

void check(std::size_t successes, std::size_t trials, double alpha, const char* function) {
    if (trials == 0 || successes > trials || !(alpha > 0.0 && alpha < 1.0))
        throw RunError(
            fmt::format("{}: successes = {}, trials = {}, alpha = {}; need 0 ≤ successes ≤ trials, "
                        "trials ≥ 1 and alpha in (0, 1)",
                        function, successes, trials, alpha));
}

}  // namespace

double clopper_pearson_lower(std::size_t successes, std::size_t trials, double alpha) {
    check(successes, trials, alpha, "clopper_pearson_lower");
    if (successes == 0) return 0.0;
    return boost::math::ibeta_inv(static_cast<double>(successes), static_cast<double>(trials - successes + 1), alpha);
}

double clopper_pearson_upper(std::size_t successes, std::size_t trials, double alpha) {
    check(successes, trials, alpha, "clopper_pearson_upper");
    if (successes == trials) return 1.0;
    return boost::math::ibeta_inv(static_cast<double>(successes + 1), static_cast<double>(trials - successes),
                                  1.0 - alpha);
}

}  // namespace dpbo::audit
