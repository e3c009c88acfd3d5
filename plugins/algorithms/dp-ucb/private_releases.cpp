#include "private_releases.hpp"

#include <fmt/format.h>

#include "dp_ucb_settings.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::dp_ucb {

namespace {

void charge_failure_probability(double delta, dpbo::PrivacyLedger& ledger, const std::string& what) {
    if (delta <= 0.0) return;
    ledger.charge({dpbo::ApproxDpEvent{0.0, delta}, 1,
                   fmt::format("the sensitivity bound behind '{}' fails with probability at most delta under "
                               "Assumption 1",
                               what)});
}

}  // namespace

void require_epsilon(const dpbo::PrivateRelease& release, const std::string& role, double epsilon) {
    const dpbo::PrivacyStatement guarantee = release.guarantee();
    if (guarantee.notion != dpbo::PrivacyNotion::PureDP || guarantee.epsilon != epsilon)
        throw dpbo::ValidationError(fmt::format(
            "{}: the {} role's {} gives {}, but algorithm.epsilon = {}; each release of the paper is epsilon-DP at "
            "the one epsilon (set {}.epsilon = {} or leave it unset)",
            kOwner, role, release.describe_origin(), guarantee.headline(), epsilon, role, epsilon));
}

std::size_t select_privately(const dpbo::Selection& selection, const arma::vec& scores, double delta,
                             dpbo::PrivacyLedger& ledger, const std::string& what) {
    charge_failure_probability(delta, ledger, what);
    return selection.select(scores, ledger, what);
}

double release_privately(const dpbo::Mechanism& mechanism, double value, double delta, dpbo::PrivacyLedger& ledger,
                         const std::string& what) {
    charge_failure_probability(delta, ledger, what);
    return mechanism.release(arma::vec{value}, ledger, what)(0);
}

}  // namespace dpbo::dp_ucb
