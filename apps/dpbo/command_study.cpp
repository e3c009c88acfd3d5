// dpbo study create|show, dpbo ask, dpbo tell: ask/tell studies (dpbo/host/study.hpp). Each call is
// one short process working on the study file, so any language that can run a command is a client.
#include <unistd.h>

#include <chrono>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/study.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "job_options.hpp"
#include "ledger_option.hpp"
#include "study_access.hpp"
#include "study_keeper.hpp"

namespace dpbo::cli {

namespace fs = std::filesystem;

namespace {

json point_json(const arma::rowvec& point) {
    json out = json::array();
    for (double x : point) out.push_back(x);
    return out;
}

}  // namespace

json trial_json(const StoredTrial& trial) {
    json out{{"id", trial.id},
             {"batch", trial.batch + 1},
             {"state", to_string(trial.state)},
             {"point", point_json(trial.point)}};
    if (trial.state == TrialState::Done) {
        out["values"] = point_json(trial.values);
        if (!trial.auxiliary.is_empty()) out["auxiliary"] = point_json(trial.auxiliary);
        if (!trial.per_record.is_empty()) out["per_record_count"] = trial.per_record.n_elem;
    }
    if (trial.state == TrialState::Failed) out["failure"] = trial.failure;
    return out;
}

std::shared_ptr<Study> open_study(PluginRegistry& registry, const std::string& file, const CommonOptions& common) {
    if (Study* kept = kept_study(file)) return std::shared_ptr<Study>(kept, [](Study*) {});
    // `common` by value: the study may call this after the caller's options are gone (the Python package).
    auto study = std::make_shared<Study>(registry, file, [&registry, common] { load_plugins(registry, common); });
    const std::vector<fs::path> files = study->plugin_files();
    if (files.empty()) load_plugins(registry, common);
    const json manifests = study->plugin_manifests();
    if (manifests.is_object())
        registry.load_files(files, nlohmann::json(manifests));
    else
        registry.load_files(files);
    return study;
}

namespace {

json names_json(const Study& study) {
    json names = json::array();
    for (const std::string& name : study.objective().space().names()) names.push_back(name);
    return names;
}

// `file`: the study as the command was given it (a keeper is given the canonical path).
json state_json(const std::string& file, const Study& study, const StudyState& state) {
    json out{{"study", file}, {"finished", state.finished}};
    if (state.finished) {
        out["result"] = state.result;
        return out;
    }
    json trials = json::array();
    for (const StoredTrial& trial : state.handed) {
        trials.push_back({{"id", trial.id}, {"point", point_json(trial.point)}, {"per_record", state.per_record}});
    }
    out["names"] = names_json(study);
    out["trials"] = trials;
    out["waiting_for"] = state.waiting_for;
    return out;
}

// What a study command's --help prints besides its options.
struct StudyHelp {
    std::string_view synopsis;
    std::string_view about;
};

// Parses a study command's arguments, `positionals` taking the bare words in order (the study file
// first), after taking its --ROLE MODULE options when `roles` is given; nothing when --help asked for
// the options, which are then printed.
std::optional<po::variables_map> parse_study_command(const std::vector<std::string>& arguments,
                                                     po::options_description& described, CommonOptions& common,
                                                     std::initializer_list<const char*> positionals,
                                                     const StudyHelp& help, JobOptions* roles = nullptr) {
    // The common options first: role options are whatever --NAME the described options do not know,
    // and --help is not a role.
    described.add(common_options(common));
    po::positional_options_description positional;
    for (const char* name : positionals) positional.add(name, 1);
    po::variables_map given = parse_command(
        roles != nullptr ? take_role_options(arguments, described, *roles) : arguments, described, &positional);
    if (!common.help) return given;
    print_help(help.synopsis, described, help.about);
    return std::nullopt;
}

// Prints a keeper's answer as the command would have printed it.
int print_answer(const CapturedCommand& answer) {
    std::cout << answer.out << std::flush;
    std::cerr << answer.err << std::flush;
    return answer.status;
}

// The study's path as the keeper knows it.
std::string canonical_text(const std::string& file) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(file, ec);
    return ec ? file : canonical.string();
}

std::string one_positional(const po::variables_map& given, const char* what) {
    if (!given.count("study")) throw ValidationError(fmt::format("{}: name the study file", what));
    return given["study"].as<std::string>();
}

int study_create(const std::vector<std::string>& arguments) {
    CommonOptions common;
    JobOptions options;
    std::string file, space, ledger_text;
    po::options_description described("options");
    add_module_options(described, options);
    add_ledger_option(described, ledger_text);
    described.add_options()("study", po::value(&file), "the study file to create (SQLite)")(
        "space", po::value(&space),
        "the objective's declaration as a dpbo-objective spec file (space, outputs, records; README 'Objectives in any "
        "language'): the study's clients compute it, dpbo never runs it")(
        "seed", po::value(&options.seed_text), "reproducible: the study is then the run 'dpbo run --seed' makes")(
        "budget", po::value(&options.budget), "privacy budget, as for dpbo run");
    const auto parsed = parse_study_command(
        arguments, described, common, {"study"},
        {"dpbo study create FILE --algorithm A (--objective O | --space SPEC.json) [--ROLE MODULE ...] [options]",
         kRoleOptionHelp},
        &options);
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "study create");
    JobSpec job = job_settings(options, given);
    if (!space.empty()) {
        if (!options.objective.empty())
            throw ValidationError(fmt::format(
                "--objective {} with --space {}: --space declares the objective; give one", options.objective, space));
        // Checked here to name the option given; the objective then reads the file as its spec.
        const bounded_input::Input declared{fmt::format("--space '{}'", space),
                                            "a dpbo-objective spec file (the handshake as JSON)",
                                            bounded_input::kShortFileBytes};
        if (bounded_input::InputFile(space, declared).size() > declared.max_bytes)
            throw ValidationError(bounded_input::too_long(declared));
        options.objective = "command";
        job.objective.parameters["spec"] = space;
        job.objective.parameters["mode"] = "one-shot";
        job.objective.parameters["command"] = "(none: an ask/tell study's clients compute the objective)";
    }
    if (options.algorithm.empty() || options.objective.empty())
        throw ValidationError(fmt::format("study create needs --algorithm and --objective or --space (missing: --{})",
                                          options.algorithm.empty() ? "algorithm" : "objective"));
    job.algorithm.name = options.algorithm;
    job.objective.name = options.objective;
    name_roles(job, options);
    job.seed = given_seed(options);
    if (options.given("budget")) job.budget = PrivacyBudget::parse(options.budget);
    job.ledger = read_ledger_option(given, ledger_text);

    PluginRegistry registry;
    load_plugins(registry, common);
    Study::create(registry, file, job);
    Study study(registry, file);
    const StudyState state = study.show();
    json out{{"study", file}, {"job", study.job()}, {"names", names_json(study)}, {"outputs", json::array()}};
    for (const Output& o : study.objective().outputs())
        out["outputs"].push_back({{"name", o.name}, {"sense", to_string(o.sense)}});
    out["records"] = record_count(study.objective());
    out["first_batch_trials"] = study.trials().size();
    if (common.json) {
        print_json(out);
    } else {
        std::cout << fmt::format("study {} created: {} on {}; 'dpbo ask {}' hands out its trials\n", file,
                                 job.algorithm.name, job.objective.name, file);
    }
    return kSuccess;
}

int study_show(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string file;
    po::options_description described("options");
    described.add_options()("study", po::value(&file), "the study file");
    const auto parsed = parse_study_command(arguments, described, common, {"study"},
                                            {"dpbo study show FILE [--json]",
                                             "The study's trials, their states and values, the best "
                                             "value told, the privacy spent and, once finished, the "
                                             "result."});
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "study show");
    if (kept_study(file) == nullptr) {
        std::vector<std::string> words{"study", "show", canonical_text(file)};
        if (common.json) words.emplace_back("--json");
        if (const auto answer = ask_keeper(file, words)) return print_answer(*answer);
    }
    PluginRegistry registry;
    const std::shared_ptr<Study> opened = open_study(registry, file, common);
    Study& study = *opened;
    const StudyState state = study.show();
    const std::vector<StoredTrial> trials = study.trials();
    const std::vector<Output> outputs = study.objective().outputs();

    // The best told value, by the first output's sense: the clients' own figure, not a release.
    std::optional<StoredTrial> best;
    const bool minimise = outputs.front().sense == Sense::Minimise;
    for (const StoredTrial& t : trials) {
        if (t.state != TrialState::Done || outputs.size() != 1) continue;
        if (!best || (minimise ? t.values(0) < best->values(0) : t.values(0) > best->values(0))) best = t;
    }
    std::map<std::string, std::size_t> counts = {{"waiting", 0}, {"running", 0}, {"done", 0}, {"failed", 0}};
    for (const StoredTrial& t : trials) ++counts[to_string(t.state)];

    json out{{"study", file},
             {"job", study.job()},
             {"names", names_json(study)},
             {"finished", state.finished},
             {"batches", state.batches},
             {"counts", counts},
             {"privacy_spent", state.privacy_so_far}};
    out["best_told"] = best ? json{{"trial", trial_json(*best)},
                                   {"evaluation_only", true},
                                   {"note", "the best value a client told: computed from the data, not released"}}
                            : json(nullptr);
    json listed = json::array();
    for (const StoredTrial& t : trials) listed.push_back(trial_json(t));
    out["trials"] = listed;
    if (state.finished) out["result"] = state.result;
    if (!study.ledger_file().empty())
        out["lifetime_ledger"] = {{"file", study.ledger_file().string()}, {"run", study.ledger_run()}};
    if (common.json) {
        print_json(out);
        return kSuccess;
    }
    std::cout << fmt::format("study {}: {} on {}\n", file, study.job()["algorithm"]["name"].get<std::string>(),
                             study.job()["objective"]["name"].get<std::string>());
    std::cout << fmt::format("  trials: {} done, {} running, {} waiting, {} failed; {} batch(es)\n", counts["done"],
                             counts["running"], counts["waiting"], counts["failed"], state.batches);
    if (best)
        std::cout << fmt::format("  best told (evaluation only): trial {} value {:.6g}\n", best->id, best->values(0));
    std::cout << fmt::format("  privacy spent: {}\n", state.privacy_so_far.is_null()
                                                          ? std::string("nothing released privately yet")
                                                          : state.privacy_so_far["headline"].get<std::string>());
    if (!study.ledger_file().empty())
        std::cout << fmt::format("  lifetime ledger: {} (the study's token there: {})\n", study.ledger_file().string(),
                                 study.ledger_run());
    if (state.finished) std::cout << "  finished; result:\n" << state.result.dump(2) << "\n";
    return kSuccess;
}

int study_extend(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string file, budget_text;
    std::vector<std::string> settings;
    po::options_description described("options");
    described.add_options()("study", po::value(&file), "the study file")(
        "set", po::value(&settings)->composing(),
        "algorithm.KEY=VALUE: a larger algorithm.budget, algorithm.iterations, ... (repeatable)")(
        "budget", po::value(&budget_text), "a larger privacy budget, as for dpbo run");
    const auto parsed = parse_study_command(
        arguments, described, common, {"study"},
        {"dpbo study extend FILE (--set algorithm.KEY=VALUE ... | --budget B)",
         "Gives a study, finished or not, more budget: it goes on in the same file, what was told and released "
         "stays and is replayed, and only new releases are charged. Refused, changing nothing, when the job so "
         "changed does not replay what the study recorded (an algorithm whose earlier steps depend on the setting, "
         "as DP-GIBO's noise depends on its iterations)."});
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "study extend");
    std::map<std::string, std::string> algorithm;
    for (const std::string& setting : settings) {
        constexpr std::string_view kPrefix = "algorithm.";
        const std::size_t eq = setting.find('=');
        if (setting.rfind(kPrefix, 0) != 0 || eq == std::string::npos || eq == kPrefix.size())
            throw ValidationError(
                fmt::format("--set '{}': expected algorithm.KEY=VALUE (a study is extended through "
                            "its algorithm's settings and its privacy budget)",
                            setting));
        algorithm[setting.substr(kPrefix.size(), eq - kPrefix.size())] = setting.substr(eq + 1);
    }
    std::optional<PrivacyBudget> budget;
    if (given.count("budget")) budget = PrivacyBudget::parse(budget_text);
    if (algorithm.empty() && !budget) throw ValidationError("study extend: give --set algorithm.KEY=VALUE or --budget");
    PluginRegistry registry;
    const std::shared_ptr<Study> study = open_study(registry, file, common);
    const StudyState state = study->extend(algorithm, budget);
    if (common.json) {
        print_json({{"study", file},
                    {"job", study->job()},
                    {"finished", state.finished},
                    {"batches", state.batches},
                    {"privacy_spent", state.privacy_so_far}});
    } else {
        std::cout << fmt::format(
            "study {} extended: {}\n", file,
            state.finished ? "it is still finished (nothing more to ask)" : "'dpbo ask' hands out its next trials");
    }
    return kSuccess;
}

int study_serve(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string file, idle_text = "600";
    po::options_description described("options");
    described.add_options()("study", po::value(&file), "the study file")(
        "idle", po::value(&idle_text), "end after SECONDS without a request (default 600)");
    const auto parsed = parse_study_command(
        arguments, described, common, {"study"},
        {"dpbo study serve FILE [--idle SECONDS]",
         "Keeps the study open in this process, its algorithm alive between asks, and answers the 'dpbo ask' and "
         "'dpbo study show' of clients on this machine through the socket FILE.keeper: an ask then costs one step "
         "of the algorithm instead of a replay of the study. Without a keeper, clients replay the study themselves; "
         "both are the same run."});
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "study serve");
    const double idle = parse_finite_number(idle_text, "--idle");
    if (idle <= 0.0) throw ValidationError(fmt::format("--idle {}: expected a number of seconds > 0", idle_text));
    PluginRegistry registry;
    const std::shared_ptr<Study> study = open_study(registry, file, common);
    study->show();  // the run brought up to where it waits, before the first client asks
    return serve_study(*study, idle);
}

constexpr Command kStudySubcommands[] = {
    {.name = "create",
     .summary = "a new study file: a job as for 'dpbo run', whose clients evaluate it through 'dpbo ask' and "
                "'dpbo tell'",
     .run = &study_create},
    {.name = "show", .summary = "a study's trials, the best value told, the privacy spent", .run = &study_show},
    {.name = "extend",
     .summary = "give a study more budget (algorithm.budget, iterations, the privacy budget): it goes on in the same "
                "file",
     .run = &study_extend},
    {.name = "serve",
     .summary = "keep a study open for this machine's clients: each ask costs one step of its algorithm, not a replay",
     .run = &study_serve},
};
DPBO_CHECK_COMMAND_TABLE(kStudySubcommands);

}  // namespace

std::span<const Command> study_subcommands() { return kStudySubcommands; }

int command_ask(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string file, count_text = "1", wait_text = "0";
    po::options_description described("options");
    described.add_options()("study", po::value(&file), "the study file")(
        "count", po::value(&count_text), "hand out up to N trials of the batch the algorithm waits for (default 1)")(
        "wait", po::value(&wait_text),
        "when every trial of that batch is out with other clients, wait up to SECONDS for one to be told and the "
        "algorithm to ask for more (default 0: answer at once, with \"trials\": [] and \"waiting_for\")");
    const auto parsed = parse_study_command(
        arguments, described, common, {"study"},
        {"dpbo ask FILE [--count N] [--wait SECONDS]",
         "The next trial(s) of the study, as JSON: their ids and points, for the client to evaluate and answer with "
         "'dpbo tell'."});
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "ask");
    const std::uint64_t count = parse_whole_number(count_text, "--count");
    if (count == 0) throw ValidationError("--count 0: expected at least 1 trial");
    const double wait = parse_finite_number(wait_text, "--wait");
    if (wait < 0.0) throw ValidationError(fmt::format("--wait {}: expected a number of seconds ≥ 0", wait_text));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait);
    if (kept_study(file) == nullptr) {
        // A keeper answers at once; the waiting is done here, so that it can answer others meanwhile.
        const std::vector<std::string> words{"ask", canonical_text(file), "--count", std::to_string(count)};
        for (std::optional<CapturedCommand> answer; (answer = ask_keeper(file, words));) {
            const json asked = answer->status == kSuccess ? json::parse(answer->out, nullptr, false) : json();
            const bool nothing_yet = asked.is_object() && !asked.value("finished", true) && asked.contains("trials") &&
                                     asked["trials"].empty();
            if (!nothing_yet || std::chrono::steady_clock::now() >= deadline) return print_answer(*answer);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    PluginRegistry registry;
    const std::shared_ptr<Study> opened = open_study(registry, file, common);
    Study& study = *opened;
    StudyState state = study.ask(static_cast<std::size_t>(count));
    while (!state.finished && state.handed.empty() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        state = study.ask(static_cast<std::size_t>(count));
    }
    print_json(state_json(file, study, state));
    return kSuccess;
}

namespace {

// The text of --per-record: room for formatting, and for each value the longest JSON number (24
// characters) with its separator.
constexpr std::size_t kPerRecordBaseBytes = std::size_t{1} << 20;
constexpr std::size_t kPerRecordBytesPerValue = 32;

arma::rowvec read_numbers(const std::string& text, const std::string& where) {
    json parsed = json::parse(text, nullptr, false);
    if (parsed.is_object() && parsed.contains("per_record")) parsed = parsed["per_record"];
    if (parsed.is_discarded() || !parsed.is_array() || parsed.empty())
        throw ValidationError(fmt::format("{}: expected a JSON array of numbers", where));
    arma::rowvec out(parsed.size());
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        if (!parsed[i].is_number())
            throw ValidationError(fmt::format("{}: entry {} is {}; expected a number", where, i + 1, parsed[i].dump()));
        out(i) = parsed[i].get<double>();
    }
    return out;
}

}  // namespace

int command_tell(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string file, id_text, value_text, values_text, per_record_file, reason;
    std::vector<std::string> named, events;
    bool failed = false;
    po::options_description described("options");
    described.add_options()("study", po::value(&file), "the study file")(
        "id", po::value(&id_text), "the trial's id, as dpbo ask printed it")("value", po::value(&value_text),
                                                                             "the value of a one-output objective")(
        "values", po::value(&values_text), "one value per output, as a JSON array")(
        "output", po::value(&named)->composing(), "NAME=V: an output or auxiliary output by name (repeatable)")(
        "per-record", po::value(&per_record_file),
        "a file holding the per-record values, a JSON array of n numbers (or '-': standard input); with one output "
        "and no --value, the value is their mean")("failed", po::bool_switch(&failed),
                                                   "the trial failed: its point is handed out again as a new trial")(
        "reason", po::value(&reason), "with --failed: why, kept with the trial")(
        "event", po::value(&events)->composing(),
        "TEXT: an event the trial spent, as dpbo account --event reads it (repeatable); required when the study's "
        "trials are private learners, refused otherwise");
    const auto parsed = parse_study_command(
        arguments, described, common, {"study", "id"},
        {"dpbo tell FILE ID (--value V | --values '[V1, V2]' | --output NAME=V ...) [--per-record FILE] "
         "[--event TEXT ...]\n"
         "       dpbo tell FILE ID --failed [--reason TEXT]",
         "Tells the study trial ID's values, as 'dpbo ask' handed it out, or that it failed."});
    if (!parsed) return kSuccess;
    const po::variables_map& given = *parsed;
    file = one_positional(given, "tell");
    if (!given.count("id")) throw ValidationError("tell: name the trial's id after the study file");
    const auto id = static_cast<std::int64_t>(parse_whole_number(id_text, "trial id"));
    // Telling replays nothing: no plugin is needed.
    PluginRegistry registry;
    Study study(registry, file);
    if (failed) {
        if (given.count("value") || given.count("values") || given.count("output") || given.count("per-record") ||
            given.count("event"))
            throw ValidationError("tell --failed takes no values");
        const std::int64_t retry = study.fail(id, reason);
        print_json({{"id", id}, {"state", "failed"}, {"retried_as", retry}});
        return kSuccess;
    }
    if (given.count("reason")) throw ValidationError("--reason goes with --failed");
    ToldValues told;
    if (given.count("value") + given.count("values") > 1) throw ValidationError("give --value or --values, not both");
    if (given.count("value")) told.values = arma::rowvec{parse_finite_number(value_text, "--value")};
    if (given.count("values")) told.values = read_numbers(values_text, "--values");
    for (const std::string& assignment : named) {
        const std::size_t eq = assignment.find('=');
        if (eq == std::string::npos || eq == 0)
            throw ValidationError(fmt::format("--output '{}': expected NAME=VALUE", assignment));
        told.named[assignment.substr(0, eq)] =
            parse_finite_number(assignment.substr(eq + 1), fmt::format("--output {}", assignment.substr(0, eq)));
    }
    if (!told.values.is_empty() && !told.named.empty()) throw ValidationError("give --value(s) or --output, not both");
    if (given.count("per-record")) {
        // The array's length is the study's record count: its text is bounded by that.
        const std::size_t records = record_count(study.objective());
        const bounded_input::Input input{
            per_record_file == "-" ? std::string("--per-record - (standard input)")
                                   : fmt::format("--per-record '{}'", per_record_file),
            fmt::format("a JSON array of the study's {} per-record values ('-' reads standard input)", records),
            kPerRecordBaseBytes + kPerRecordBytesPerValue * records,
            fmt::format("1 MiB plus {} bytes for each of the study's {} records", kPerRecordBytesPerValue, records)};
        const std::string text = per_record_file == "-" ? bounded_input::read_all(STDIN_FILENO, input)
                                                        : bounded_input::read_file(per_record_file, input);
        told.per_record = read_numbers(text, input.name);
    }
    told.events = events;
    study.tell(id, told);
    print_json({{"id", id}, {"state", "done"}});
    return kSuccess;
}

}  // namespace dpbo::cli
