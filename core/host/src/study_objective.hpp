#pragma once
// An ask/tell study's objective: what the objective the study was created with declared (its space,
// outputs, records, known optimum, ...), kept as JSON in the study file. dpbo never evaluates it:
// the study's clients do, and tell the values. An algorithm replayed over it sees the declaration and
// the told values, nothing else.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

// What `objective` declares, as the study stores it (numbers round-trip exactly).
nlohmann::ordered_json objective_declaration(const Objective& objective);

// The capabilities a declaration may carry; each answers what the declaration says (no records, no
// optimum, ... when the objective had none). A finite space's rows and their status come with
// FiniteStudyObjective (make_study_objective picks it).
class StudyObjective : public Objective,
                       public RecordDecomposable,
                       public HasKnownOptimum,
                       public SensitiveData,
                       public PrivacyAssumptions,
                       public PrivacyLimits,
                       public DeclaredConstants {
public:
    // ValidationError when `declaration` is not one objective_declaration wrote.
    explicit StudyObjective(const nlohmann::ordered_json& declaration);

    const SearchSpace& space() const override { return space_; }
    Sense sense() const override { return outputs_.front().sense; }
    std::vector<Output> outputs() const override { return outputs_; }
    std::vector<AuxiliaryOutput> auxiliary_outputs() const override { return auxiliary_; }
    // RunError naming why: a study's objective lives with its clients.
    Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) override;
    std::optional<KnownOptimum> known_optimum() const override { return optimum_; }
    std::size_t record_count() const override { return records_; }
    std::string data_description() const override { return data_; }
    std::vector<std::string> privacy_assumptions() const override { return assumptions_; }
    std::vector<std::string> privacy_limits() const override { return limits_; }
    std::vector<DeclaredConstant> declared_constants() const override { return constants_; }

    // What the declaration says of trials that are private learners (PrivateTrials), when it does.
    struct Trials {
        std::string neighbouring;
        std::string protected_unit;
        std::vector<PrivacyEvent> bound;
    };
    const std::optional<Trials>& trials() const { return trials_; }

private:
    SearchSpace space_;
    std::vector<Output> outputs_;
    std::vector<AuxiliaryOutput> auxiliary_;
    std::optional<KnownOptimum> optimum_;
    std::size_t records_ = 0;
    std::string data_;
    std::vector<std::string> assumptions_;
    std::vector<std::string> limits_;
    std::vector<DeclaredConstant> constants_;
    std::optional<Trials> trials_;

protected:
    RowStatus candidate_status_ = RowStatus::Sensitive;
};

class FiniteStudyObjective : public StudyObjective, public FiniteCandidates {
public:
    using StudyObjective::StudyObjective;
    CandidateRows candidates() const override { return {space().candidate_rows(), candidate_status_}; }
};

// A study's objective whose trials are private learners: the clients tell each trial's events.
template <class Base>
class TrialStudyObjective final : public Base, public PrivateTrials {
public:
    using Base::Base;
    std::string trial_neighbouring() const override { return this->trials()->neighbouring; }
    std::string trial_protected_unit() const override { return this->trials()->protected_unit; }
    std::vector<PrivacyEvent> trial_bound() const override { return this->trials()->bound; }
};

// A StudyObjective, or a FiniteStudyObjective for a finite space (each a TrialStudyObjective when
// the declaration has "trials"). ValidationError as the constructor.
std::shared_ptr<StudyObjective> make_study_objective(const nlohmann::ordered_json& declaration);

}  // namespace dpbo
