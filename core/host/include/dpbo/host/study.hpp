#pragma once
// An ask/tell study: a job whose objective is evaluated by clients outside dpbo. The study file
// (SQLite, the journal store) holds the job, the objective's declaration, every batch the algorithm
// asked for as trials, and every private release. Each ask, tell and show is its own short process:
// ask replays the algorithm over the told values — a batch fully told is taken from the file, a
// release made before is taken back without drawing noise (dpbo/run_journal.hpp) — until it reaches
// a batch that is not, records it as waiting trials and hands some out. So the study is the very run
// `dpbo run` would make with the same job and seed, whatever order the values arrive in. A Study kept
// open keeps its run alive between calls: the next ask goes on from where the algorithm waited, so
// it costs one step of the algorithm, not a replay of the study. Several
// clients share the algorithm's batches (algorithm.batch, dp-gibo's batches), and each ask or tell
// is one transaction, so concurrent clients lose nothing.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>
#include <nlohmann/json.hpp>

#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/runner.hpp"

namespace dpbo {

class PluginRegistry;
class Objective;
class StudyObjective;

// What a client tells of one trial. Empty members were not told.
struct ToldValues {
    arma::rowvec values;                  // one per output; with one output and per-record values, may
                                          // be left out: it is then their mean
    arma::rowvec per_record;              // n values, when the algorithm asked for them
    std::map<std::string, double> named;  // output or auxiliary output by name
    std::vector<std::string> events;      // a trial that is a private learner: the events it spent (texts)
};

struct StudyState {
    bool finished = false;
    std::size_t batches = 0;                // batches the algorithm asked for so far
    std::vector<StoredTrial> handed;        // ask: the trials handed out now
    bool per_record = false;                // their batch asks for per-record values
    std::vector<std::int64_t> waiting_for;  // trials handed out earlier whose values the algorithm waits for
    std::size_t releases = 0;               // private releases made so far
    nlohmann::ordered_json privacy_so_far;  // the composition of those releases (null before the first)
    // The privacy spent after each release (dpbo/host/privacy_over_run.hpp); null before the first.
    nlohmann::ordered_json privacy_over_run;
    nlohmann::ordered_json result;  // finished: what the run released, its statement, ...
};

class Study {
public:
    static constexpr const char* kKind = "study";

    // Creates `file` for `job` (its objective is created once, to read its declaration; a job
    // without a seed gets an experiment seed from the OS, kept in the file), then replays once so
    // that the algorithm checks the job and its first batch is ready. ValidationError, leaving no
    // file, for a bad job or an existing file.
    static void create(PluginRegistry& registry, const std::filesystem::path& file, const JobSpec& job);

    // ValidationError naming the file when it is not a study or was made by another dpbo build.
    // `registry` needs only the plugin files the study uses (plugin_files()); when a replay asks for
    // a module it lacks, `load_all` is called to load every plugin and the replay is tried again.
    Study(PluginRegistry& registry, const std::filesystem::path& file, std::function<void()> load_all = {});
    ~Study();
    Study(const Study&) = delete;
    Study& operator=(const Study&) = delete;

    // Hands out up to `count` waiting trials of the batch the algorithm waits for.
    StudyState ask(std::size_t count);
    // ValidationError naming the trial for an unknown id, a trial told or failed before or never
    // handed out, and values of the wrong shape or not finite; nothing is written then.
    void tell(std::int64_t id, const ToldValues& told);
    // The trial failed: its point is handed out again, as the returned new trial.
    std::int64_t fail(std::int64_t id, const std::string& reason);
    // Replays without handing anything out: the privacy spent, and the result once finished.
    StudyState show();
    // More budget for the study, finished or not: `algorithm` replaces algorithm parameters
    // (budget, iterations, ...), `budget` the privacy budget. The study goes on in the same file;
    // what was told and released stays and is replayed, not charged again; only new releases are.
    // ValidationError, changing nothing, when the job so changed does not replay what the study
    // recorded (an algorithm whose earlier steps depend on the setting, as DP-GIBO's noise depends on
    // its iterations) or ends before the batches it recorded.
    StudyState extend(const std::map<std::string, std::string>& algorithm, const std::optional<PrivacyBudget>& budget);

    std::vector<StoredTrial> trials() const { return store_->trials(); }
    const Objective& objective() const;
    // The job as its result records it (modules with parameters and defaults, seed, budget).
    const nlohmann::ordered_json& job() const { return job_; }
    const std::filesystem::path& file() const { return store_->file(); }
    // The lifetime ledger it charges (dpbo study create --ledger), empty when none, and its token there.
    const std::filesystem::path& ledger_file() const { return ledger_file_; }
    const std::string& ledger_run() const { return ledger_run_; }
    // The plugin files the study's job used when it was created (its modules, the accountant, what
    // the algorithm made at its start): loading these alone saves each ask most of dpbo's start-up.
    std::vector<std::filesystem::path> plugin_files() const;
    // What the manifest cache held for them then (PluginRegistry::load_files), or null.
    nlohmann::ordered_json plugin_manifests() const;

private:
    class Live;
    StudyState replay(std::optional<std::size_t> hand_out);
    StudyState replay_once(std::optional<std::size_t> hand_out);
    StoredTrial trial_to_tell(std::int64_t id) const;

    PluginRegistry& registry_;
    std::function<void()> load_all_;
    std::unique_ptr<JournalStore> store_;
    JobSpec spec_;
    nlohmann::ordered_json job_;
    std::shared_ptr<StudyObjective> objective_;
    std::uint64_t experiment_seed_ = 0;
    std::filesystem::path ledger_file_;  // the lifetime ledger it was created with; empty: none
    std::string ledger_run_;             // its token there
    std::unique_ptr<Live> live_;         // the run between calls (last: it ends before the store closes)
};

}  // namespace dpbo
