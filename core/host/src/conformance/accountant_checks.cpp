// The promises every accountant makes, checked with events of the kinds it says it accepts:
//   - an event it does not accept is refused by name, and the composition is left as it was;
//   - composition never lowers the cost: ε(δ) after k + 1 events is at least ε(δ) after k;
//   - a clone is independent: composing on it leaves the original unchanged;
//   - δ(ε) lies in [0, 1] and does not increase with ε; ε(δ) never claims a δ above the target
//     (δ(ε(δ)) ≤ δ), which is what the ledger and every statement rely on.
#include <cmath>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "checklist.hpp"
#include "conformance_kinds.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::conformance {

namespace {

// One event of each built-in kind, with moderate parameters; an accountant is checked on those it
// accepts (a plugin's own kinds need parameters only its author knows).
std::vector<PrivacyEvent> sample_events() {
    return {PrivacyEvent(GaussianEvent(4.0, 1.0), 1, "sample"),
            PrivacyEvent(GdpEvent(0.3), 1, "sample"),
            PrivacyEvent(LaplaceEvent(4.0, 1.0), 1, "sample"),
            PrivacyEvent(ExponentialEvent(0.25, 1.0), 1, "sample"),
            PrivacyEvent(SubsampledGaussianEvent(0.05, 1.5, 20), 1, "sample"),
            PrivacyEvent(PureDpEvent(0.25), 1, "sample"),
            PrivacyEvent(ApproxDpEvent(0.25, 1e-7), 1, "sample")};
}

std::string kind_of(const PrivacyEvent& event) { return std::string(event.kind()); }

constexpr double kDelta = 1e-5;

double epsilon_of(const Accountant& accountant) { return accountant.epsilon_for_delta(kDelta); }

}  // namespace

void check_accountant(Checklist& list, const std::function<std::shared_ptr<Accountant>()>& fresh) {
    const auto first = fresh();
    const std::string who = first->describe_origin();
    std::vector<PrivacyEvent> accepted, refused;
    if (!list.run("accepts at least one built-in event kind", who, [&] {
            for (const PrivacyEvent& event : sample_events())
                (first->accepts(event) ? accepted : refused).push_back(event);
            if (accepted.empty())
                broken(
                    "accepts none of the built-in kinds (gaussian, gdp, laplace, exponential, "
                    "subsampled-gaussian, pure, approx)");
        }))
        return;

    list.run("refuses an event it does not accept, by name, leaving the composition unchanged", who, [&] {
        if (refused.empty()) return;  // it accepts every built-in kind
        auto accountant = fresh();
        accountant->compose(accepted.front());
        const double before = epsilon_of(*accountant);
        for (const PrivacyEvent& event : refused) {
            try {
                accountant->compose(event);
                broken("composed an event of kind '{}', which accepts() says it does not", kind_of(event));
            } catch (const ValidationError& e) {
                if (std::string(e.what()).find(kind_of(event)) == std::string::npos)
                    broken("refused kind '{}' without naming it: {}", kind_of(event), e.what());
            }
        }
        if (epsilon_of(*accountant) != before)
            broken("ε at δ = {} moved from {} to {} after refused events", kDelta, before, epsilon_of(*accountant));
    });
    list.run("composition never lowers the cost", who, [&] {
        for (const PrivacyEvent& event : accepted) {
            auto accountant = fresh();
            double previous = 0.0;
            for (int k = 1; k <= 4; ++k) {
                accountant->compose(event);
                const double now = epsilon_of(*accountant);
                if (!(now >= previous * (1 - 1e-12)))
                    broken("{} events of kind '{}' give ε = {} at δ = {}, {} gave {}", k, kind_of(event), now, kDelta,
                           k - 1, previous);
                previous = now;
            }
        }
    });
    list.run("a clone is independent of the original", who, [&] {
        auto accountant = fresh();
        accountant->compose(accepted.front());
        const double before = epsilon_of(*accountant);
        auto copy = accountant->clone();
        if (epsilon_of(*copy) != before) broken("the clone's ε is {}, the original's {}", epsilon_of(*copy), before);
        copy->compose(accepted.front());
        if (epsilon_of(*accountant) != before)
            broken("composing on the clone moved the original's ε from {} to {}", before, epsilon_of(*accountant));
        if (!(epsilon_of(*copy) >= before)) broken("the clone's ε fell below the original's after one more event");
    });
    list.run("δ(ε) and ε(δ) agree: ε(δ) never claims more than δ", who, [&] {
        for (const PrivacyEvent& event : accepted) {
            const std::string kind = kind_of(event);
            auto accountant = fresh();
            accountant->compose(event);
            accountant->compose(event);
            double previous_delta = 1.0;
            for (const double epsilon : {0.0, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0}) {
                const double delta = accountant->delta_for_epsilon(epsilon);
                if (!(delta >= 0.0 && delta <= 1.0))
                    broken("kind '{}': δ({}) = {}, outside [0, 1]", kind, epsilon, delta);
                if (delta > previous_delta * (1 + 1e-9) + 1e-15)
                    broken("kind '{}': δ(ε) increases with ε: δ({}) = {} above {}", kind, epsilon, delta,
                           previous_delta);
                previous_delta = delta;
            }
            for (const double target : {1e-3, 1e-6}) {
                const double epsilon = accountant->epsilon_for_delta(target);
                if (!std::isfinite(epsilon)) continue;  // no finite ε at this δ (e.g. δ below an approx event's)
                const double delta = accountant->delta_for_epsilon(epsilon);
                if (delta > target * (1 + 1e-6))
                    broken("kind '{}': ε({}) = {} but δ({}) = {}: the ε claims more than the target δ", kind, target,
                           epsilon, epsilon, delta);
            }
        }
    });
}

}  // namespace dpbo::conformance
