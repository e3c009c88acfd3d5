#pragma once
// An objective needs three things: its space, its sense and a batch evaluate(). Everything else is
// optional and has a default that says "not provided".
//
// What evaluate() returns is checked by the host for every batch (dpbo/evaluation_contract.hpp):
// one row of values per point and one column per declared output, no NaN, per-record losses of
// b × record_count() when asked for, and values equal to the mean of each per-record row. The
// values are exact: observation noise is declared (observation_noise_stddev) and added by the host
// after the check.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/module.hpp"
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

// A constant the objective guarantees about itself, on which the sensitivity of a release may rest
// (e.g. Kusner et al. 2015, Assumption 2: the validation loss is L-Lipschitz and bounded by g*). It
// must not depend on the sensitive records: it is public, written with the job and the statement.
struct DeclaredConstant {
    std::string name;  // e.g. "lipschitz"
    double value = 0.0;
    std::string doc;   // what it bounds, in the objective's units
};

struct KnownOptimum {
    double value = 0.0;
    arma::mat points;  // one row per known optimiser; may be empty when only the value is known
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
    // Standard deviation of the Gaussian observation noise the host adds to every value after
    // checking the exact ones (never to per-record losses), drawn from the request's experiment
    // generator. 0: the values are observed exactly.
    virtual double observation_noise_stddev() const { return 0.0; }

    virtual std::optional<KnownOptimum> known_optimum() const { return std::nullopt; }
    // n for record-decomposable objectives f(θ) = (1/n) Σ L(θ, x_i); 0 otherwise.
    virtual std::size_t record_count() const { return 0; }
    // n × d true per-record gradients at one point, for gradient-based baselines (DP-GD).
    virtual bool provides_record_gradients() const { return false; }
    virtual arma::mat record_gradients(const arma::rowvec& point) const;
    // Sensitive data the objective holds, in one line ("50 records from N(1, I_5)"); empty if none.
    // Public: it is written outside evaluation_only, so it must not contain figures computed from
    // the records (those belong in reference_values()).
    virtual std::string data_description() const { return {}; }
    // Figures computed from the sensitive data for judging runs (e.g. the loss at the data's true
    // parameters); the host writes them under evaluation_only, never as part of a release.
    virtual std::vector<ReleasedValue> reference_values() const { return {}; }

    // True when the candidate rows are themselves public: a release already made outside this run
    // (the Z a PO-GP-UCB curator released, read by the modeler). An algorithm may then search them
    // without a release of its own; otherwise the rows are sensitive data.
    virtual bool candidates_are_public() const { return false; }

    // True when evaluate() may run on several threads at once on this one instance (a pure function of
    // the points, no mutable state); otherwise parallel evaluation builds one instance per worker.
    virtual bool thread_safe() const { return false; }

    // What any guarantee over this objective's data rests on besides the algorithm's own assumptions
    // (e.g. a program computing the values inside the trust boundary); the host adds each to the
    // run's privacy statement. None by default.
    virtual std::vector<std::string> privacy_assumptions() const { return {}; }

    // The constants the objective guarantees (see DeclaredConstant). An algorithm whose privacy
    // rests on some of them names those it needs and refuses an objective that lacks one.
    virtual std::vector<DeclaredConstant> declared_constants() const { return {}; }

    std::size_t output_count() const { return outputs().size(); }
    // The declared constant called `name`, or nullopt when the objective does not declare it.
    std::optional<double> declared_constant(std::string_view name) const;

    // Simple regret of a value with respect to the known optimum (≥ 0), or nullopt.
    std::optional<double> regret(double value) const;
};

}  // namespace dpbo
