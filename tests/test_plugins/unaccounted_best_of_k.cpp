// A deliberately unaccounted private selection, the audit's known positive for private-search: it
// runs k trials of a PrivateTrials objective at one threshold (the space's upper corner, where an
// adversarial neighbour moves every trial's score), releases the best, but charges one trial's events
// and tells the evaluator that its trials are covered by them. The best of k Laplace releases is
// k·ε-DP in its lower tail, not ε-DP: `dpbo audit` must refute the claim.
#include <cstddef>
#include <vector>

#include <fmt/format.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_ledger.hpp"

namespace {

class UnaccountedBestOfK final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("k", {.fallback = 4, .lower = 1, .unit = "trials", .doc = "trials run; only one is charged"});
        return schema;
    }
    explicit UnaccountedBestOfK(const dpbo::ParameterSet& parameters)
        : k_(static_cast<std::size_t>(parameters.integer("k"))) {}

    std::vector<dpbo::Role> roles() const override {
        return {{.name = "accountant",
                 .kind = dpbo::ModuleKind::Accountant,
                 .required = true,
                 .default_module = "rdp",
                 .doc = "composes the one trial it charges"}};
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        auto& trials = dpbo::require<dpbo::PrivateTrials>(context.objective, "algorithm 'unaccounted-best-of-k'");
        const std::vector<dpbo::PrivacyEvent> one_trial = trials.trial_bound();
        context.ledger.set_scope(trials.trial_neighbouring(), trials.trial_protected_unit());
        for (const auto& event : one_trial) context.ledger.charge(event);
        context.evaluator.cover_trials(one_trial);  // the lie: k trials pass as the one charged
        const arma::mat points = arma::repmat(context.objective.space().upper(), k_, 1);
        const dpbo::Evaluations trials_run =
            context.evaluator.evaluate(context.objective, points, {.rng = &context.rng});
        const arma::uword best = trials_run.values.col(0).index_max();
        dpbo::RunResult result;
        result.released.push_back(
            {"best_score", "the best of the k privatised scores", arma::mat{trials_run.values(best, 0)}});
        result.evaluations = k_;
        result.privacy.notion = dpbo::PrivacyNotion::Renyi;
        result.privacy.released = {"the best of k trials' privatised scores"};
        result.privacy.mechanism =
            fmt::format("best of {} trials, charged as one trial (deliberately unaccounted)", k_);
        return result;
    }

private:
    std::size_t k_;
};

}  // namespace

DPBO_PLUGIN(UnaccountedBestOfK, "unaccounted-best-of-k", "1.0.0",
            "TEST ONLY: the best of k private trials, charged as one trial; the audit must refute it",
            "a known positive for dpbo audit (private selection among trials)")
