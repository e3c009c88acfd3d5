#include "dpbo/host/study.hpp"

#include "dpbo/host/ledger_gate.hpp"
#include "dpbo/host/lifetime_ledger.hpp"
#include "dpbo/host/privacy_limits.hpp"
#include "dpbo/host/privacy_over_run.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/abi.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/job_modules.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/host/result_io.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "journal_replay.hpp"
#include "study_objective.hpp"
#include "trial_statement.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

// A study is replayed by the code that made it: another build may ask for other points.
std::string this_build() { return fmt::format("dpbo {} (plugin ABI {})", DPBO_VERSION, kAbiVersion); }

json choice_json(const ModuleChoice& choice) { return {{"name", choice.name}, {"parameters", choice.parameters}}; }

ModuleChoice choice_of(const json& j) {
    return {j.at("name").get<std::string>(), j.at("parameters").get<std::map<std::string, std::string>>()};
}

// The job as given (names and the user's own settings), so a replay builds it exactly as created.
json spec_json(const JobSpec& spec) {
    json roles = json::object();
    for (const auto& [role, choice] : spec.roles) roles[role] = choice_json(choice);
    return {{"algorithm", choice_json(spec.algorithm)},
            {"objective", choice_json(spec.objective)},
            {"roles", roles},
            {"seed", spec.seed ? json(*spec.seed) : json(nullptr)},
            {"budget", spec.budget ? json(spec.budget->text()) : json(nullptr)}};
}

JobSpec spec_of(const json& j) {
    JobSpec spec;
    spec.algorithm = choice_of(j.at("algorithm"));
    spec.objective = choice_of(j.at("objective"));
    for (const auto& [role, choice] : j.at("roles").items()) spec.roles[role] = choice_of(choice);
    if (!j.at("seed").is_null()) spec.seed = j["seed"].get<std::uint64_t>();
    if (!j.at("budget").is_null()) spec.budget = PrivacyBudget::parse(j["budget"].get<std::string>());
    return spec;
}

std::optional<std::size_t> candidate_row(const SearchSpace& space, const arma::rowvec& point) {
    const arma::mat& rows = space.candidate_rows();
    for (std::size_t i = 0; i < rows.n_rows; ++i) {
        bool same = true;
        for (std::size_t j = 0; j < rows.n_cols && same; ++j)
            same = std::memcmp(&rows(i, j), &point(j), sizeof(double)) == 0;
        if (same) return i;
    }
    return std::nullopt;
}

// `text` with every byte that is not printable ASCII written as \xNN: what a damaged file holds
// (quoted by a parser's message, or a record read back) must not reach the terminal raw.
std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f)
            out += c;
        else
            out += fmt::format("\\x{:02x}", byte);
    }
    return out;
}

// What a study holds differs from what its replay asks for only when the file was altered since
// (or the plugins it was made with changed): the user's file is at fault, not the run (exit 2).
template <class Read>
auto as_told(const JournalStore& store, Read&& read) {
    try {
        return read();
    } catch (const RunSuspended&) {
        throw;
    } catch (const RunError& e) {
        throw ValidationError(
            fmt::format("study '{}' does not match its own replay, so it was altered or its "
                        "plugins changed since it was created: {}",
                        store.file().string(), e.what()));
    }
}

// Where the algorithm's thread hands control back to the study's caller when a batch waits for its
// values, and waits to be let go on (Study::Live).
class ValuesWait {
public:
    virtual ~ValuesWait() = default;
    // Returns when the caller lets the run go on; RunSuspended when the run is abandoned.
    virtual void wait_for_values(std::size_t batch) = 0;
};

// The study's journal: told batches are replayed; a batch not yet told is recorded as waiting trials
// the first time it is asked for, and the algorithm waits there until it is told. The first pass
// reads the file in one snapshot; after a wait, the batch and its trials are read again (other
// clients may have told or asked meanwhile).
class StudyJournal final : public RunJournal {
public:
    StudyJournal(JournalStore& store, const Objective& objective, ValuesWait& wait)
        : store_(store), snapshot_(store), objective_(objective), wait_(wait) {}

    std::optional<std::size_t> suspended_at() const { return suspended_; }
    // Batches the run has asked for so far.
    std::size_t batches_asked() const { return batches_asked_; }

    std::optional<Evaluations> recorded_batch(std::size_t index, const arma::mat& points,
                                              const EvaluationRequest& request) override {
        batches_asked_ = std::max(batches_asked_, index + 1);
        for (;;) {
            const std::optional<StoredBatch> batch = read_batch(index);
            if (!batch) {
                store_.add_batch(index, points, request.per_record);
                wait(index);
                continue;
            }
            const auto done = as_told(store_, [&] {
                journal::check_same_batch(store_, *batch, points, request);
                return fresh_ ? journal::done_trials(*batch, store_.trials_of(index)) : snapshot_.done_trials(index);
            });
            if (!done) {
                wait(index);
                continue;
            }
            suspended_.reset();
            return as_told(store_, [&] { return evaluations_of(*batch, *done, points, request, index); });
        }
    }

    void record_batch(std::size_t index, const Evaluations&, const EvaluationRequest&) override {
        throw RunError(
            fmt::format("study '{}': batch {} was evaluated by dpbo, but a study's values are told by its "
                        "clients",
                        store_.file().string(), index + 1));
    }

    std::optional<RecordedRelease> recorded_release(std::size_t entry, const PrivacyEvent& event) override {
        return as_told(store_, [&] { return journal::recorded_release(store_, entry, event); });
    }

    void record_release(std::size_t entry, const RecordedRelease& release) override {
        store_.add_release(entry, release);
    }

private:
    std::optional<StoredBatch> read_batch(std::size_t index) const {
        if (fresh_) return store_.batch(index);
        const StoredBatch* batch = snapshot_.batch(index);
        return batch != nullptr ? std::optional<StoredBatch>(*batch) : std::nullopt;
    }

    void wait(std::size_t index) {
        suspended_ = index;
        fresh_ = true;
        wait_.wait_for_values(index);
    }

    Evaluations evaluations_of(const StoredBatch& batch, const std::vector<StoredTrial>& done, const arma::mat& points,
                               const EvaluationRequest& request, std::size_t index) const {
        Evaluations e = journal::evaluations_of(batch, done, request.per_record);
        // The events a client told with each trial (dpbo tell --event), for the host to charge.
        e.trial_events = journal::trial_events_of(store_.trial_events(index, points.n_rows), index);
        if (objective_.space().is_finite() && e.candidate_rows.is_empty()) {
            e.candidate_rows.set_size(points.n_rows);
            for (std::size_t i = 0; i < points.n_rows; ++i) {
                const auto row = candidate_row(objective_.space(), points.row(i));
                if (!row)
                    throw RunError(
                        fmt::format("point {} of batch {} is not one of the candidate rows", i + 1, index + 1));
                e.candidate_rows(i) = *row;
            }
        }
        return e;
    }

    JournalStore& store_;
    journal::Snapshot snapshot_;
    bool fresh_ = false;  // read the file again: the run has waited
    const Objective& objective_;
    ValuesWait& wait_;
    std::optional<std::size_t> suspended_;
    std::size_t batches_asked_ = 0;
};

// The statement the ledger makes of what was charged so far.
json spent_json(const PrivacyLedger& ledger) {
    if (ledger.charges() == 0) return nullptr;
    const PrivacyStatement spent = ledger.spent();
    return {
        {"headline", spent.headline()}, {"releases", ledger.charges()}, {"statement", privacy_statement_json(spent)}};
}

}  // namespace

void Study::create(PluginRegistry& registry, const fs::path& file, const JobSpec& job) {
    const json described = describe_job(registry, job);  // checks names and parameters first
    // Evaluation-only tracking (dp-gibo's f(θ_t) for its trace) calls the objective itself, which a
    // study's clients hold: refused now rather than at the ask that first needs it.
    if (described["algorithm"]["parameters"].value("track_objective", false))
        throw ValidationError(
            fmt::format("algorithm '{}' tracks the objective for evaluation-only figures "
                        "(track_objective = true), which needs the objective itself; a study's "
                        "objective lives with its clients: --set algorithm.track_objective=false",
                        job.algorithm.name));
    JobModules modules(registry, job);
    const std::shared_ptr<Objective> objective = modules.create_objective();
    const json declaration = call_into_module(objective->describe_origin(), "declaring itself",
                                              [&] { return objective_declaration(*objective); });
    const std::uint64_t experiment_seed = job.seed ? repeat_seed(*job.seed, 0, 1) : os_random_u64();
    std::map<std::string, std::string> meta{{"created_by", this_build()},
                                            {"spec", spec_json(job).dump()},
                                            {"job", described.dump()},
                                            {"objective", declaration.dump()},
                                            {"experiment_seed", std::to_string(experiment_seed)}};
    // Every ask and tell replays the study and charges the ledger the study was created with, under
    // the study's token: a replay's charges are recognised, new ones counted.
    if (!job.ledger.empty()) {
        LifetimeLedger::open(job.ledger);  // a missing or damaged ledger is refused before the file is made
        std::error_code ec;
        meta["ledger"] = fs::weakly_canonical(job.ledger, ec).string();
        meta["ledger_run"] = new_ledger_run_token();
    }
    JournalStore::create(file, kKind, meta);
    try {
        Study study(registry, file);
        study.show();
        // The modules it made, and the algorithm and objective the job is checked against.
        std::vector<fs::path> paths = registry.loaded_files();
        for (const auto& [kind, name] : {std::pair{ModuleKind::Algorithm, job.algorithm.name},
                                         std::pair{ModuleKind::Objective, job.objective.name}})
            if (const LoadedPlugin* plugin = registry.find(kind, name);
                plugin != nullptr && std::find(paths.begin(), paths.end(), plugin->path) == paths.end())
                paths.push_back(plugin->path);
        json files = json::array();
        for (const fs::path& path : paths) files.push_back(path.string());
        study.store_->set_meta("plugin_files", files.dump());
        study.store_->set_meta("plugin_manifests", registry.cached_manifests(paths).dump());
    } catch (const ValidationError&) {
        remove_journal_files(file);
        throw;
    } catch (const RunError& e) {
        remove_journal_files(file);
        throw ValidationError(fmt::format("the study's job cannot run: {}", e.what()));
    }
}

Study::Study(PluginRegistry& registry, const fs::path& file, std::function<void()> load_all)
    : registry_(registry), load_all_(std::move(load_all)), store_(JournalStore::open(file, kKind)) {
    // An ask prints points that may depend on releases it made: both are on disk first.
    store_->set_synced(true);
    const std::string made_by = store_->meta("created_by");
    if (made_by != this_build())
        throw ValidationError(
            fmt::format("study '{}' was created by {}; this is {}. A study is replayed by the code "
                        "that created it: finish it with that dpbo, or create a new study",
                        file.string(), printable(made_by), this_build()));
    try {
        spec_ = spec_of(json::parse(store_->meta("spec")));
        job_ = json::parse(store_->meta("job"));
        // What the commands print from it is there (a damaged record may parse and lack it).
        for (const char* part : {"algorithm", "objective"}) job_.at(part).at("name").get<std::string>();
        objective_ = make_study_objective(json::parse(store_->meta("objective")));
        experiment_seed_ = std::stoull(store_->meta("experiment_seed"));
        if (const auto ledger = store_->find_meta("ledger")) {
            ledger_file_ = *ledger;
            ledger_run_ = store_->meta("ledger_run");
        }
    } catch (const std::exception& e) {
        throw ValidationError(fmt::format("study '{}' is damaged: {}", file.string(), printable(e.what())));
    }
}

Study::~Study() = default;

const Objective& Study::objective() const { return *objective_; }

json Study::plugin_manifests() const {
    const auto text = store_->find_meta("plugin_manifests");
    return text ? json::parse(*text, nullptr, false) : json(nullptr);
}

std::vector<fs::path> Study::plugin_files() const {
    std::vector<fs::path> out;
    if (const auto files = store_->find_meta("plugin_files")) {
        const json paths = json::parse(*files, nullptr, false);
        const bool listed = paths.is_array() &&
                            std::all_of(paths.begin(), paths.end(), [](const json& path) { return path.is_string(); });
        if (!listed)
            throw ValidationError(
                fmt::format("study '{}' is damaged: its 'plugin_files' record is not a JSON list of "
                            "paths",
                            store_->file().string()));
        for (const json& path : paths) out.emplace_back(path.get<std::string>());
    }
    return out;
}

// The study's run, kept alive between calls: the algorithm runs on a thread of its own, which stops
// where the algorithm waits for a batch not yet told and goes on from there when the study is asked
// again. The first call replays the file from the start (as a new process must); a Study kept open
// (the Python package, one `dpbo ask --wait`) pays each batch once. The two threads take turns: the
// caller waits while the algorithm runs, so the run and the file are used by one thread at a time.
class Study::Live final : public ValuesWait {
public:
    explicit Live(Study& study)
        : study_(study),
          modules_(study.registry_, study.spec_),
          components_(modules_.create_components()),
          rng_(study.experiment_seed_),
          // The run's own noise key with a seed, as `dpbo run` (repeat 1) has it; otherwise a fresh
          // one: releases made before are taken from the file, not drawn again.
          noise_(study.spec_.seed ? PrivacyNoiseSource::from_seed(repeat_seed(*study.spec_.seed, 0, 2))
                                  : PrivacyNoiseSource::from_os()),
          owner_(fmt::format("algorithm '{}'", study.spec_.algorithm.name)),
          accountant_(create_run_accountant(study.registry_, owner_, modules_.declared_roles(), components_.roles,
                                            capability<PrivateTrials>(*study.objective_) != nullptr)),
          empty_accountant_(accountant_->clone()),
          journal_(*study.store_, *study.objective_, *this) {
        if (!study.ledger_file_.empty()) {
            lifetime_ = LifetimeLedger::open(study.ledger_file_);
            gate_ = std::make_unique<LedgerGate>(*lifetime_, *accountant_, study.ledger_run_,
                                                 fmt::format("study {}", study.store_->file().string()));
        }
        ledger_ = std::make_unique<PrivacyLedger>(accountant_, study.spec_.budget, noise_, owner_);
        if (gate_) ledger_->set_charge_gate(gate_.get());
        evaluator_.attach_journal(&journal_);
        evaluator_.attach_trial_ledger(ledger_.get());
        ledger_->attach_journal(&journal_);
        context_ = std::make_unique<RunContext>(RunContext{*study.objective_, evaluator_, rng_, *ledger_, observer_,
                                                           study.registry_, std::move(components_.roles)});
    }

    ~Live() override {
        if (!thread_.joinable()) return;
        {
            std::lock_guard lock(mutex_);
            abandoned_ = true;
            algorithm_turn_ = true;
        }
        turn_changed_.notify_all();
        thread_.join();
    }

    Live(const Live&) = delete;
    Live& operator=(const Live&) = delete;

    // Lets the algorithm run until it waits for values not told yet or ends; rethrows what ended it
    // (RunSuspended ends nothing: the run waits).
    void advance() {
        if (ended_) return;
        {
            std::unique_lock lock(mutex_);
            algorithm_turn_ = true;
            if (!thread_.joinable())
                thread_ = std::thread([this] { run_algorithm(); });
            else
                turn_changed_.notify_all();
            turn_changed_.wait(lock, [this] { return !algorithm_turn_; });
        }
        if (error_) std::rethrow_exception(error_);
    }

    // On the algorithm's thread.
    void wait_for_values(std::size_t) override {
        std::unique_lock lock(mutex_);
        algorithm_turn_ = false;
        turn_changed_.notify_all();
        turn_changed_.wait(lock, [this] { return algorithm_turn_; });
        if (abandoned_) throw RunSuspended("the study's run was closed while it waited for values");
    }

    std::size_t batches_asked() const { return journal_.batches_asked(); }

    // Where the run stands after advance(), handing out up to `hand_out` waiting trials.
    StudyState state(std::optional<std::size_t> hand_out) {
        JournalStore& store = *study_.store_;
        StudyState state;
        if (ended_) {
            if (finished_.is_null()) finished_ = finished_result();
            state.finished = true;
            state.result = finished_;
        }
        state.batches = store.batch_count();
        state.releases = ledger_->charges();
        state.privacy_so_far = spent_json(*ledger_);
        // Composed again release by release (costly with pld): for show, which the report reads, not
        // for every ask.
        if (!hand_out)
            state.privacy_over_run = privacy_over_run_json(ledger_->log(), *empty_accountant_,
                                                           result_ ? result_->released : std::vector<ReleasedValue>{});
        if (const auto waiting = journal_.suspended_at(); waiting && !state.finished) {
            state.per_record = store.batch(*waiting)->per_record;
            for (StoredTrial& trial : store.trials_of(*waiting)) {
                if (trial.state == TrialState::Running) {
                    state.waiting_for.push_back(trial.id);
                } else if (trial.state == TrialState::Waiting && hand_out && state.handed.size() < *hand_out) {
                    store.mark_running(trial.id);
                    trial.state = TrialState::Running;
                    state.handed.push_back(std::move(trial));
                }
            }
        }
        return state;
    }

private:
    void run_algorithm() {
        try {
            result_ = call_into_module(components_.algorithm->describe_origin(), "running",
                                       [&] { return components_.algorithm->run(*context_); });
        } catch (const RunSuspended&) {
            // Abandoned while it waited: nothing to report.
        } catch (const BudgetExceeded& refusal) {
            refusal_ = refusal.what();
        } catch (...) {
            error_ = std::current_exception();
        }
        std::lock_guard lock(mutex_);
        ended_ = true;
        algorithm_turn_ = false;
        turn_changed_.notify_all();
    }

    json finished_result() const {
        if (!result_) return {{"status", "refused"}, {"stop_reason", "budget"}, {"why", refusal_}};
        const Objective& objective = *study_.objective_;
        PrivacyStatement statement =
            ledger_->statement_for(trial_search_statement(result_->privacy, objective, evaluator_, *ledger_));
        for (const std::string& assumption : privacy_assumptions(objective))
            statement.assumptions.push_back(assumption);
        add_privacy_limits(statement, objective);
        statement.validate();
        return {{"status", "complete"},
                {"privacy", run_privacy_json(statement, study_.spec_.seed)},
                {"released", released_values_json(result_->released)},
                {"evaluation_only", released_values_json(result_->evaluation_only)},
                {"evaluations", result_->evaluations},
                {"stop_reason", result_->stop_reason}};
    }

    Study& study_;
    JobModules modules_;
    JobComponents components_;
    ExperimentRng rng_;
    PrivacyNoiseSource noise_;
    std::string owner_;
    std::shared_ptr<Accountant> accountant_;
    std::unique_ptr<Accountant> empty_accountant_;  // before any charge: privacy over the run composes again
    std::unique_ptr<LifetimeLedger> lifetime_;
    std::unique_ptr<LedgerGate> gate_;
    std::unique_ptr<PrivacyLedger> ledger_;
    SerialEvaluator evaluator_;
    StudyJournal journal_;
    RunObserver observer_;
    std::unique_ptr<RunContext> context_;

    // The turns: the caller waits while algorithm_turn_, the algorithm while not.
    std::mutex mutex_;
    std::condition_variable turn_changed_;
    bool algorithm_turn_ = false;
    bool abandoned_ = false;
    bool ended_ = false;  // written by the algorithm's thread before it hands the turn back
    std::exception_ptr error_;
    std::optional<RunResult> result_;
    std::string refusal_;  // a BudgetExceeded's message
    json finished_;
    std::thread thread_;
};

StudyState Study::replay(std::optional<std::size_t> hand_out) {
    if (!load_all_) return replay_once(hand_out);
    try {
        return replay_once(hand_out);
    } catch (const ValidationError&) {
        // A module the loaded plugin files lack (nothing was written: the replay rolled back).
        load_all_();
        load_all_ = nullptr;
        return replay_once(hand_out);
    }
}

StudyState Study::replay_once(std::optional<std::size_t> hand_out) {
    JournalStore::Transaction transaction(*store_);
    try {
        if (!live_) live_ = std::make_unique<Live>(*this);
        live_->advance();
        StudyState state = live_->state(hand_out);
        transaction.commit();
        return state;
    } catch (...) {
        // What the run did in this call is rolled back with the transaction; the next call replays
        // the file from the start.
        live_.reset();
        throw;
    }
}

StudyState Study::extend(const std::map<std::string, std::string>& algorithm,
                         const std::optional<PrivacyBudget>& budget) {
    JobSpec extended = spec_;
    for (const auto& [key, value] : algorithm) extended.algorithm.parameters[key] = value;
    if (budget) extended.budget = budget;
    const json described = describe_job(registry_, extended);  // names and values checked first
    std::vector<std::string> changes;
    for (const auto& [key, value] : algorithm) changes.push_back(fmt::format("algorithm.{}={}", key, value));
    if (budget) changes.push_back(fmt::format("--budget {}", budget->text()));
    const std::string study = store_->file().string();
    const std::string what =
        changes.empty() ? std::string("nothing changed") : fmt::format("{}", fmt::join(changes, ", "));

    JournalStore::Transaction transaction(*store_);
    // Until the extension is kept, the study is put back as it was (the transaction rolls the file back).
    struct Undo {
        Study& study;
        JobSpec spec;
        json job;
        bool kept = false;
        ~Undo() {
            if (kept) return;
            study.live_.reset();
            study.spec_ = std::move(spec);
            study.job_ = std::move(job);
        }
    } undo{*this, spec_, job_};
    live_.reset();
    spec_ = extended;
    job_ = described;
    StudyState state;
    try {
        store_->set_meta("spec", spec_json(extended).dump());
        store_->set_meta("job", described.dump());
        live_ = std::make_unique<Live>(*this);
        live_->advance();
        state = live_->state(std::nullopt);
    } catch (const ValidationError& e) {
        // The replay's own words, without its guess that the file was altered: here the job was.
        std::string reason = e.what();
        constexpr std::string_view kAltered = "since it was created: ";
        if (const auto at = reason.find(kAltered); at != std::string::npos)
            reason = reason.substr(at + kAltered.size());
        throw ValidationError(fmt::format(
            "study '{}' cannot be extended with {}: the job so changed does not replay what the study recorded, so "
            "the algorithm's earlier steps depend on it ({}); nothing was changed",
            study, what, reason));
    }
    if (state.finished && live_->batches_asked() < store_->batch_count())
        throw ValidationError(fmt::format(
            "study '{}' cannot be extended with {}: the job so changed ends after {} batch(es), and the study has "
            "recorded {}",
            study, what, live_->batches_asked(), store_->batch_count()));
    transaction.commit();
    undo.kept = true;
    return state;
}

StudyState Study::ask(std::size_t count) { return replay(count); }

StudyState Study::show() { return replay(std::nullopt); }

StoredTrial Study::trial_to_tell(std::int64_t id) const {
    const std::optional<StoredTrial> trial = store_->trial(id);
    const std::string study = store_->file().string();
    if (!trial)
        throw ValidationError(
            fmt::format("study '{}' has no trial {} ({} trial(s) so far)", study, id, store_->trials().size()));
    switch (trial->state) {
        case TrialState::Running:
            return *trial;
        case TrialState::Done:
            throw ValidationError(
                fmt::format("trial {} of study '{}' was told already; a trial is told once (its values "
                            "are kept)",
                            id, study));
        case TrialState::Failed:
            throw ValidationError(
                fmt::format("trial {} of study '{}' was reported failed ({}); its point is handed out "
                            "again as a new trial",
                            id, study, trial->failure));
        case TrialState::Waiting:
            break;
    }
    throw ValidationError(
        fmt::format("trial {} of study '{}' has not been handed out yet; 'dpbo ask' hands out trials", id, study));
}

void Study::tell(std::int64_t id, const ToldValues& told) {
    JournalStore::Transaction transaction(*store_);
    const StoredTrial trial = trial_to_tell(id);
    const StoredBatch batch = *store_->batch(trial.batch);
    const std::vector<Output> outputs = objective_->outputs();
    const std::vector<AuxiliaryOutput> auxiliary = objective_->auxiliary_outputs();
    const std::string who = fmt::format("trial {} of study '{}'", id, store_->file().string());

    Evaluations e;
    e.points = trial.point;
    e.values = told.values;
    e.per_record = told.per_record;
    e.auxiliary.set_size(auxiliary.empty() ? 0 : 1, auxiliary.size());
    e.auxiliary.fill(arma::datum::nan);
    if (e.values.is_empty() && !told.named.empty()) {
        e.values.set_size(1, outputs.size());
        e.values.fill(arma::datum::nan);
    }
    for (const auto& [name, value] : told.named) {
        bool found = false;
        for (std::size_t k = 0; k < outputs.size(); ++k)
            if (outputs[k].name == name) e.values(0, k) = value, found = true;
        for (std::size_t a = 0; a < auxiliary.size(); ++a)
            if (auxiliary[a].name == name) e.auxiliary(0, a) = value, found = true;
        if (!found) {
            std::string names;
            for (const Output& o : outputs) names += (names.empty() ? "" : ", ") + o.name;
            for (const AuxiliaryOutput& a : auxiliary) names += ", " + a.name;
            throw ValidationError(
                fmt::format("{}: the objective has no output '{}'; its outputs are {}", who, name, names));
        }
    }
    if (batch.per_record && told.per_record.is_empty())
        throw ValidationError(
            fmt::format("{}: the algorithm asked for per-record values ({} of them); tell them with "
                        "--per-record FILE",
                        who, record_count(*objective_)));
    if (e.values.is_empty() && outputs.size() == 1 && !told.per_record.is_empty())
        e.values = arma::mat{arma::mean(told.per_record)};
    if (e.values.is_empty())
        throw ValidationError(
            fmt::format("{}: no value told; expected {} value(s), one per output", who, outputs.size()));
    // A study whose objective's trials are private learners is told what each trial spent; the
    // study's statement composes them (the evaluator charges them when the batch is replayed).
    const bool private_trials = capability<PrivateTrials>(*objective_) != nullptr;
    if (!private_trials && !told.events.empty())
        throw ValidationError(fmt::format(
            "{}: --event given, but the study's objective does not declare trials that are private learners "
            "(PrivateTrials); its trials spend nothing dpbo could charge",
            who));
    if (private_trials && told.events.empty())
        throw ValidationError(
            fmt::format("{}: the study's trials are private learners; tell what this trial spent with --event TEXT "
                        "(one per event, e.g. --event subsampled-gaussian:q=0.01,sigma=1.1,sampling=poisson,steps=100)",
                        who));
    if (private_trials) {
        e.trial_events.emplace_back();
        for (const std::string& text : told.events) {
            try {
                e.trial_events.back().push_back(parse_builtin_event(text));
            } catch (const ValidationError& error) {
                throw ValidationError(fmt::format("{}: --event '{}': {}", who, text, error.what()));
            }
        }
    }
    EvaluationRequest request;
    request.per_record = batch.per_record;
    try {
        check_evaluation_contract(*objective_, e.points, request, e);
    } catch (const RunError& error) {
        throw ValidationError(fmt::format("{}: {}", who, error.what()));
    }
    if (private_trials) {
        nlohmann::json texts = nlohmann::json::array();
        for (const PrivacyEvent& event : e.trial_events.front()) texts.push_back(event_text(event));
        store_->set_trial_events(trial.batch, trial.position, texts.dump());
    }
    store_->mark_done(id, e.values.row(0), batch.per_record ? arma::rowvec(e.per_record.row(0)) : arma::rowvec(),
                      e.auxiliary.is_empty() ? arma::rowvec() : arma::rowvec(e.auxiliary.row(0)));
    transaction.commit();
}

std::int64_t Study::fail(std::int64_t id, const std::string& reason) {
    JournalStore::Transaction transaction(*store_);
    trial_to_tell(id);
    const std::int64_t retry = store_->mark_failed(id, reason.empty() ? "no reason given" : reason);
    transaction.commit();
    return retry;
}

}  // namespace dpbo
