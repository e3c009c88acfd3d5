#include "report/study_source.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/result_io.hpp"
#include "dpbo/host/study.hpp"
#include "dpbo/objective.hpp"

namespace dpbo::cli::report {

namespace {

// The privacy of a study not finished yet: what its releases so far compose to, under the same
// reading of a seed as a run's result (noise keyed from a seed protects nothing).
json privacy_so_far(const StudyState& state, const json& job) {
    if (state.privacy_so_far.is_null())
        return {{"notion", "not private"},
                {"headline", "nothing released privately yet"},
                {"mechanism", "the study is not finished and has made no private release so far"},
                {"released", json::array()}};
    json statement = state.privacy_so_far["statement"];
    const std::string headline =
        fmt::format("{} so far ({} release(s); the study is not finished)",
                    state.privacy_so_far["headline"].get<std::string>(), state.privacy_so_far["releases"].dump());
    statement["headline"] = headline;
    if (!job.contains("seed") || job["seed"].is_null()) return statement;
    return {{"notion", "not private"},
            {"headline", fmt::format("not private (reproducible study: noise known to anyone with the seed; with "
                                     "secret noise: {})",
                                     headline)},
            {"why", fmt::format("the privacy noise was drawn from ChaCha20 keyed from seed {}: anyone who knows "
                                "the seed can regenerate the noise and remove it from the released values",
                                job["seed"].dump())},
            {"hypothetical", statement}};
}

// The told trials in the order they were told: the trace of a study.
TraceTable told_trials(const Study& study, const std::string& file) {
    std::vector<StoredTrial> done;
    for (StoredTrial& trial : study.trials())
        if (trial.state == TrialState::Done) done.push_back(std::move(trial));
    std::stable_sort(done.begin(), done.end(), [](const StoredTrial& a, const StoredTrial& b) {
        return a.told_at != b.told_at ? a.told_at < b.told_at : a.id < b.id;
    });
    const std::vector<Output> outputs = study.objective().outputs();
    const std::size_t dim = study.objective().space().dim();
    TraceTable table;
    table.file = file;
    table.names = {"trial", "evaluations"};
    for (const Output& output : outputs)
        table.names.push_back(outputs.size() == 1 ? "value" : "value[" + output.name + "]");
    for (std::size_t i = 0; i < dim; ++i) table.names.push_back(fmt::format("x[{}]", i));
    // Told values are the clients' numbers, before any privatisation; the points are the algorithm's.
    table.evaluation_only.assign(table.names.size(), false);
    for (std::size_t o = 0; o < outputs.size(); ++o) table.evaluation_only[2 + o] = true;
    table.columns.assign(table.names.size(), {});
    for (std::size_t row = 0; row < done.size(); ++row) {
        const StoredTrial& trial = done[row];
        table.columns[0].push_back(static_cast<double>(trial.id));
        table.columns[1].push_back(static_cast<double>(row + 1));
        for (std::size_t o = 0; o < outputs.size(); ++o) table.columns[2 + o].push_back(trial.values(o));
        for (std::size_t i = 0; i < dim; ++i) table.columns[2 + outputs.size() + i].push_back(trial.point(i));
    }
    table.rows = done.size();
    return table;
}

}  // namespace

ReportFolder read_study(const std::string& file, const std::string& label, PluginRegistry& registry) {
    try {
        JournalStore::open(file, Study::kKind);
    } catch (const ValidationError& e) {
        throw ValidationError(fmt::format(
            "report: '{}' is a file but not a study file ({}); expected a run's --out folder or a study file made by "
            "'dpbo study create'",
            file, e.what()));
    }
    Study study(registry, file);
    const StudyState state = study.show();
    const json job = study.job();
    json outputs = json::array();
    for (const Output& output : study.objective().outputs())
        outputs.push_back({{"name", output.name}, {"sense", to_string(output.sense)}});
    ReportFolder folder;
    folder.label = label;
    folder.study = true;
    folder.read.folder = file;
    folder.read.files = {file};
    folder.traces.emplace_back(told_trials(study, file));
    json result{{"job", job},
                {"objective",
                 {{"sense", to_string(study.objective().sense())},
                  {"outputs", outputs},
                  {"dimensions", search_space_dimensions_json(study.objective().space())}}},
                {"evaluations", folder.traces.front()->rows}};
    if (state.finished && state.result.contains("privacy")) {
        result["privacy"] = state.result["privacy"];
        result["released"] = state.result.value("released", json::object());
        result["evaluation_only"] = state.result.value("evaluation_only", json::object());
    } else {
        result["privacy"] = privacy_so_far(state, job);
        result["released"] = json::object();
        result["evaluation_only"] = json::object();
    }
    if (!state.privacy_over_run.is_null()) result["privacy_over_run"] = state.privacy_over_run;
    result["study"] = {
        {"file", file}, {"finished", state.finished}, {"batches", state.batches}, {"releases", state.releases}};
    folder.read.results = {std::move(result)};
    return folder;
}

}  // namespace dpbo::cli::report
