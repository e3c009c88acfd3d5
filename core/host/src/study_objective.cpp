#include "study_objective.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

using json = nlohmann::ordered_json;

namespace {

json rows_json(const arma::mat& m) {
    json rows = json::array();
    for (std::size_t i = 0; i < m.n_rows; ++i) {
        json row = json::array();
        for (std::size_t j = 0; j < m.n_cols; ++j) row.push_back(m(i, j));
        rows.push_back(std::move(row));
    }
    return rows;
}

arma::mat rows_of(const json& rows) {
    if (rows.empty()) return {};
    arma::mat m(rows.size(), rows.front().size());
    for (std::size_t i = 0; i < m.n_rows; ++i)
        for (std::size_t j = 0; j < m.n_cols; ++j) m(i, j) = rows.at(i).at(j).get<double>();
    return m;
}

Sense sense_of(const std::string& text) { return text == "maximise" ? Sense::Maximise : Sense::Minimise; }

RowStatus row_status_of(const std::string& text) {
    for (const RowStatus status : {RowStatus::Sensitive, RowStatus::DataIndependent, RowStatus::Released})
        if (to_string(status) == text) return status;
    throw ValidationError(
        fmt::format("the study's objective declaration is damaged: candidate_status '{}' is not "
                    "sensitive, data-independent or released",
                    text));
}

}  // namespace

json objective_declaration(const Objective& objective) {
    const SearchSpace& space = objective.space();
    json dimensions = json::array();
    for (const Dimension& d : space.dimensions())
        dimensions.push_back({{"name", d.name},
                              {"lower", d.lower},
                              {"upper", d.upper},
                              {"scale", d.scale == Scale::Log ? "log" : "linear"},
                              {"integer", d.integer}});
    json out;
    out["space"] = {{"finite", space.is_finite()},
                    {"bounds_declared", space.bounds_declared()},
                    {"dimensions", dimensions},
                    {"candidates", space.is_finite() ? rows_json(space.candidate_rows()) : json::array()}};
    json outputs = json::array();
    for (const Output& o : objective.outputs()) outputs.push_back({{"name", o.name}, {"sense", to_string(o.sense)}});
    out["outputs"] = outputs;
    json auxiliary = json::array();
    for (const AuxiliaryOutput& a : objective.auxiliary_outputs())
        auxiliary.push_back({{"name", a.name}, {"doc", a.doc}});
    out["auxiliary"] = auxiliary;
    out["records"] = record_count(objective);
    if (const auto optimum = known_optimum(objective))
        out["known_optimum"] = {{"value", optimum->value}, {"points", rows_json(optimum->points)}};
    else
        out["known_optimum"] = nullptr;
    out["data"] = data_description(objective);
    // Rows a study may search as public are a release already made; a study written before the
    // three statuses has only this field, and its other rows are read as sensitive.
    const auto* finite = capability<FiniteCandidates>(objective);
    const RowStatus status = finite != nullptr ? finite->candidates().status : RowStatus::Sensitive;
    out["candidates_are_public"] = status == RowStatus::Released;
    if (finite != nullptr) out["candidate_status"] = to_string(status);
    out["privacy_assumptions"] = privacy_assumptions(objective);
    out["privacy_limits"] = privacy_limits(objective);
    json constants = json::array();
    for (const DeclaredConstant& c : declared_constants(objective))
        constants.push_back({{"name", c.name}, {"value", c.value}, {"doc", c.doc}});
    out["constants"] = constants;
    // Only when declared: studies of other objectives keep the declaration they had.
    if (const auto* trials = capability<PrivateTrials>(objective)) {
        json bound = json::array();
        for (const PrivacyEvent& event : trials->trial_bound()) bound.push_back(event_text(event));
        out["trials"] = {{"neighbouring", trials->trial_neighbouring()},
                         {"protected", trials->trial_protected_unit()},
                         {"bound", bound}};
    }
    return out;
}

StudyObjective::StudyObjective(const json& d) {
    try {
        const json& space = d.at("space");
        std::vector<Dimension> dimensions;
        for (const json& x : space.at("dimensions"))
            dimensions.push_back({x.at("name").get<std::string>(), x.at("lower").get<double>(),
                                  x.at("upper").get<double>(), x.at("scale") == "log" ? Scale::Log : Scale::Linear,
                                  x.at("integer").get<bool>()});
        if (!space.at("finite").get<bool>()) {
            space_ = SearchSpace::box(dimensions);
        } else if (space.at("bounds_declared").get<bool>()) {
            space_ = SearchSpace::candidates_within(rows_of(space.at("candidates")), dimensions);
        } else {
            std::vector<std::string> names;
            for (const Dimension& x : dimensions) names.push_back(x.name);
            space_ = SearchSpace::candidates(rows_of(space.at("candidates")), names);
        }
        for (const json& o : d.at("outputs")) outputs_.push_back({o.at("name"), sense_of(o.at("sense"))});
        for (const json& a : d.at("auxiliary")) auxiliary_.push_back({a.at("name"), a.at("doc")});
        records_ = d.at("records").get<std::size_t>();
        if (!d.at("known_optimum").is_null())
            optimum_ =
                KnownOptimum{d["known_optimum"].at("value").get<double>(), rows_of(d["known_optimum"].at("points"))};
        data_ = d.at("data").get<std::string>();
        candidate_status_ = d.at("candidates_are_public").get<bool>() ? RowStatus::Released : RowStatus::Sensitive;
        if (d.contains("candidate_status"))
            candidate_status_ = row_status_of(d.at("candidate_status").get<std::string>());
        assumptions_ = d.at("privacy_assumptions").get<std::vector<std::string>>();
        // Absent from the declarations of studies created before objectives declared their limits.
        if (d.contains("privacy_limits")) limits_ = d.at("privacy_limits").get<std::vector<std::string>>();
        for (const json& c : d.at("constants"))
            constants_.push_back({c.at("name"), c.at("value").get<double>(), c.at("doc")});
        if (d.contains("trials")) {
            Trials trials{
                d["trials"].at("neighbouring").get<std::string>(), d["trials"].at("protected").get<std::string>(), {}};
            for (const json& text : d["trials"].at("bound"))
                trials.bound.push_back(parse_builtin_event(text.get<std::string>()));
            trials_ = std::move(trials);
        }
    } catch (const json::exception& e) {
        throw ValidationError(fmt::format("the study's objective declaration is damaged: {}", e.what()));
    }
    if (outputs_.empty()) throw ValidationError("the study's objective declaration names no output");
    if (trials_)
        assumptions_.push_back(
            "the study's trials are private learners run by its ask/tell clients, which own their privacy noise: "
            "dpbo charges the events each client tells with its trial (dpbo tell --event)");
    else
        assumptions_.push_back(
            "the study's values are computed and told by its ask/tell clients, which are inside the trust boundary: "
            "they read the sensitive data, and what they tell is sensitive until the algorithm privatises it");
    limits_.push_back(
        "what the study's clients do with the data besides telling dpbo their values (what they print, store or "
        "send elsewhere, and data they read besides the records the statement protects): only what they tell "
        "passes through the algorithm's privacy");
}

std::shared_ptr<StudyObjective> make_study_objective(const json& declaration) {
    const auto space = declaration.find("space");
    const bool finite = space != declaration.end() && space->is_object() && space->contains("finite") &&
                        (*space)["finite"].is_boolean() && (*space)["finite"].get<bool>();
    const bool trials = declaration.contains("trials");
    if (finite)
        return trials ? std::shared_ptr<StudyObjective>(
                            std::make_shared<TrialStudyObjective<FiniteStudyObjective>>(declaration))
                      : std::make_shared<FiniteStudyObjective>(declaration);
    return trials ? std::shared_ptr<StudyObjective>(std::make_shared<TrialStudyObjective<StudyObjective>>(declaration))
                  : std::make_shared<StudyObjective>(declaration);
}

Evaluations StudyObjective::evaluate(const arma::mat&, const EvaluationRequest&) {
    throw RunError(
        "the algorithm evaluated the objective outside the trials it asks for, which a study cannot do: its objective "
        "lives with the ask/tell clients. Evaluation-only figures need the objective itself; turn them off (dp-gibo: "
        "--set algorithm.track_objective=false)");
}

}  // namespace dpbo
