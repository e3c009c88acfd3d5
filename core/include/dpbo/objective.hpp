#pragma once
// An objective needs three things: its space, its sense and a batch evaluate(). Everything else is
// optional and has a default that says "not provided".
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/module.hpp"
#include "dpbo/result.hpp"
#include "dpbo/space.hpp"

namespace dpbo {

enum class Sense { Minimise, Maximise };
std::string_view to_string(Sense sense);

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
    virtual Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) = 0;

    virtual std::optional<KnownOptimum> known_optimum() const { return std::nullopt; }
    // n for record-decomposable objectives f(θ) = (1/n) Σ L(θ, x_i); 0 otherwise.
    virtual std::size_t record_count() const { return 0; }
    // Names of the extra outputs evaluate() fills (DPareto's oracles).
    virtual std::vector<std::string> output_names() const { return {}; }
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

    // Simple regret of a value with respect to the known optimum (≥ 0), or nullopt.
    std::optional<double> regret(double value) const;
};

}  // namespace dpbo
