#pragma once
// What an objective may provide besides its space, outputs and evaluate(): one interface per
// capability, inherited next to Objective by the objectives that have it
//
//     class Location final : public dpbo::Objective, public dpbo::RecordDecomposable,
//                            public dpbo::RecordGradients, public dpbo::SensitiveData { ... };
//
// and asked for where it matters (dpbo::capability / dpbo::require, dpbo/capability.hpp): DP-GD
// requires RecordDecomposable and RecordGradients, an algorithm that searches the candidate rows
// obtains them from FiniteCandidates together with whether they are public. An objective that does
// not inherit a capability does not have it; nothing answers a default on its behalf.
//
// Each interface's destructor is defined in libdpbo (objective_capabilities.cpp): its key function,
// so that the typeinfo dynamic_cast compares is the same on both sides of the plugin boundary.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <armadillo>

#include "dpbo/privacy_event.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Objective;

// Copying a capability would slice the objective it belongs to; each is an interface only.
#define DPBO_CAPABILITY_INTERFACE(Name)     \
public:                                     \
    virtual ~Name();                        \
                                            \
protected:                                  \
    Name() = default;                       \
    Name(const Name&) = default;            \
    Name& operator=(const Name&) = default; \
                                            \
public:

// f(θ) = (1/n) Σ L(θ, x_i) over n sensitive records: evaluate() fills per-record losses
// (b × record_count()) when asked, and record-level privacy (DP-GIBO, DP-GD) is defined over them.
class RecordDecomposable {
    DPBO_CAPABILITY_INTERFACE(RecordDecomposable)
    static constexpr std::string_view capability_name = "RecordDecomposable";
    static constexpr std::string_view capability_doc = "n records with a loss each, f = their mean";
    // n ≥ 1 for an objective that is decomposable as configured. 0 when it is not this time (a
    // wrapper or a program whose specification declares no records): readers treat 0 as absent.
    virtual std::size_t record_count() const = 0;
};

// The true n × d per-record gradients at one point, for gradient-based baselines (DP-GD) and
// diagnostics. Only meaningful together with RecordDecomposable.
class RecordGradients {
    DPBO_CAPABILITY_INTERFACE(RecordGradients)
    static constexpr std::string_view capability_name = "RecordGradients";
    static constexpr std::string_view capability_doc = "the n × d per-record gradients at a point";
    virtual arma::mat record_gradients(const arma::rowvec& point) const = 0;
};

// Whether a set of candidate rows may be searched without a release of its own.
enum class RowStatus {
    // The rows are sensitive data (a table's own records): a row itself, or any figure computed from
    // the rows, is a release that a privacy guarantee must cover. The conservative default.
    Sensitive,
    // Fixed without looking at the sensitive data (a benchmark's grid, points drawn from a public
    // seed): a guarantee over the values may treat them as given. Not a release: a PO-GP-UCB
    // curator still releases them before its modeler searches them.
    DataIndependent,
    // A release already made outside this run (the rows a PO-GP-UCB curator released, read by the
    // modeler): public, searchable without a release of its own.
    Released,
};
std::string_view to_string(RowStatus status);

// The rows of a finite search space and their status, obtained together: a caller cannot read the
// rows without being handed whether they are public.
struct CandidateRows {
    const arma::mat& rows;  // one row per candidate, the space's candidate_rows(); owned by the objective
    RowStatus status;
    bool sensitive() const { return status == RowStatus::Sensitive; }
    bool released() const { return status == RowStatus::Released; }
};

// Every objective whose space is finite (SearchSpace::candidates…) provides this; the host refuses
// one that does not (check_objective_capabilities). An algorithm that searches, releases or
// computes a figure from the candidate rows obtains them here, and decides by their status.
class FiniteCandidates {
    DPBO_CAPABILITY_INTERFACE(FiniteCandidates)
    static constexpr std::string_view capability_name = "FiniteCandidates";
    static constexpr std::string_view capability_doc = "candidate rows together with whether they are public";
    virtual CandidateRows candidates() const = 0;
};

// A constant the objective guarantees about itself, on which the sensitivity of a release may rest
// (e.g. Kusner et al. 2015, Assumption 2: the validation loss is L-Lipschitz and bounded by g*). It
// must not depend on the sensitive records: it is public, written with the job and the statement.
struct DeclaredConstant {
    std::string name;  // e.g. "lipschitz"
    double value = 0.0;
    std::string doc;  // what it bounds, in the objective's units
};

// The constants the objective guarantees. An algorithm whose privacy rests on some of them names
// those it needs and refuses an objective that lacks one.
class DeclaredConstants {
    DPBO_CAPABILITY_INTERFACE(DeclaredConstants)
    static constexpr std::string_view capability_name = "DeclaredConstants";
    static constexpr std::string_view capability_doc = "public constants a release's sensitivity may rest on";
    virtual std::vector<DeclaredConstant> declared_constants() const = 0;
    // The declared constant called `name`, or nullopt when it is not declared.
    std::optional<double> declared_constant(std::string_view name) const;
};

struct KnownOptimum {
    double value = 0.0;
    arma::mat points;  // one row per known optimiser; may be empty when only the value is known
};

// A benchmark's optimum, for regret in traces and results (Objective::regret).
class HasKnownOptimum {
    DPBO_CAPABILITY_INTERFACE(HasKnownOptimum)
    static constexpr std::string_view capability_name = "HasKnownOptimum";
    static constexpr std::string_view capability_doc = "the optimum's value, and its points when known";
    // nullopt when, as configured, the optimum is not known after all (e.g. a random draw's).
    virtual std::optional<KnownOptimum> known_optimum() const = 0;
};

// Gaussian observation noise the host adds to every value after checking the exact ones (never to
// per-record losses), drawn from the request's experiment generator. evaluate() itself stays exact.
class ObservationNoise {
    DPBO_CAPABILITY_INTERFACE(ObservationNoise)
    static constexpr std::string_view capability_name = "ObservationNoise";
    static constexpr std::string_view capability_doc = "the standard deviation of noise added to each value";
    // 0: the values are observed exactly.
    virtual double observation_noise_stddev() const = 0;
};

// Each evaluation is itself a private learner over the objective's sensitive data (a trial of a
// tuning: DP-SGD training, then its score released through a mechanism): it draws its privacy noise
// from EvaluationRequest::trial_noise, returns values already privatised, and fills
// Evaluations::trial_events with the events each point's evaluation spent. The host charges them:
// composed one by one, or covered by a private selection an algorithm charged before the first trial
// (RepeatAndSelectEvent), which then checks every trial against its bound.
class PrivateTrials {
    DPBO_CAPABILITY_INTERFACE(PrivateTrials)
    static constexpr std::string_view capability_name = "PrivateTrials";
    static constexpr std::string_view capability_doc = "each evaluation is a private learner that declares its events";
    // What one trial's guarantee protects, in the user's units: the neighbouring relation ("add or
    // remove one record") and the unit ("one training row of Adult (a9a)").
    virtual std::string trial_neighbouring() const = 0;
    virtual std::string trial_protected_unit() const = 0;
    // Events that cover every trial this objective can run over its space (event_dominated_by), for
    // a selection whose cost must be stated before the first trial; empty when none is known (a
    // program that declares its events only with its answers: the user then states the bound).
    virtual std::vector<PrivacyEvent> trial_bound() const = 0;
};

// An objective that holds sensitive data.
class SensitiveData {
    DPBO_CAPABILITY_INTERFACE(SensitiveData)
    static constexpr std::string_view capability_name = "SensitiveData";
    static constexpr std::string_view capability_doc = "a public description of the data it holds";
    // The data in one line ("50 records from N(1, I_5)"). Public: it is written outside
    // evaluation_only, so it must not contain figures computed from the records.
    virtual std::string data_description() const = 0;
    // Figures computed from the sensitive data for judging runs (e.g. the loss at the data's true
    // parameters); the host writes them under evaluation_only, never as part of a release.
    virtual std::vector<ReleasedValue> reference_values() const { return {}; }
};

// What any guarantee over this objective's data rests on besides the algorithm's own assumptions
// (e.g. a program computing the values inside the trust boundary); the host adds each to the run's
// privacy statement.
class PrivacyAssumptions {
    DPBO_CAPABILITY_INTERFACE(PrivacyAssumptions)
    static constexpr std::string_view capability_name = "PrivacyAssumptions";
    static constexpr std::string_view capability_doc = "assumptions the privacy statement must carry";
    virtual std::vector<std::string> privacy_assumptions() const = 0;
};

// What a guarantee over this objective's data does not cover, beyond what the host states for every
// run (e.g. what a user's program reads, prints or stores besides its answers to dpbo); the host
// adds each to the run's privacy statement, in its not_protected list.
class PrivacyLimits {
    DPBO_CAPABILITY_INTERFACE(PrivacyLimits)
    static constexpr std::string_view capability_name = "PrivacyLimits";
    static constexpr std::string_view capability_doc = "what a guarantee over its data does not protect";
    virtual std::vector<std::string> privacy_limits() const = 0;
};

// A promise, with no function: evaluate() may run on several threads at once on this one instance
// (a pure function of the points, no mutable state). Without it parallel evaluation builds one
// instance per worker.
class ThreadSafe {
    DPBO_CAPABILITY_INTERFACE(ThreadSafe)
    static constexpr std::string_view capability_name = "ThreadSafe";
    static constexpr std::string_view capability_doc = "evaluate() may run concurrently on one instance";
};

#undef DPBO_CAPABILITY_INTERFACE

// What readers that merely report a capability's figure use: the figure, or what an objective
// without the capability means (no records, no known optimum, exact values, no data, nothing
// assumed, nothing declared, not thread-safe).
std::size_t record_count(const Objective& objective);
std::optional<KnownOptimum> known_optimum(const Objective& objective);
double observation_noise_stddev(const Objective& objective);
std::string data_description(const Objective& objective);
std::vector<ReleasedValue> reference_values(const Objective& objective);
std::vector<std::string> privacy_assumptions(const Objective& objective);
std::vector<std::string> privacy_limits(const Objective& objective);
std::vector<DeclaredConstant> declared_constants(const Objective& objective);
bool thread_safe(const Objective& objective);

// Throws ValidationError naming the objective when its capabilities contradict its space: a finite
// space without FiniteCandidates (its rows' status would be unknown), FiniteCandidates on a box, or
// rows that are not the space's. The host calls it on every objective it creates.
void check_objective_capabilities(const Objective& objective);

}  // namespace dpbo
