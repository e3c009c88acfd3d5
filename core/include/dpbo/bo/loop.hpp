#pragma once
// Sequential Bayesian optimisation, decomposed as in Limbo — initial design, model, acquisition,
// acquisition optimiser, stopping, statistics — but with every part a run-time component: the
// surrogate and the acquisition are plugins, the optimiser is core machinery.
//
// The loop works in the unit cube of the objective's space (SearchSpace::to_unit), so kernel
// length-scales are comparable across problems, and hands the surrogate values in the maximisation
// sense (negated for minimisation).
#include <cstddef>
#include <string>

#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo {

struct BoLoopSettings {
    std::size_t initial_points = 10;   // quasi-random design (box) or distinct random rows (finite set)
    std::size_t budget = 60;           // evaluations in all, the design included
    bool revisit_candidates = false;   // finite sets: may a row be evaluated twice?
    AcquisitionOptimiserSettings optimiser;
};

// The loop's parameters, shared by every algorithm built on it (gp-ucb, gp-ei, ...).
ParameterSchema bo_loop_schema(std::size_t default_budget, std::size_t default_initial);
BoLoopSettings bo_loop_settings(const ParameterSet& parameters);

// Runs the loop with the roles "surrogate" and "acquisition" (both required). The result is not
// private: every evaluated value and the best point are released as they are.
RunResult run_bo_loop(RunContext& context, const BoLoopSettings& settings, const std::string& algorithm);

// An algorithm that is the loop with a default surrogate (an ARD Matérn-5/2 GP fitted by marginal
// likelihood on standardised values) and a default acquisition; gp-ucb and gp-ei are two of them.
class SequentialBo : public Algorithm {
public:
    SequentialBo(const ParameterSet& parameters, std::string name, std::string default_acquisition,
                 std::string acquisition_doc);
    ~SequentialBo() override;
    std::vector<Role> roles() const override;
    RunResult run(RunContext& context) override;

private:
    BoLoopSettings settings_;
    std::string name_;
    std::string default_acquisition_;
    std::string acquisition_doc_;
};

}  // namespace dpbo
