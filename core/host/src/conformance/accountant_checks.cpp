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

// One event of each built-in kind, with moderate parameters.
PrivacyEvent sample_event(PrivacyEventKind kind) {
    switch (kind) {
        case PrivacyEventKind::Gaussian: return {GaussianEvent{4.0, 1.0}, 1, "sample"};
        case PrivacyEventKind::Gdp: return {GdpEvent{0.3}, 1, "sample"};
        case PrivacyEventKind::Laplace: return {LaplaceEvent{4.0, 1.0}, 1, "sample"};
        case PrivacyEventKind::Exponential: return {ExponentialEvent{0.25, 1.0}, 1, "sample"};
        case PrivacyEventKind::SubsampledGaussian: {
            SubsampledGaussianEvent event;
            event.sampling_rate = 0.05;
            event.noise_multiplier = 1.5;
            event.steps = 20;
            return {event, 1, "sample"};
        }
        case PrivacyEventKind::PureDp: return {PureDpEvent{0.25}, 1, "sample"};
        case PrivacyEventKind::ApproxDp: return {ApproxDpEvent{0.25, 1e-7}, 1, "sample"};
    }
    broken("unknown event kind");
}

constexpr double kDelta = 1e-5;

double epsilon_of(const Accountant& accountant) { return accountant.epsilon_for_delta(kDelta); }

}  // namespace

void check_accountant(Checklist& list, const std::function<std::shared_ptr<Accountant>()>& fresh) {
    const auto first = fresh();
    const std::string who = first->describe_origin();
    std::vector<PrivacyEventKind> accepted;
    if (!list.run("accepts at least one event kind", who, [&] {
            accepted = first->accepted_kinds();
            if (accepted.empty()) broken("accepted_kinds() is empty");
        }))
        return;
    std::vector<PrivacyEventKind> refused;
    for (const PrivacyEventKind kind : all_privacy_event_kinds())
        if (!first->accepts(kind)) refused.push_back(kind);

    list.run("refuses an event it does not accept, by name, leaving the composition unchanged", who, [&] {
        if (refused.empty()) return;  // it accepts every kind there is
        auto accountant = fresh();
        accountant->compose(sample_event(accepted.front()));
        const double before = epsilon_of(*accountant);
        for (const PrivacyEventKind kind : refused) {
            try {
                accountant->compose(sample_event(kind));
                broken("composed an event of kind '{}', which accepted_kinds() does not list", to_string(kind));
            } catch (const ValidationError& e) {
                if (std::string(e.what()).find(to_string(kind)) == std::string::npos)
                    broken("refused kind '{}' without naming it: {}", to_string(kind), e.what());
            }
        }
        if (epsilon_of(*accountant) != before)
            broken("ε at δ = {} moved from {} to {} after refused events", kDelta, before, epsilon_of(*accountant));
    });
    list.run("composition never lowers the cost", who, [&] {
        for (const PrivacyEventKind kind : accepted) {
            auto accountant = fresh();
            double previous = 0.0;
            for (int k = 1; k <= 4; ++k) {
                accountant->compose(sample_event(kind));
                const double now = epsilon_of(*accountant);
                if (!(now >= previous * (1 - 1e-12)))
                    broken("{} events of kind '{}' give ε = {} at δ = {}, {} gave {}", k, to_string(kind), now, kDelta,
                           k - 1, previous);
                previous = now;
            }
        }
    });
    list.run("a clone is independent of the original", who, [&] {
        auto accountant = fresh();
        accountant->compose(sample_event(accepted.front()));
        const double before = epsilon_of(*accountant);
        auto copy = accountant->clone();
        if (epsilon_of(*copy) != before) broken("the clone's ε is {}, the original's {}", epsilon_of(*copy), before);
        copy->compose(sample_event(accepted.front()));
        if (epsilon_of(*accountant) != before)
            broken("composing on the clone moved the original's ε from {} to {}", before, epsilon_of(*accountant));
        if (!(epsilon_of(*copy) >= before)) broken("the clone's ε fell below the original's after one more event");
    });
    list.run("δ(ε) and ε(δ) agree: ε(δ) never claims more than δ", who, [&] {
        for (const PrivacyEventKind kind : accepted) {
            auto accountant = fresh();
            accountant->compose(sample_event(kind));
            accountant->compose(sample_event(kind));
            double previous_delta = 1.0;
            for (const double epsilon : {0.0, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0}) {
                const double delta = accountant->delta_for_epsilon(epsilon);
                if (!(delta >= 0.0 && delta <= 1.0))
                    broken("kind '{}': δ({}) = {}, outside [0, 1]", to_string(kind), epsilon, delta);
                if (delta > previous_delta * (1 + 1e-9) + 1e-15)
                    broken("kind '{}': δ(ε) increases with ε: δ({}) = {} above {}", to_string(kind), epsilon, delta,
                           previous_delta);
                previous_delta = delta;
            }
            for (const double target : {1e-3, 1e-6}) {
                const double epsilon = accountant->epsilon_for_delta(target);
                if (!std::isfinite(epsilon)) continue;  // no finite ε at this δ (e.g. δ below an approx event's)
                const double delta = accountant->delta_for_epsilon(epsilon);
                if (delta > target * (1 + 1e-6))
                    broken("kind '{}': ε({}) = {} but δ({}) = {}: the ε claims more than the target δ", to_string(kind),
                           target, epsilon, epsilon, delta);
            }
        }
    });
}

}  // namespace dpbo::conformance
