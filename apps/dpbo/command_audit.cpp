// dpbo audit: tries to disprove a privacy claim from the releases alone, as an independent auditor
// would. A mechanism is released on two neighbouring inputs, or an algorithm is run on a dataset and
// on a neighbour of it (the objective's neighbour switch), many times each with fresh privacy noise;
// distinguishing events learnt on half the releases are evaluated on the other half, and the
// resulting empirical lower bound on ε (and μ) is set against the claim (audit/*.hpp).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "audit/audit_claim.hpp"
#include "audit/audit_statistics.hpp"
#include "audit/release_samples.hpp"
#include "audit/row_release_samples.hpp"
#include "audit/run_ledgers.hpp"
#include "audit/score_worlds.hpp"
#include "cli.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "dpbo/selection.hpp"
#include "job_options.hpp"

namespace dpbo::cli {

namespace {

constexpr std::size_t kMechanismRuns = 100000;
constexpr std::size_t kAlgorithmRuns = 4000;
constexpr std::size_t kRowReleaseRuns = 20000;
constexpr const char* kMechanismNeighbouring = "query answers x and x + Δ, Δ the stated sensitivity";
constexpr const char* kMechanismUnit = "one answer of a query of sensitivity Δ";
constexpr const char* kSelectionNeighbouring =
    "score vectors q and q′ (--scores, --neighbour-scores), each score moved "
    "by at most Δq, the stated sensitivity";
constexpr const char* kSelectionUnit = "one dataset behind scores of sensitivity Δq";
constexpr const char* kRowNeighbouring =
    "datasets D and D′ (--rows × --columns, uniform in the ball of radius "
    "--norm-bound) where D′ moves row 0 by Δ in L2, Δ the stated sensitivity";
constexpr const char* kRowUnit = "one row of a dataset, moved by at most Δ in L2";

// The accountant of an audited release's claim and of each run's ledger: gdp (stating (ε, δ) at
// --delta) for what it composes, so a μ-GDP claim is audited at the user's δ; otherwise the
// release's own accountant.
std::shared_ptr<Accountant> release_accountant(PluginRegistry& registry, const PrivateRelease& release, double delta) {
    auto gdp = registry.create_as<Accountant>("gdp", {{"delta", fmt::format("{}", delta)}});
    if (gdp->accepts(release.event())) return gdp;
    const AccountantChoice own = release.accountant();
    return registry.create_as<Accountant>(own.name, own.parameters);
}

struct AuditOptions {
    JobOptions job;
    std::vector<std::string> neighbour;
    std::string runs_text;
    double sensitivity = 1.0;
    double value = 0.0;
    std::string scores, neighbour_scores;
    double delta = 1e-5;
    double confidence = 0.95;
    std::size_t rows = 200;
    std::size_t columns = 2;
    double norm_bound = 25.0;
};

// What was audited and how, for the report.
struct Subject {
    json description;  // kind, modules, parameters, worlds
    std::string line;  // one line for the text report
    audit::AuditClaim claim;
    std::string claim_source;  // the statement's mechanism line
};

std::size_t parse_runs(const std::string& text) {
    const std::uint64_t value = parse_whole_number(text, "--runs");
    if (value < 4)
        throw ValidationError(
            fmt::format("--runs '{}' is not allowed; need a whole number ≥ 4 of releases per world "
                        "(half select the distinguishers — a quarter shapes them, a quarter scores "
                        "them — and half evaluate them)",
                        text));
    return value;
}

// Seeds of the audit's three streams from --seed: the experiment seed both worlds share and one
// noise key per world, derived as the runner derives a job's repeats (stream i as repeat i).
std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t stream) { return repeat_seed(seed, stream, 0); }

// The audit must be able to show more than nothing: a perfect distinguisher on the evaluation half
// has to give a positive bound at the corrected level.
void check_power(std::size_t runs, double confidence, const audit::StatisticsSettings& settings) {
    const double alpha = audit::bound_level(confidence, audit::most_events(settings));
    const auto detectable = [&](std::size_t n) {
        return audit::largest_detectable(audit::evaluation_half(n), settings.delta, alpha).epsilon;
    };
    if (detectable(runs) > 0.0) return;
    std::size_t needed = runs;
    while (detectable(needed) <= 0.0) needed *= 2;
    throw ValidationError(fmt::format(
        "--runs {} is too few for --confidence {}: even events seen in every release of one world and none of the "
        "other would give no positive lower bound; use --runs {} or more (or a lower confidence)",
        runs, confidence, needed));
}

// --neighbour objective.KEY=VALUE: the settings that turn D into D′.
JobSpec neighbour_job(const JobSpec& job, const std::vector<std::string>& neighbour) {
    JobSpec changed = job;
    for (const auto& assignment : neighbour) {
        const auto eq = assignment.find('=');
        const std::string key = assignment.substr(0, eq);
        if (eq == std::string::npos || key.rfind("objective.", 0) != 0 || key.size() == 10)
            throw ValidationError(
                fmt::format("--neighbour '{}' is not of the form objective.KEY=VALUE: only the "
                            "objective's data defines the neighbouring dataset (e.g. "
                            "--neighbour objective.neighbour_record=0)",
                            assignment));
        changed.objective.parameters[key.substr(10)] = assignment.substr(eq + 1);
    }
    return changed;
}

json bound_json(const audit::PrivacyLowerBound& b) {
    return {{"epsilon", b.epsilon}, {"mu", b.mu}, {"p_lower", b.p_lower}, {"q_upper", b.q_upper}};
}

json finding_json(const audit::Finding& f) {
    const bool forward = f.distinguisher.first_over_second;
    return {{"event", f.distinguisher.event.description},
            {"direction", forward ? "P[E | D] > P[E | D']" : "P[E | D'] > P[E | D]"},
            {"count_in_likelier_world", f.counts.in_p},
            {"count_in_other_world", f.counts.in_q},
            {"evaluation_samples", f.counts.trials_p},
            {"bound", bound_json(f.bound)},
            {"selection_bound", bound_json(f.distinguisher.selection)}};
}

std::string finding_line(const audit::Finding& f) {
    const bool forward = f.distinguisher.first_over_second;
    return fmt::format("{}\n    in {} of {} releases of {} and {} of {} of {}", f.distinguisher.event.description,
                       f.counts.in_p, f.counts.trials_p, forward ? "D" : "D′", f.counts.in_q, f.counts.trials_q,
                       forward ? "D′" : "D");
}

int report(const Subject& subject, const audit::AuditStatistics& statistics, std::size_t runs,
           const AuditOptions& options, std::uint64_t experiment_seed, bool seeded, bool json_output) {
    const auto& claim = subject.claim;
    const audit::Finding& best = statistics.epsilon_finding();
    const audit::Finding& best_mu = statistics.mu_finding();
    const double epsilon = best.bound.epsilon;
    const double mu = best_mu.bound.mu;
    const bool refuted = audit::refutes(claim, epsilon, mu);
    if (json_output) {
        json out;
        out["subject"] = subject.description;
        out["claim"] = {{"headline", claim.headline},
                        {"epsilon", claim.epsilon},
                        {"delta", claim.delta},
                        {"mu", claim.mu ? json(*claim.mu) : json(nullptr)},
                        {"mechanism", subject.claim_source}};
        out["runs_per_world"] = runs;
        out["evaluation_samples_per_world"] = statistics.evaluation_samples;
        out["confidence"] = options.confidence;
        out["events_evaluated"] = statistics.findings.size();
        out["level_per_bound"] = statistics.alpha_per_bound;
        out["coordinates"] = {{"released", statistics.coordinates},
                              {"varying", statistics.varying_coordinates},
                              {"audited", statistics.audited_coordinates}};
        out["lower_bound"] = {
            {"epsilon", epsilon}, {"delta", claim.delta}, {"mu", claim.mu ? json(mu) : json(nullptr)}};
        out["best"] = finding_json(best);
        if (claim.mu) out["best_for_mu"] = finding_json(best_mu);
        json events = json::array();
        for (const auto& f : statistics.findings) events.push_back(finding_json(f));
        out["events"] = events;
        out["largest_detectable"] = {{"epsilon", statistics.detectable.epsilon},
                                     {"mu", claim.mu ? json(statistics.detectable.mu) : json(nullptr)}};
        out["randomness"] = {{"experiment_seed", experiment_seed},
                             {"privacy_noise", seeded ? "ChaCha20 keyed from --seed, one key per world"
                                                      : "ChaCha20 keyed from the operating system, one key per world"}};
        out["refuted"] = refuted;
        print_json(out);
        return refuted ? kClaimRefuted : kSuccess;
    }
    std::cout << fmt::format("dpbo audit: {}\n", subject.line);
    std::cout << fmt::format(
        "  releases         {} per world (half select distinguishers, half evaluate them); "
        "{} of {} released coordinates vary, {} audited\n",
        runs, statistics.varying_coordinates, statistics.coordinates, statistics.audited_coordinates);
    std::cout << fmt::format("  claim            {}{}\n", claim.headline,
                             claim.mu ? fmt::format(" = ({:.4g}, {:g})-DP", claim.epsilon, claim.delta) : "");
    std::cout << fmt::format(
        "  lower bound      ε ≥ {:.4g} at δ = {:g}{}, at {:g}% confidence over {} events "
        "(Clopper–Pearson, Bonferroni)\n",
        epsilon, claim.delta, claim.mu ? fmt::format(", μ ≥ {:.4g}", mu) : "", 100.0 * options.confidence,
        statistics.findings.size());
    std::cout << fmt::format("  best event       {}\n", finding_line(best));
    if (claim.mu && &best_mu != &best) std::cout << fmt::format("  best event for μ {}\n", finding_line(best_mu));
    std::cout << fmt::format("  largest possible ε ≥ {:.4g}{} with this many releases\n", statistics.detectable.epsilon,
                             claim.mu ? fmt::format(", μ ≥ {:.4g}", statistics.detectable.mu) : "");
    if (!refuted && statistics.detectable.epsilon <= claim.epsilon &&
        (!claim.mu || statistics.detectable.mu <= *claim.mu))
        std::cout
            << "  note             this audit could not refute the claim whatever it saw; raise --runs for power\n";
    std::cout << fmt::format("  experiment seed  {}{}\n", experiment_seed,
                             seeded ? " (from --seed; privacy noise keyed from --seed too)" : "");
    std::cout << fmt::format("verdict: {}\n", refuted ? "claim REFUTED: the empirical lower bound exceeds it (exit 3)"
                                                      : "not refuted at this power");
    return refuted ? kClaimRefuted : kSuccess;
}

}  // namespace

int command_audit(const std::vector<std::string>& arguments) {
    CommonOptions common;
    AuditOptions options;
    JobOptions& job_options = options.job;
    po::options_description described("options");
    add_module_options(described, job_options);
    described.add_options()("neighbour", po::value(&options.neighbour)->composing(),
                            "objective.KEY=VALUE turning the data D into its neighbour D' (repeatable; e.g. "
                            "objective.neighbour_record=0)")(
        "sensitivity", po::value(&options.sensitivity)->default_value(1.0),
        "mechanism audit: |x' - x|; selection audit: the quality sensitivity (each |q'_i - q_i| at most this)")(
        "scores", po::value(&options.scores), "selection audit: the scores on D, comma-separated (e.g. 0,1,2)")(
        "neighbour-scores", po::value(&options.neighbour_scores),
        "selection audit: the scores on D', as many, each within --sensitivity of D's (e.g. 1,0,2)")(
        "value", po::value(&options.value)->default_value(0.0), "mechanism audit: x")(
        "rows", po::value(&options.rows)->default_value(200), "row-release audit: rows of the dataset D")(
        "columns", po::value(&options.columns)->default_value(2), "row-release audit: columns of D")(
        "norm-bound", po::value(&options.norm_bound)->default_value(25.0),
        "row-release audit: D's rows are drawn uniformly from the L2 ball of this radius")(
        "runs", po::value(&options.runs_text),
        fmt::format("releases per world (default {} for a mechanism or selection, {} for a row release, {} for "
                    "an algorithm)",
                    kMechanismRuns, kRowReleaseRuns, kAlgorithmRuns)
            .c_str())("delta", po::value(&options.delta)->default_value(1e-5, "1e-5"),
                      "the delta at which a mu-GDP claim is compared as (epsilon, delta)")(
        "confidence", po::value(&options.confidence)->default_value(0.95, "0.95"), "confidence of the lower bound")(
        "seed", po::value(&job_options.seed_text),
        "reproducible audit: experiment seed and each world's noise key derived from it");
    described.add(common_options(common));
    const po::variables_map given = parse_command(take_role_options(arguments, described, job_options), described);
    if (common.help) {
        print_help(
            "dpbo audit --mechanism M [--set mechanism.K=V] [--sensitivity D] [--value A] [options]\n"
            "       dpbo audit --selection S [--set selection.K=V] --scores Q --neighbour-scores Q' [--sensitivity D] "
            "[options]\n"
            "       dpbo audit --release R [--set release.K=V] [--rows N --columns D --norm-bound B] [--sensitivity D] "
            "[options]\n"
            "       dpbo audit --algorithm A --objective O [--ROLE MODULE ...] [--set ROLE.K=V] [--config F] "
            "--neighbour objective.K=V [options]",
            described,
            "Tries to refute a privacy claim: releases on two neighbouring inputs (a mechanism on x = A and x' = A + D; "
            "a selection on scores Q and Q' (each moved by at most D); a row release on a dataset and on it with one "
            "row moved by D; an algorithm on the objective's data and on it with the --neighbour settings, with one "
            "fixed experiment seed), distinguishing events learnt on half the releases, an empirical lower bound on "
            "epsilon (and mu) from the other half.\nexit codes: 0 not refuted, 3 claim refuted, 2 usage or validation "
            "error, 1 failure while running");
        return kSuccess;
    }

    JobSpec job = job_settings(job_options, given);
    const bool algorithm_audit = !job_options.algorithm.empty() || !job_options.objective.empty();
    // Without an algorithm, --mechanism names the mechanism audited on its own.
    const auto mechanism_option = job_options.role_modules.find("mechanism");
    const std::string mechanism_name =
        mechanism_option == job_options.role_modules.end() ? "" : mechanism_option->second;
    // Without an algorithm, --selection names the selection audited on its own.
    const auto selection_option = job_options.role_modules.find("selection");
    const std::string selection_name =
        selection_option == job_options.role_modules.end() ? "" : selection_option->second;
    // Without an algorithm, --release names the row release audited on its own.
    const auto release_option = job_options.role_modules.find("release");
    const std::string release_name = release_option == job_options.role_modules.end() ? "" : release_option->second;
    const int single_releases = !mechanism_name.empty() + !selection_name.empty() + !release_name.empty();
    if (!algorithm_audit && single_releases == 0)
        throw ValidationError(
            "audit needs --mechanism NAME, --selection NAME with --scores and --neighbour-scores, "
            "--release NAME, or --algorithm NAME with --objective NAME and --neighbour");
    if (!algorithm_audit && single_releases > 1)
        throw ValidationError("--mechanism, --selection and --release: audit one release at a time");
    const bool selection_audit = !algorithm_audit && !selection_name.empty();
    const bool row_release_audit = !algorithm_audit && !release_name.empty();
    for (const char* option : {"rows", "columns", "norm-bound"})
        if (!given[option].defaulted() && !row_release_audit)
            throw ValidationError(fmt::format("--{} applies to row-release audits (--release NAME)", option));
    for (const char* option : {"scores", "neighbour-scores"})
        if (given.count(option) && !selection_audit)
            throw ValidationError(
                fmt::format("--{} applies to selection audits (--selection NAME without --algorithm)", option));
    if (!(options.confidence > 0.0 && options.confidence < 1.0))
        throw ValidationError(fmt::format("--confidence {} must lie in (0, 1)", options.confidence));
    if (!(options.delta > 0.0 && options.delta < 1.0))
        throw ValidationError(
            fmt::format("--delta {} must lie in (0, 1): the δ at which a μ-GDP claim is compared", options.delta));
    const std::size_t runs = given.count("runs") ? parse_runs(options.runs_text)
                             : algorithm_audit   ? kAlgorithmRuns
                             : row_release_audit ? kRowReleaseRuns
                                                 : kMechanismRuns;
    const std::optional<std::uint64_t> seed_given = given_seed(job_options);
    const bool seeded = seed_given.has_value();
    const std::uint64_t seed = seed_given.value_or(0);
    const std::uint64_t experiment_seed = seeded ? derived_seed(seed, 0) : os_random_u64();
    PrivacyNoiseSource noise_first =
        seeded ? PrivacyNoiseSource::from_seed(derived_seed(seed, 1)) : PrivacyNoiseSource::from_os();
    PrivacyNoiseSource noise_second =
        seeded ? PrivacyNoiseSource::from_seed(derived_seed(seed, 2)) : PrivacyNoiseSource::from_os();

    PluginRegistry registry;
    load_plugins_on_demand(registry, common);
    Subject subject;
    audit::ReleaseSamples samples;
    audit::StatisticsSettings settings;
    settings.confidence = options.confidence;
    const auto set_claim = [&](const PrivacyStatement& statement, const std::string& who) {
        subject.claim = audit::audit_claim(statement, options.delta, who);
        subject.claim_source = statement.mechanism;
        settings.delta = subject.claim.delta;
        settings.gdp = subject.claim.mu.has_value();
        check_power(runs, options.confidence, settings);
    };

    // A mechanism or selection audited on its own takes its own module and settings only.
    const auto single_module_settings = [&](const std::string& kind) {
        if (given.count("neighbour"))
            throw ValidationError(fmt::format("--neighbour applies to algorithm audits; a {} audit compares {}", kind,
                                              kind == "mechanism" ? "x = --value and x' = --value + --sensitivity"
                                              : kind == "release"
                                                  ? "a dataset and it with one row moved by --sensitivity"
                                                  : "--scores and --neighbour-scores"));
        for (const auto& [role, module] : job_options.role_modules)
            if (role != kind)
                throw ValidationError(
                    fmt::format("--{} {} names a module for an algorithm's role; a {} audit takes "
                                "only --{} and {}.KEY=VALUE settings",
                                role, module, kind, kind, kind));
        const bool other_settings =
            std::any_of(job.roles.begin(), job.roles.end(), [&](const auto& entry) { return entry.first != kind; });
        if (!job.algorithm.parameters.empty() || !job.objective.parameters.empty() || other_settings)
            throw ValidationError(fmt::format("a {} audit takes only {}.KEY=VALUE settings", kind, kind));
        if (!std::isfinite(options.sensitivity) || options.sensitivity <= 0.0)
            throw ValidationError(fmt::format("--sensitivity {} must be a finite number > 0", options.sensitivity));
        const auto settings_given = job.roles.find(kind);
        return settings_given != job.roles.end() ? settings_given->second.parameters
                                                 : std::map<std::string, std::string>{};
    };

    // One release audited: calibrated to --sensitivity, the claim is the ledger's statement of one use,
    // and each run of each world is that one use, charged on a fresh ledger that keeps no log (the
    // runs are not composed: N releases would be a different claim, and an (ε, δ) one would end at
    // N = 1/δ). The release's own code (calibration, its event and guarantee, every use) runs guarded.
    const auto audit_release = [&](PrivateRelease& release, const std::string& who, const char* neighbouring,
                                   const char* unit, const char* one_use, const auto& sample) {
        call_into_module(release.describe_origin(), "being audited", [&] {
            release.calibrate(options.sensitivity);
            // The claim is what one run's ledger states after one charge, with no noise drawn.
            const std::shared_ptr<const Accountant> accountant = release_accountant(registry, release, options.delta);
            PrivacyNoiseSource unused = PrivacyNoiseSource::from_seed(0);
            audit::RunLedgers probe_ledgers(accountant, unused, who, neighbouring, unit);
            PrivacyLedger& probe = probe_ledgers.next_run();
            PrivacyEvent one = release.event();
            one.what = one_use;
            probe.charge(one);
            PrivacyStatement claimed = probe.statement_for(release.guarantee());
            // A release that disowns its author's claim (random-projection) is audited against the
            // claim it is charged at: the audit is how that claim is shown to fail.
            if (claimed.notion == PrivacyNotion::NotPrivate) {
                const std::string disowned = release.guarantee().mechanism;
                claimed = probe.spent();
                claimed.mechanism =
                    fmt::format("the claim its ledger event states ({}); the module's own guarantee: {}",
                                claimed.headline(), disowned);
            }
            set_claim(claimed, who);
            audit::RunLedgers ledgers_first(accountant, noise_first, who, neighbouring, unit);
            audit::RunLedgers ledgers_second(accountant, noise_second, who, neighbouring, unit);
            samples = sample(ledgers_first, ledgers_second);
        });
    };

    if (selection_audit) {
        const std::map<std::string, std::string> parameters = single_module_settings("selection");
        if (!given["value"].defaulted())
            throw ValidationError(
                "--value applies to mechanism audits; a selection audit takes --scores and "
                "--neighbour-scores");
        for (const char* option : {"scores", "neighbour-scores"})
            if (!given.count(option))
                throw ValidationError(
                    fmt::format("a selection audit needs --{} (e.g. --scores 0,1,2 "
                                "--neighbour-scores 1,0,2)",
                                option));
        const audit::ScoreWorlds worlds =
            audit::score_worlds(options.scores, options.neighbour_scores, options.sensitivity);
        auto selection = registry.create_as<Selection>(selection_name, parameters);
        const std::string who = fmt::format("selection '{}'", selection_name);
        audit_release(*selection, who, kSelectionNeighbouring, kSelectionUnit, "one choice",
                      [&](audit::RunLedgers& first, audit::RunLedgers& second) {
                          return audit::sample_selection(*selection, worlds.first, worlds.second, runs, first, second);
                      });
        json settings_json = json::object();
        for (const auto& [key, value] : parameters) settings_json[key] = value;
        const auto listed = [](const arma::vec& v) {
            return fmt::format("{}", fmt::join(std::vector<double>(v.begin(), v.end()), ","));
        };
        subject.description = {{"kind", "selection"},
                               {"name", selection_name},
                               {"parameters", settings_json},
                               {"scores", std::vector<double>(worlds.first.begin(), worlds.first.end())},
                               {"neighbour_scores", std::vector<double>(worlds.second.begin(), worlds.second.end())},
                               {"sensitivity", options.sensitivity}};
        subject.line = fmt::format("{} ({}), D: q = ({}), D′: q′ = ({}) (sensitivity {:g})", who, subject.claim_source,
                                   listed(worlds.first), listed(worlds.second), options.sensitivity);
    } else if (row_release_audit) {
        const std::map<std::string, std::string> parameters = single_module_settings("release");
        if (!given["value"].defaulted())
            throw ValidationError(
                "--value applies to mechanism audits; a row-release audit moves one row by "
                "--sensitivity");
        if (options.rows < 2 || options.columns < 1 || !(options.norm_bound > 0.0) ||
            !std::isfinite(options.norm_bound))
            throw ValidationError(
                fmt::format("--rows {} --columns {} --norm-bound {}: expected at least 2 rows, 1 "
                            "column and a finite bound > 0",
                            options.rows, options.columns, options.norm_bound));
        const audit::RowWorlds worlds =
            audit::row_worlds(options.rows, options.columns, options.norm_bound, options.sensitivity, experiment_seed);
        auto release = registry.create_as<RowRelease>(release_name, parameters);
        const std::string who = fmt::format("row release '{}'", release_name);
        audit_release(*release, who, kRowNeighbouring, kRowUnit, "one release of the rows",
                      [&](audit::RunLedgers& first, audit::RunLedgers& second) {
                          return audit::sample_row_release(*release, worlds, runs, first, second);
                      });
        json settings_json = json::object();
        for (const auto& [key, value] : parameters) settings_json[key] = value;
        subject.description = {{"kind", "row-release"},
                               {"name", release_name},
                               {"parameters", settings_json},
                               {"rows", options.rows},
                               {"columns", options.columns},
                               {"norm_bound", options.norm_bound},
                               {"sensitivity", options.sensitivity}};
        subject.line = fmt::format(
            "{} ({}), D: {} rows uniform in the {}-dimensional ball of radius {:g}, D′: row 0 "
            "moved by {:g}",
            who, subject.claim_source, options.rows, options.columns, options.norm_bound, options.sensitivity);
    } else if (!algorithm_audit) {
        const std::map<std::string, std::string> parameters = single_module_settings("mechanism");
        if (!std::isfinite(options.value) || !std::isfinite(options.value + options.sensitivity))
            throw ValidationError(fmt::format("--value {} and --value + --sensitivity must be finite", options.value));
        auto mechanism = registry.create_as<Mechanism>(mechanism_name, parameters);
        const std::string who = fmt::format("mechanism '{}'", mechanism_name);
        audit_release(*mechanism, who, kMechanismNeighbouring, kMechanismUnit, "one release",
                      [&](audit::RunLedgers& first, audit::RunLedgers& second) {
                          return audit::sample_mechanism(*mechanism, options.value, options.sensitivity, runs, first,
                                                         second);
                      });
        json settings_json = json::object();
        for (const auto& [key, value] : parameters) settings_json[key] = value;
        subject.description = {{"kind", "mechanism"},
                               {"name", mechanism_name},
                               {"parameters", settings_json},
                               {"x", options.value},
                               {"x_prime", options.value + options.sensitivity},
                               {"sensitivity", options.sensitivity}};
        subject.line = fmt::format("{} ({}), D: x = {:g}, D′: x′ = {:g} (sensitivity {:g})", who, subject.claim_source,
                                   options.value, options.value + options.sensitivity, options.sensitivity);
    } else {
        if (job_options.algorithm.empty() || job_options.objective.empty())
            throw ValidationError(
                fmt::format("an algorithm audit needs both --algorithm and --objective (missing: --{})",
                            job_options.algorithm.empty() ? "algorithm" : "objective"));
        if (options.neighbour.empty())
            throw ValidationError(
                "an algorithm audit needs --neighbour objective.KEY=VALUE to define the neighbouring "
                "dataset D' (e.g. --neighbour objective.neighbour_record=0); see 'dpbo info "
                "OBJECTIVE'");
        for (const char* option : {"sensitivity", "value"})
            if (!given[option].defaulted())
                throw ValidationError(
                    fmt::format("--{} applies to mechanism audits; an algorithm audit's neighbour "
                                "is set with --neighbour",
                                option));
        job.algorithm.name = job_options.algorithm;
        job.objective.name = job_options.objective;
        name_roles(job, job_options);
        const JobSpec changed = neighbour_job(job, options.neighbour);
        const audit::AlgorithmWorld first(registry, job);
        const audit::AlgorithmWorld second(registry, changed);
        if (first.modules().objective_parameters().values() == second.modules().objective_parameters().values()) {
            std::string given_text;
            for (const auto& n : options.neighbour) given_text += (given_text.empty() ? "" : ", ") + n;
            throw ValidationError(
                fmt::format("--neighbour {} does not change objective '{}''s parameters (they are "
                            "already so in D): D and D′ would be the same dataset",
                            given_text, job.objective.name));
        }
        // The claim is checked, and the audit's power with it, before the many runs.
        PrivacyNoiseSource probe = PrivacyNoiseSource::from_seed(experiment_seed);
        const std::string who = fmt::format("algorithm '{}'", job.algorithm.name);
        set_claim(first.run(experiment_seed, probe).privacy, who);
        PrivacyStatement statement;
        samples = audit::sample_algorithm(first, second, runs, experiment_seed, noise_first, noise_second, statement);
        if (statement.headline() != subject.claim.headline)
            throw RunError(
                fmt::format("{} stated '{}' in its first run but '{}' in the audit's runs: a claim that "
                            "changes between runs cannot be audited",
                            who, subject.claim.headline, statement.headline()));
        json neighbour = json::object();
        for (const auto& n : options.neighbour) neighbour[n.substr(0, n.find('='))] = n.substr(n.find('=') + 1);
        subject.description = {{"kind", "algorithm"},
                               {"algorithm", job.algorithm.name},
                               {"objective", job.objective.name},
                               {"neighbour", neighbour}};
        std::string neighbour_text;
        for (const auto& n : options.neighbour) neighbour_text += " " + n;
        subject.line = fmt::format(
            "{} on objective '{}', D: the data as configured, D′: with{} (one record "
            "replaced, as the claim's neighbouring relation assumes)",
            who, job.objective.name, neighbour_text);
    }
    const audit::AuditStatistics statistics =
        audit::audit_statistics(samples.first, samples.second, samples.coordinates, settings);
    return report(subject, statistics, runs, options, experiment_seed, seeded, common.json);
}

}  // namespace dpbo::cli
