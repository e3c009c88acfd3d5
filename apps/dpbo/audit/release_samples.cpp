#include "release_samples.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/capability.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/registry.hpp"

namespace dpbo::audit {

namespace {

void check_finite(double value, const std::string& coordinate, const std::string& who) {
    // Distinguishers sort and bin the values; a NaN has no place in either.
    if (std::isnan(value))
        throw RunError(fmt::format("{} released NaN as {}; the audit needs numbers", who, coordinate));
}

}  // namespace

ReleaseSamples sample_mechanism(const Mechanism& mechanism, double value, double sensitivity, std::size_t runs,
                                RunLedgers& ledgers_first, RunLedgers& ledgers_second) {
    ReleaseSamples samples;
    samples.coordinates = {"release"};
    samples.first.set_size(runs, 1);
    samples.second.set_size(runs, 1);
    const arma::vec x{value};
    const arma::vec x_prime{value + sensitivity};
    for (std::size_t i = 0; i < runs; ++i) {
        samples.first(i, 0) = mechanism.release(x, ledgers_first.next_run(), "audit release in world D")(0);
        samples.second(i, 0) = mechanism.release(x_prime, ledgers_second.next_run(), "audit release in world D′")(0);
        check_finite(samples.first(i, 0), "release", "the mechanism");
        check_finite(samples.second(i, 0), "release", "the mechanism");
    }
    return samples;
}

ReleaseSamples sample_selection(const Selection& selection, const arma::vec& first, const arma::vec& second,
                                std::size_t runs, RunLedgers& ledgers_first, RunLedgers& ledgers_second) {
    ReleaseSamples samples;
    samples.coordinates = {"chosen index"};
    samples.first.set_size(runs, 1);
    samples.second.set_size(runs, 1);
    for (std::size_t i = 0; i < runs; ++i) {
        samples.first(i, 0) =
            static_cast<double>(selection.select(first, ledgers_first.next_run(), "audit choice in world D"));
        samples.second(i, 0) =
            static_cast<double>(selection.select(second, ledgers_second.next_run(), "audit choice in world D′"));
    }
    return samples;
}

ObservedRelease observed_release(const RunResult& result) {
    ObservedRelease out;
    for (const auto& released : result.released) {
        const arma::mat& m = released.value;
        for (arma::uword j = 0; j < m.n_cols; ++j)
            for (arma::uword i = 0; i < m.n_rows; ++i) {
                out.names.push_back(m.n_elem == 1   ? released.name
                                    : m.n_rows == 1 ? fmt::format("{}[{}]", released.name, j)
                                    : m.n_cols == 1 ? fmt::format("{}[{}]", released.name, i)
                                                    : fmt::format("{}[{},{}]", released.name, i, j));
                out.values.push_back(m(i, j));
            }
    }
    const auto& columns = result.trace.columns();
    const auto& rows = result.trace.rows();
    for (std::size_t t = 0; t < rows.size(); ++t)
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (columns[c].evaluation_only) continue;
            out.names.push_back(fmt::format("{} (trace row {})", columns[c].name, t + 1));
            out.values.push_back(rows[t][c]);
        }
    return out;
}

AlgorithmWorld::AlgorithmWorld(PluginRegistry& registry, const JobSpec& spec)
    : registry_(registry), modules_(registry, spec), objective_(modules_.create_objective()) {}

RunResult AlgorithmWorld::run(std::uint64_t experiment_seed, PrivacyNoiseSource& noise) const {
    JobComponents components = modules_.create_components();
    ExperimentRng rng(experiment_seed);
    SerialEvaluator evaluator;
    RunObserver silent;
    const std::string who = fmt::format("algorithm '{}'", modules_.algorithm().name);
    PrivacyLedger ledger(create_run_accountant(registry_, who, modules_.declared_roles(), components.roles,
                                               capability<PrivateTrials>(*objective_) != nullptr),
                         std::nullopt, noise, who);
    // Trials that are private learners (PrivateTrials) draw their noise from this run's ledger and are
    // charged to it, or checked against the selection that covers them: each run is one use of the claim.
    evaluator.attach_trial_ledger(&ledger);
    RunContext context{*objective_, evaluator, rng, ledger, silent, registry_, std::move(components.roles)};
    RunResult result = call_into_module(components.algorithm->describe_origin(), "running",
                                        [&] { return components.algorithm->run(context); });
    try {
        result.privacy = ledger.statement_for(result.privacy);
        result.privacy.validate();
    } catch (const ValidationError& e) {
        throw RunError(fmt::format("{} produced an invalid privacy statement: {}", who, e.what()));
    }
    if (result.released.empty()) throw RunError(fmt::format("{} released nothing", who));
    return result;
}

ReleaseSamples sample_algorithm(const AlgorithmWorld& first, const AlgorithmWorld& second, std::size_t runs,
                                std::uint64_t experiment_seed, PrivacyNoiseSource& noise_first,
                                PrivacyNoiseSource& noise_second, PrivacyStatement& statement) {
    ReleaseSamples samples;
    const std::string who = fmt::format("algorithm '{}'", first.modules().algorithm().name);
    const auto record = [&](const AlgorithmWorld& world, PrivacyNoiseSource& noise, arma::mat& into, std::size_t i,
                            const char* label) {
        const RunResult result = world.run(experiment_seed, noise);
        const ObservedRelease observed = observed_release(result);
        if (samples.coordinates.empty()) {
            samples.coordinates = observed.names;
            statement = result.privacy;
            samples.first.set_size(runs, observed.names.size());
            samples.second.set_size(runs, observed.names.size());
        }
        if (observed.names != samples.coordinates)
            throw RunError(
                fmt::format("{} released {} values in world {} run {}, laid out unlike the first run's {}; "
                            "the audit compares runs of a fixed layout",
                            who, observed.names.size(), label, i + 1, samples.coordinates.size()));
        if (result.privacy.headline() != statement.headline())
            throw RunError(
                fmt::format("{} stated '{}' in world {} run {} but '{}' in the first run: a claim that "
                            "depends on the data cannot be audited, and would itself leak",
                            who, result.privacy.headline(), label, i + 1, statement.headline()));
        for (std::size_t j = 0; j < observed.values.size(); ++j) {
            check_finite(observed.values[j], observed.names[j], who);
            into(i, j) = observed.values[j];
        }
    };
    for (std::size_t i = 0; i < runs; ++i) {
        record(first, noise_first, samples.first, i, "D");
        record(second, noise_second, samples.second, i, "D′");
    }
    return samples;
}

}  // namespace dpbo::audit
