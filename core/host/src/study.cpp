#include "dpbo/host/study.hpp"

#include "dpbo/host/ledger_gate.hpp"
#include "dpbo/host/lifetime_ledger.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

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

// The study's journal: told batches are replayed; a batch not yet told suspends the run, after it
// is recorded as waiting trials the first time it is asked for.
class StudyJournal final : public RunJournal {
public:
    StudyJournal(JournalStore& store, const Objective& objective)
        : store_(store), snapshot_(store), objective_(objective) {}

    std::optional<std::size_t> suspended_at() const { return suspended_; }

    std::optional<Evaluations> recorded_batch(std::size_t index, const arma::mat& points,
                                              const EvaluationRequest& request) override {
        const StoredBatch* batch = snapshot_.batch(index);
        if (batch == nullptr) {
            store_.add_batch(index, points, request.per_record);
            suspend(index);
        }
        return as_told(store_, [&] {
            journal::check_same_batch(store_, *batch, points, request);
            const auto done = snapshot_.done_trials(index);
            if (!done) suspend(index);
            Evaluations e = journal::evaluations_of(*batch, *done, request.per_record);
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
        });
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
    [[noreturn]] void suspend(std::size_t index) {
        suspended_ = index;
        throw RunSuspended(fmt::format("batch {} waits for its values", index + 1));
    }

    JournalStore& store_;
    journal::Snapshot snapshot_;
    const Objective& objective_;
    std::optional<std::size_t> suspended_;
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
    JobModules modules(registry_, spec_);
    JobComponents components = modules.create_components();
    ExperimentRng rng(experiment_seed_);
    // The run's own noise key with a seed, as `dpbo run` (repeat 1) has it; otherwise a fresh one:
    // releases made before are taken from the file, not drawn again.
    PrivacyNoiseSource noise =
        spec_.seed ? PrivacyNoiseSource::from_seed(repeat_seed(*spec_.seed, 0, 2)) : PrivacyNoiseSource::from_os();
    const std::string owner = fmt::format("algorithm '{}'", spec_.algorithm.name);
    std::shared_ptr<Accountant> accountant =
        create_run_accountant(registry_, owner, modules.declared_roles(), components.roles,
                              capability<PrivateTrials>(*objective_) != nullptr);
    std::unique_ptr<LifetimeLedger> lifetime;
    std::unique_ptr<LedgerGate> gate;
    if (!ledger_file_.empty()) {
        lifetime = LifetimeLedger::open(ledger_file_);
        gate = std::make_unique<LedgerGate>(*lifetime, *accountant, ledger_run_,
                                            fmt::format("study {}", store_->file().string()));
    }
    PrivacyLedger ledger(accountant, spec_.budget, noise, owner);
    if (gate) ledger.set_charge_gate(gate.get());
    SerialEvaluator evaluator;
    StudyJournal journal(*store_, *objective_);
    evaluator.attach_journal(&journal);
    evaluator.attach_trial_ledger(&ledger);
    ledger.attach_journal(&journal);
    RunObserver observer;
    RunContext context{*objective_, evaluator, rng, ledger, observer, registry_, std::move(components.roles)};

    StudyState state;
    std::optional<RunResult> result;
    std::string status = "complete";
    try {
        result = call_into_module(components.algorithm->describe_origin(), "running",
                                  [&] { return components.algorithm->run(context); });
    } catch (const RunSuspended&) {
        result.reset();
    } catch (const BudgetExceeded& refusal) {
        status = "refused";
        state.finished = true;
        state.result = {{"status", "refused"}, {"stop_reason", "budget"}, {"why", refusal.what()}};
    }
    if (result) {
        state.finished = true;
        PrivacyStatement statement =
            ledger.statement_for(trial_search_statement(result->privacy, *objective_, evaluator, ledger));
        for (const std::string& assumption : privacy_assumptions(*objective_))
            statement.assumptions.push_back(assumption);
        statement.validate();
        state.result = {{"status", status},
                        {"privacy", run_privacy_json(statement, spec_.seed)},
                        {"released", released_values_json(result->released)},
                        {"evaluation_only", released_values_json(result->evaluation_only)},
                        {"evaluations", result->evaluations},
                        {"stop_reason", result->stop_reason}};
    }
    state.batches = store_->batch_count();
    state.releases = ledger.charges();
    state.privacy_so_far = spent_json(ledger);
    if (const auto waiting = journal.suspended_at(); waiting && !state.finished) {
        state.per_record = store_->batch(*waiting)->per_record;
        for (StoredTrial& trial : store_->trials_of(*waiting)) {
            if (trial.state == TrialState::Running) {
                state.waiting_for.push_back(trial.id);
            } else if (trial.state == TrialState::Waiting && hand_out && state.handed.size() < *hand_out) {
                store_->mark_running(trial.id);
                trial.state = TrialState::Running;
                state.handed.push_back(std::move(trial));
            }
        }
    }
    transaction.commit();
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
