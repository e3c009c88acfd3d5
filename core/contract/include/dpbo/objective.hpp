#pragma once
// An objective needs three things: its space, its sense (or outputs) and a batch evaluate().
// Everything else is a capability of its own (dpbo/objective_capabilities.hpp: record-decomposable,
// record gradients, finite candidates with their public/sensitive status, declared constants, a
// known optimum, observation noise, sensitive data, privacy assumptions, thread safety), inherited
// by the objectives that have it and asked for where it matters (dpbo/capability.hpp).
//
// What evaluate() returns is checked by the host for every batch (dpbo/evaluation_contract.hpp):
// one row of values per point and one column per declared output, no NaN, per-record losses of
// b × record_count() when asked for (RecordDecomposable), and values equal to the mean of each
// per-record row. The values are exact: observation noise is declared (ObservationNoise) and added
// by the host after the check.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <armadillo>

#include "dpbo/capability.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/module.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/result.hpp"
#include "dpbo/space.hpp"

namespace dpbo {

enum class Sense { Minimise, Maximise };
std::string_view to_string(Sense sense);

// One column of Evaluations::values: its name (for the trace and the result) and its own sense.
struct Output {
    std::string name;
    Sense sense = Sense::Minimise;
};

// A figure reported with every evaluation that no algorithm models or optimises (e.g. the best and
// worst of the R repetitions whose mean is an output of a DPareto oracle): one column of
// Evaluations::auxiliary, written next to the outputs in the result files.
struct AuxiliaryOutput {
    std::string name;
    std::string doc;  // what it is, in the objective's units
};

class Objective : public Module {
public:
    ~Objective() override;
    static constexpr ModuleKind static_kind = ModuleKind::Objective;
    ModuleKind kind() const final { return static_kind; }

    virtual const SearchSpace& space() const = 0;
    virtual Sense sense() const { return Sense::Minimise; }
    // The columns of Evaluations::values. The default is one output, "value", with sense(): a
    // single-output objective overrides nothing. Several outputs (DPareto's privacy loss and error)
    // each carry their own sense; sense() then describes none of them and is not read.
    virtual std::vector<Output> outputs() const { return {{"value", sense()}}; }
    // The columns of Evaluations::auxiliary; none by default.
    virtual std::vector<AuxiliaryOutput> auxiliary_outputs() const { return {}; }
    // Exact values for the points (see the contract above); never adds observation noise itself.
    virtual Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) = 0;

    std::size_t output_count() const { return outputs().size(); }
    // Simple regret of a value with respect to the known optimum (≥ 0), or nullopt when the
    // objective has no HasKnownOptimum or its optimum is not known.
    std::optional<double> regret(double value) const;
};

}  // namespace dpbo
