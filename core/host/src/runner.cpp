#include "dpbo/capability.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/host/runner.hpp"

#include <chrono>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/parallel_evaluator.hpp"
#include "dpbo/host/job_modules.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "dpbo/selection.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "dpbo/host/figure_spec_json.hpp"
#include "dpbo/host/output_folder.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/ledger_gate.hpp"
#include "dpbo/host/ledger_watcher.hpp"
#include "dpbo/host/privacy_limits.hpp"
#include "dpbo/host/privacy_over_run.hpp"
#include "dpbo/host/lifetime_ledger.hpp"
#include "dpbo/host/repeat_journal.hpp"
#include "dpbo/host/result_io.hpp"
#include "bounded_input.hpp"
#include "memory_bound.hpp"
#include "trial_statement.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

json to_json(const ParameterValue& value) {
    return std::visit([](const auto& v) { return json(v); }, value);
}

std::string short_value(const arma::mat& m) {
    if (m.n_elem == 1) return fmt::format("{:.6g}", m(0, 0));
    if (m.n_rows == 1 && m.n_cols <= 8) {
        std::string out = "(";
        for (std::size_t j = 0; j < m.n_cols; ++j) out += fmt::format("{}{:.4g}", j ? ", " : "", m(0, j));
        return out + ")";
    }
    return fmt::format("{}×{} matrix (see result.json)", m.n_rows, m.n_cols);
}

struct ResolvedModule {
    const LoadedPlugin* plugin = nullptr;
    ModuleChoice choice;
    json parameters;  // validated, with defaults
};

ResolvedModule resolve(PluginRegistry& registry, ModuleKind kind, const ModuleChoice& choice) {
    ResolvedModule out;
    out.plugin = &registry.require(kind, choice.name);
    out.choice = choice;
    const ParameterSet values = validate_parameters(out.plugin->manifest.schema, choice.parameters,
                                                    fmt::format("{} '{}'", to_string(kind), choice.name));
    out.parameters = json::object();
    for (const auto& [key, value] : values.values()) out.parameters[key] = to_json(value);
    return out;
}

json module_json(const ResolvedModule& m) {
    return {{"name", m.choice.name}, {"version", m.plugin->manifest.version}, {"parameters", m.parameters}};
}

// One repeat's modules: a fresh objective and fresh components, so no state crosses repeats.
struct Modules {
    std::shared_ptr<Objective> objective;
    JobComponents components;
};

}  // namespace

namespace {

// The private release (mechanism, selection or row release) given for `role`, or null for a role of another kind.
std::shared_ptr<const PrivateRelease> private_release_of(const Role& role, const RoleModules& roles) {
    if (!roles.has(role.name)) return nullptr;
    if (role.kind == ModuleKind::Mechanism) return roles.get<Mechanism>(role.name);
    if (role.kind == ModuleKind::Selection) return roles.get<Selection>(role.name);
    if (role.kind == ModuleKind::RowRelease) return roles.get<RowRelease>(role.name);
    return nullptr;
}

}  // namespace

std::shared_ptr<Accountant> create_run_accountant(ModuleFactory& factory, const std::string& owner,
                                                  const std::vector<Role>& declared, const RoleModules& roles,
                                                  bool private_trials) {
    for (const Role& role : declared)
        if (role.kind == ModuleKind::Accountant && roles.has(role.name)) return roles.get<Accountant>(role.name);
    std::optional<AccountantChoice> chosen;
    std::string chosen_by;
    for (const Role& role : declared) {
        const auto release = private_release_of(role, roles);
        if (!release) continue;
        const AccountantChoice wanted = release->accountant();
        if (chosen && chosen->name != wanted.name)
            throw ValidationError(
                fmt::format("{}: the private releases of roles {} and '{}' are composed by "
                            "different accountants ('{}' and '{}'), and the algorithm declares no "
                            "accountant role to compose both",
                            owner, chosen_by, role.name, chosen->name, wanted.name));
        if (!chosen) chosen = wanted, chosen_by = fmt::format("'{}'", role.name);
    }
    if (chosen) return factory.create_as<Accountant>(chosen->name, chosen->parameters);
    return factory.create_as<Accountant>(private_trials ? "rdp" : "gdp", {});
}

namespace {

// The job as written into every result: each module with its validated parameters and defaults.
json describe_modules(PluginRegistry& registry, const JobModules& modules, const JobSpec& spec) {
    json job;
    job["algorithm"] = module_json(resolve(registry, ModuleKind::Algorithm, modules.algorithm()));
    job["objective"] = module_json(resolve(registry, ModuleKind::Objective, modules.objective()));
    // Each role under its own name, in the order the algorithm declares them.
    for (const Role& role : modules.declared_roles())
        if (const auto it = modules.roles().find(role.name); it != modules.roles().end())
            job[role.name] = module_json(resolve(registry, role.kind, it->second));
    job["seed"] = spec.seed ? json(*spec.seed) : json(nullptr);
    // Only when given, so results written before budgets existed still resume.
    if (spec.budget) job["budget"] = spec.budget->text();
    // A randomised objective's values depend on the number of workers (see ParallelEvaluator).
    if (spec.workers > 1) job["workers"] = spec.workers;
    if (spec.distributed) job["mpi_ranks"] = spec.distributed->ranks;
    return job;
}

// Where the repeat's charges went: the lifetime ledger's file, the repeat's token in it and the
// budget; null without one.
json lifetime_json(const LifetimeLedger* lifetime, const std::string& run) {
    if (lifetime == nullptr) return nullptr;
    return {{"file", lifetime->file().string()},
            {"run", run},
            {"budget", lifetime->filter().budget().text()},
            {"filter", lifetime->filter().name()}};
}

// What a repeat refused by its budget spent: the composition of the releases made before the
// refusal, each listed with its event.
PrivacyStatement refused_statement(const PrivacyLedger& ledger) {
    if (ledger.charges() == 0) {
        return PrivacyStatement::not_private({"nothing: the first private release was refused by the budget"},
                                             "the run was stopped before any private release");
    }
    PrivacyStatement statement = ledger.spent();
    const PrivacyStatement scope = ledger.statement_for(statement);
    statement.neighbouring = scope.neighbouring;
    statement.protected_unit = scope.protected_unit;
    for (const LedgerEntry& entry : ledger.log()) statement.released.push_back(entry.event.describe());
    statement.assumptions = scope.assumptions;
    statement.assumptions.push_back(
        "the run was stopped by its budget: only the releases listed were made, and nothing computed from them "
        "after the refusal was released");
    return statement;
}

std::vector<ReleasedValue> logged_releases(const PrivacyLedger& ledger) {
    std::vector<ReleasedValue> out;
    for (std::size_t i = 0; i < ledger.log().size(); ++i) {
        const LedgerEntry& entry = ledger.log()[i];
        out.push_back({fmt::format("release_{}", i + 1), entry.event.describe(), arma::mat(entry.released)});
    }
    return out;
}

// What the report keeps of each repeat until the job ends (its result text, at least a few kB).
constexpr double kBytesPerRepeat = 4096.0;

const JobSpec& checked(const JobSpec& spec) {
    if (spec.repeat == 0) throw ValidationError("--repeat must be at least 1");
    memory::require(
        "job", fmt::format("--repeat {}", spec.repeat), static_cast<double>(spec.repeat) * kBytesPerRepeat,
        fmt::format("each repeat's result is kept until the job ends, {:.0f} bytes at least", kBytesPerRepeat));
    return spec;
}

class Job {
public:
    // JobModules resolves the roles and checks every name, parameter and combination; creating the
    // first repeat's modules here lets the objective check its own parameters before anything runs.
    Job(PluginRegistry& registry, const JobSpec& spec)
        : registry_(registry),
          spec_(checked(spec)),
          modules_(registry, spec),
          job_(describe()),
          probe_(create()),
          folder_(open_folder()) {
        require_finished_when_read_only();
    }

    JobReport run(const ObserverFor& observer_for) {
        JobReport report;
        try {
            for (std::size_t index = 0; index < spec_.repeat; ++index) {
                report.repeats.push_back(run_repeat(index, observer_for(index)));
            }
        } catch (const ValidationError&) {
            // Refused by a module at the start of its run: bad input leaves nothing behind, as the
            // refusals before the folder was opened do.
            if (folder_ && report.repeats.empty()) folder_->abandon();
            throw;
        }
        return report;
    }

private:
    Modules create() const { return {modules_.create_objective(), modules_.create_components()}; }

    // Distributed when the job says so; otherwise serial, or parallel with a replica of the objective
    // per extra worker unless it is thread-safe.
    std::unique_ptr<Evaluator> make_evaluator(const Objective& objective, std::size_t index) const {
        if (spec_.distributed) return spec_.distributed->make_evaluator(index);
        if (spec_.workers <= 1) return std::make_unique<SerialEvaluator>();
        std::vector<std::shared_ptr<Objective>> replicas;
        const bool shared = call_into_module(objective.describe_origin(), "saying whether it is thread-safe",
                                             [&] { return thread_safe(objective); });
        if (!shared)
            for (std::size_t w = 1; w < spec_.workers; ++w) replicas.push_back(modules_.create_objective());
        return std::make_unique<ParallelEvaluator>(spec_.workers, std::move(replicas));
    }

    // The folder's identity covers the job, how many repeats it has and where they go, so a job with
    // another repeat count (and so possibly another layout) is refused rather than mixed in.
    std::unique_ptr<OutputFolder> open_folder() const {
        if (spec_.out_dir.empty()) return nullptr;
        const json identity{{"job", job_},
                            {"repeats", spec_.repeat},
                            {"layout", spec_.repeat == 1 ? "result.json and trace.csv in the folder"
                                                         : "repeat-NNN/result.json and trace.csv, NNN from 001"}};
        return std::make_unique<OutputFolder>(spec_.out_dir, identity.dump());
    }

    json describe() const { return describe_modules(registry_, modules_, spec_); }

    // A folder this user may not write is only read: its results are reported when every repeat has
    // one, and the job is refused, naming the folder, when any has not (it could not be run there).
    void require_finished_when_read_only() const {
        if (!folder_ || !folder_->read_only()) return;
        std::vector<std::string> unfinished;
        for (std::size_t index = 0; index < spec_.repeat; ++index)
            if (!earlier_result(repeat_dir(index) / "result.json", job_, index))
                unfinished.push_back(std::to_string(index + 1));
        if (unfinished.empty()) return;
        const std::string which =
            spec_.repeat == 1
                ? "it holds no result"
                : fmt::format("{} of its {} repeats {} no result (repeat {})", unfinished.size(), spec_.repeat,
                              unfinished.size() == 1 ? "has" : "have", fmt::join(unfinished, ", "));
        throw ValidationError(fmt::format(
            "--out '{}' is read-only ({}) and its job is not finished: {}; nothing was run; make the folder "
            "writable to run the rest, or choose another --out",
            spec_.out_dir.string(), folder_->read_only_reason(), which));
    }

    fs::path repeat_dir(std::size_t index) const {
        if (spec_.out_dir.empty()) return {};
        return spec_.repeat == 1 ? spec_.out_dir : spec_.out_dir / fmt::format("repeat-{:03}", index + 1);
    }

    // A result already on disk for the same job and repeat is kept; one for another job is never
    // overwritten.
    std::optional<json> earlier_result(const fs::path& file, const json& job, std::size_t index) const {
        std::error_code ec;
        if (file.empty() || !fs::exists(file, ec)) return std::nullopt;
        json earlier;
        try {
            earlier = json::parse(bounded_input::read_file(
                file.string(), {fmt::format("'{}'", file.string()), "a dpbo result", bounded_input::kResultFileBytes}));
        } catch (const json::parse_error& e) {
            // The byte offset, not the parser's message: that quotes the file's bytes, which may be binary.
            throw ValidationError(
                fmt::format("'{}' exists but is not a dpbo result (not JSON: parse error at byte {}); remove it or "
                            "choose another --out",
                            file.string(), e.byte));
        }
        if (!earlier.contains("job") || earlier["job"] != job || earlier.value("repeat", json(0)) != json(index + 1))
            throw ValidationError(fmt::format(
                "'{}' holds the result of a different job; choose another --out or remove it", file.string()));
        return earlier;
    }

    RepeatOutcome run_repeat(std::size_t index, RunObserver& observer) {
        RepeatOutcome outcome;
        outcome.index = index;
        const json& job = job_;
        const fs::path dir = repeat_dir(index);
        outcome.result_file = dir.empty() ? fs::path() : dir / "result.json";
        if (auto earlier = earlier_result(outcome.result_file, job, index)) {
            const bool read_only = folder_ && folder_->read_only();
            // A run killed between writing its result and removing its journal left both.
            if (!read_only) remove_journal_files(dir / RepeatJournal::kFileName);
            outcome.resumed = true;
            outcome.json = earlier->dump(2);
            outcome.headline = (*earlier)["privacy"].value("headline", "");
            outcome.summary.emplace_back("status", read_only ? "kept from an earlier run (the folder is read-only: "
                                                               "reported, nothing written)"
                                                             : "kept from an earlier run");
            return outcome;
        }

        Modules modules = index == 0 ? std::move(probe_) : create();
        JobComponents& components = modules.components;
        std::uint64_t experiment_seed = spec_.seed ? repeat_seed(*spec_.seed, index, 1) : os_random_u64();
        // With an output folder — `dpbo run` always has one, results/ALGORITHM-OBJECTIVE-TIME unless
        // --out names it — the repeat keeps a journal, and a journal left by a killed run is resumed
        // (with the seed that run drew, when the job has none).
        std::unique_ptr<RepeatJournal> journal;
        if (!dir.empty()) {
            std::error_code ec;
            fs::create_directories(dir, ec);
            journal =
                std::make_unique<RepeatJournal>(dir / RepeatJournal::kFileName, job.dump(), index + 1, experiment_seed);
            experiment_seed = journal->experiment_seed();
        }
        // A module's crash from here on ends the process (fatal_signal_exit.hpp): say where the run's
        // work is kept, as a module's failure does.
        std::optional<FatalSignalNote> crash_note;
        if (journal) crash_note.emplace(resume_advice(dir));
        ExperimentRng rng(experiment_seed);
        PrivacyNoiseSource noise = spec_.seed ? PrivacyNoiseSource::from_seed(repeat_seed(*spec_.seed, index, 2))
                                              : PrivacyNoiseSource::from_os();
        const std::string algorithm_name = fmt::format("algorithm '{}'", spec_.algorithm.name);
        std::shared_ptr<Accountant> accountant =
            create_run_accountant(registry_, algorithm_name, modules_.declared_roles(), components.roles,
                                  capability<PrivateTrials>(*modules.objective) != nullptr);
        // Empty, for composing the log again release by release once the run is over.
        const std::unique_ptr<Accountant> empty_accountant = accountant->clone();
        // The lifetime ledger prices each charge on a copy of the accountant as it is now, empty.
        std::unique_ptr<LifetimeLedger> lifetime;
        std::unique_ptr<LedgerGate> gate;
        std::string ledger_run;
        if (!spec_.ledger.empty()) {
            if (!journal)
                throw ValidationError(
                    "--ledger needs an output folder: the run's token in the ledger is kept in its "
                    "journal, so that a resumed run is not charged twice");
            lifetime = LifetimeLedger::open(spec_.ledger);
            ledger_run = journal->bind_ledger(spec_.ledger);
            gate = std::make_unique<LedgerGate>(
                *lifetime, *accountant, ledger_run,
                spec_.repeat == 1 ? fmt::format("run {}", dir.string())
                                  : fmt::format("run {} (repeat {})", spec_.out_dir.string(), index + 1));
        } else if (journal) {
            journal->bind_ledger({});
        }
        PrivacyLedger ledger(accountant, spec_.budget, noise, algorithm_name);
        if (gate) ledger.set_charge_gate(gate.get());
        std::unique_ptr<Evaluator> evaluator = make_evaluator(*modules.objective, index);
        evaluator->attach_journal(journal.get());
        evaluator->attach_trial_ledger(&ledger);
        ledger.attach_journal(journal.get());
        RunContext context{*modules.objective,         *evaluator, rng, ledger, observer, registry_,
                           std::move(components.roles)};

        // The key comes from a per-repeat seed derived from --seed; name the user's seed, not the key's.
        const std::string noise_source =
            spec_.seed ? fmt::format(
                             "ChaCha20 keyed from --seed {} (repeat {}); reproducible, not for releasing "
                             "real data",
                             *spec_.seed, index + 1)
                       : noise.describe();
        const auto wall_start = std::chrono::steady_clock::now();
        const double cpu_start = process_cpu_seconds();
        // The observer may read the ledger while the algorithm runs, never after it returns or throws.
        auto* watcher = dynamic_cast<LedgerWatcher*>(&observer);
        if (watcher != nullptr) watcher->watch_ledger(&ledger);
        struct Unwatch {
            LedgerWatcher* watcher;
            ~Unwatch() {
                if (watcher != nullptr) watcher->watch_ledger(nullptr);
            }
        } unwatch{watcher};
        RunResult result;
        try {
            result = call_into_module(components.algorithm->describe_origin(), "running",
                                      [&] { return components.algorithm->run(context); });
        } catch (const BudgetExceeded& refusal) {
            observer.on_finish();
            write_refusal(outcome, dir, job, index, ledger, experiment_seed, noise_source, *modules.objective,
                          lifetime_json(lifetime.get(), ledger_run));
            if (journal) journal->remove();
            throw BudgetExceeded(outcome.result_file.empty()
                                     ? std::string(refusal.what())
                                     : fmt::format("{}; what was released until then is in {}", refusal.what(),
                                                   outcome.result_file.string()));
        } catch (const ValidationError&) {
            // A module refused the job at the start of its run: a fresh journal goes with the folder.
            if (journal && !journal->resumed() && evaluator->batches() == 0 && ledger.charges() == 0) journal->remove();
            throw;
        } catch (const RunError& failure) {
            // A journal the run diverged from says so and names itself; running again would not help.
            if (!journal || journal->diverged()) throw;
            throw RunError(fmt::format("{}\n({})", failure.what(), resume_advice(dir)));
        }
        const double cpu_seconds = process_cpu_seconds() - cpu_start;
        const double wall_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        observer.on_finish();

        // Figures the objective computes from its data for judging runs (e.g. the loss at the true
        // parameters) go where every unprivatised figure goes.
        std::vector<ReleasedValue> references =
            call_into_module(modules.objective->describe_origin(), "computing its reference values",
                             [&] { return reference_values(*modules.objective); });
        for (ReleasedValue& reference : references) {
            reference.name = "objective_" + reference.name;
            result.evaluation_only.push_back(std::move(reference));
        }
        try {
            result.privacy =
                ledger.statement_for(trial_search_statement(result.privacy, *modules.objective, *evaluator, ledger));
            const std::vector<std::string> assumptions =
                call_into_module(modules.objective->describe_origin(), "stating its privacy assumptions",
                                 [&] { return privacy_assumptions(*modules.objective); });
            result.privacy.assumptions.insert(result.privacy.assumptions.end(), assumptions.begin(), assumptions.end());
            add_privacy_limits(result.privacy, *modules.objective);
            result.privacy.validate();
        } catch (const ValidationError& e) {
            throw RunError(fmt::format("algorithm '{}' produced an invalid privacy statement: {}", spec_.algorithm.name,
                                       e.what()));
        }
        if (result.released.empty())
            throw RunError(fmt::format("algorithm '{}' released nothing", spec_.algorithm.name));

        json out = result_head(job, index, result.privacy, result.released);
        out["evaluation_only"] = released_values_json(result.evaluation_only);
        out["evaluation_only_note"] =
            "computed from the data without privatisation, to judge the run; not part of the release (nor are the "
            "run's timings, which depend on the data through the objective's cost)";
        add_provenance(out, experiment_seed, noise_source, *modules.objective);
        out["evaluations"] = result.evaluations;
        // Trials that are private learners, composed one by one: each one's events, to compose again.
        if (const auto trials = charged_trial_events(ledger); !trials.empty()) out["trial_events"] = trials;
        if (json over_run = privacy_over_run_json(ledger.log(), *empty_accountant, result.released);
            !over_run.is_null())
            out["privacy_over_run"] = std::move(over_run);
        out["stop_reason"] = result.stop_reason;
        if (lifetime) out["lifetime_ledger"] = lifetime_json(lifetime.get(), ledger_run);
        out["timing"] = {{"wall_seconds", wall_seconds}, {"cpu_seconds", cpu_seconds}, {"evaluation_only", true}};
        json columns = json::array();
        for (const auto& c : result.trace.columns())
            columns.push_back({{"name", c.name}, {"evaluation_only", c.evaluation_only}});
        out["trace"] = {{"file", "trace.csv"}, {"rows", result.trace.rows().size()}, {"columns", columns}};
        if (!result.files.empty()) {
            json files = json::array();
            for (const ResultFile& file : result.files) {
                check_result_file_name(file.name);
                files.push_back({{"file", file.name}, {"holds", file.description}});
            }
            out["files"] = files;
        }
        // Last, and only when declared: results of algorithms without figures stay as they were.
        if (!result.figures.empty()) {
            try {
                out["figures"] = figures_json(result.figures);
            } catch (const ValidationError& e) {
                throw RunError(fmt::format("algorithm '{}' declared a figure the report could not draw: {}",
                                           spec_.algorithm.name, e.what()));
            }
        }
        outcome.json = out.dump(2);

        if (!dir.empty()) {
            // The algorithm's files and the trace first, the result last: a result.json on disk
            // means the repeat is complete.
            for (const ResultFile& file : result.files) write_file_atomically(dir / file.name, file.content);
            write_file_atomically(dir / "trace.csv", trace_to_csv(result.trace));
            write_file_atomically(outcome.result_file, outcome.json + "\n");
            journal->remove();
        }
        if (journal && journal->resumed())
            outcome.summary.emplace_back("resumed",
                                         fmt::format("from its journal: {} batch(es) and {} release(s) "
                                                     "replayed, not made again",
                                                     journal->recorded_batches(), journal->recorded_releases()));

        outcome.headline = out["privacy"]["headline"].get<std::string>();
        outcome.privacy_description = run_privacy_text(result.privacy, spec_.seed);
        for (const auto& v : result.released) outcome.summary.emplace_back(v.name, short_value(v.value));
        for (const auto& v : result.evaluation_only)
            outcome.summary.emplace_back(v.name + " (evaluation only)", short_value(v.value));
        outcome.summary.emplace_back("evaluations", std::to_string(result.evaluations));
        outcome.summary.emplace_back("time (evaluation only)",
                                     fmt::format("{:.3f} s wall, {:.3f} s CPU", wall_seconds, cpu_seconds));
        outcome.summary.emplace_back("privacy noise", noise_source);
        if (gate)
            outcome.summary.emplace_back(
                "lifetime ledger", fmt::format("{}: {} release(s) charged now, {} recognised from before (budget {})",
                                               lifetime->file().string(), gate->counted(), gate->recognised(),
                                               lifetime->filter().budget().text()));
        return outcome;
    }

    // Where a stopped repeat's work is and how to resume it. The same command resumes it only when it
    // names the folder: without --out it would write into a new one.
    std::string resume_advice(const fs::path& dir) const {
        return fmt::format("everything the run did until then is in {}: run the same command again{} to resume it",
                           (dir / RepeatJournal::kFileName).string(),
                           spec_.out_dir_is_default ? fmt::format(" with --out {}", spec_.out_dir.string()) : "");
    }

    // An algorithm's extra file goes beside result.json, never elsewhere nor over the host's files.
    void check_result_file_name(const std::string& name) const {
        const bool plain = !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
                           name.find('\0') == std::string::npos && name.front() != '.';
        const bool reserved = name == "result.json" || name == "trace.csv" || name == OutputFolder::kRecordName ||
                              name == OutputFolder::kLockName || name.rfind(RepeatJournal::kFileName, 0) == 0 ||
                              name.rfind("repeat-", 0) == 0;
        if (!plain || reserved)
            throw RunError(
                fmt::format("algorithm '{}' asked to write a result file named '{}'; expected a plain file "
                            "name that is not one of dpbo's own (result.json, trace.csv, {}, {}, {}*, repeat-*)",
                            spec_.algorithm.name, name, OutputFolder::kRecordName, OutputFolder::kLockName,
                            RepeatJournal::kFileName));
    }

    // What every result.json starts with: the job, the repeat, the statement, the released values.
    json result_head(const json& job, std::size_t index, const PrivacyStatement& privacy,
                     const std::vector<ReleasedValue>& released) const {
        json out;
        out["dpbo_version"] = DPBO_VERSION;
        out["job"] = job;
        out["repeat"] = index + 1;
        out["privacy"] = run_privacy_json(privacy, spec_.seed);
        out["released"] = released_values_json(released);
        return out;
    }

    // Where the randomness came from and what the objective is.
    void add_provenance(json& out, std::uint64_t experiment_seed, const std::string& noise_source,
                        const Objective& objective) const {
        out["randomness"] = {{"experiment_seed", experiment_seed},
                             {"experiment_seed_source", spec_.seed ? "derived from --seed" : "operating system CSPRNG"},
                             {"privacy_noise", noise_source},
                             {"reproducible", spec_.seed.has_value()}};
        out["objective"] = call_into_module(objective.describe_origin(), "describing itself", [&] {
            json outputs = json::array();
            for (const Output& output : objective.outputs())
                outputs.push_back({{"name", output.name}, {"sense", to_string(output.sense)}});
            return json{{"sense", to_string(objective.sense())},
                        {"outputs", outputs},
                        {"data", data_description(objective)},
                        {"records", record_count(objective)},
                        {"dimensions", search_space_dimensions_json(objective.space())}};
        });
    }

    // A repeat refused by the budget still leaves a record: what it released (the ledger's log) and
    // what that spent. No trace: the run stopped inside an iteration.
    void write_refusal(RepeatOutcome& outcome, const fs::path& dir, const json& job, std::size_t index,
                       const PrivacyLedger& ledger, std::uint64_t experiment_seed, const std::string& noise_source,
                       const Objective& objective, const json& lifetime) const {
        PrivacyStatement statement = refused_statement(ledger);
        add_privacy_limits(statement, objective);
        json out = result_head(job, index, statement, logged_releases(ledger));
        add_provenance(out, experiment_seed, noise_source, objective);
        out["status"] = "refused";
        out["stop_reason"] = "budget";
        // Refused by the run's own budget or by the dataset's lifetime ledger (then the ledger says so).
        out["budget"] = {{"stated", spec_.budget ? json(spec_.budget->text()) : json(nullptr)},
                         {"describes", spec_.budget ? json(spec_.budget->describe()) : json(nullptr)},
                         {"releases_made", ledger.charges()}};
        if (!lifetime.is_null()) out["lifetime_ledger"] = lifetime;
        out["trace"] = nullptr;
        outcome.json = out.dump(2);
        if (!dir.empty()) write_file_atomically(outcome.result_file, outcome.json + "\n");
    }

    PluginRegistry& registry_;
    const JobSpec& spec_;
    JobModules modules_;
    json job_;
    Modules probe_;
    std::unique_ptr<OutputFolder> folder_;  // held (and so locked) until the job ends
};

}  // namespace

json describe_job(PluginRegistry& registry, const JobSpec& job) {
    return describe_modules(registry, JobModules(registry, job), job);
}

std::uint64_t repeat_seed(std::uint64_t seed, std::size_t index, std::uint64_t stream) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1) + stream * 0xD1B54A32D192ED03ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

JobReport run_job(PluginRegistry& registry, const JobSpec& job, const ObserverFor& observer_for) {
    Job prepared(registry, job);
    return prepared.run(observer_for);
}

}  // namespace dpbo
