// The acquisition optimiser's user keys, shared by every algorithm that maximises an acquisition
// over a box (the BO loop's algorithms, dp-ucb's lipschitz variant).
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo {

namespace {

// Chosen by dpbo_bench_acquisition_optimiser (README, "The acquisition optimiser"): our batched
// DIRECT-L gets as much of the budget as keeps an iteration within twice the time of sweep-local
// (400 of 500 on Rosenbrock-10), the cached sweep the rest.
constexpr AcquisitionStrategy kDefaultStrategy = AcquisitionStrategy::SweepBatchedDirect;
constexpr std::int64_t kDefaultDirectEvaluations = 400;

}  // namespace

ParameterSchema& add_acquisition_optimiser_keys(ParameterSchema& schema) {
    schema
        .choice("optimiser", acquisition_strategy_names(), std::string(to_string(kDefaultStrategy)),
                "how the acquisition is maximised over a box: sweep-local (Halton sweep, then local_starts "
                "L-BFGS/BOBYQA searches from its best points), multistart (sweep, then local searches of at most "
                "local_evaluations from the incumbent, the previous point and the sweep's best until "
                "local_starts × local_evaluations are spent), direct (NLopt's DIRECT-L, randomised), "
                "direct-local (DIRECT-L, then one local search of local_evaluations), sweep-direct (sweep, "
                "then NLopt's DIRECT-L with direct_evaluations; the better of the two), batched-direct (our "
                "DIRECT-L, each iteration's new centres scored in one batch), sweep-batched-direct (sweep, then "
                "batched-direct with direct_evaluations; the better of the two); finite sets are scanned whole")
        // 500 is Limbo's default budget; the README's acquisition-optimiser table compares the
        // strategies at it.
        .integer("acquisition_evaluations", {.fallback = 500,
                                             .lower = 2,
                                             .unit = "evaluations",
                                             .doc = "acquisition evaluations per choice of a point, every phase of "
                                                    "the optimiser included (sweep strategies: the sweep gets what "
                                                    "the local searches or DIRECT do not)"})
        .integer("direct_evaluations", {.fallback = kDefaultDirectEvaluations,
                                        .lower = 1,
                                        .unit = "evaluations",
                                        .doc = "sweep-direct and sweep-batched-direct: DIRECT-L's share of "
                                               "acquisition_evaluations"})
        .integer("local_starts", {.fallback = 2, .lower = 0, .doc = "local searches per choice (see optimiser)"})
        .integer("local_evaluations", {.fallback = 20, .lower = 1, .doc = "acquisition evaluations per local search"});
    return schema;
}

AcquisitionOptimiserSettings acquisition_optimiser_settings(const ParameterSet& p) {
    AcquisitionOptimiserSettings s;
    const std::string& name = p.text("optimiser");
    const auto strategy = acquisition_strategy_named(name);
    if (!strategy)  // the schema's choice already refuses other names; kept for a hand-made ParameterSet
        throw ValidationError(fmt::format("{}: optimiser = '{}'; allowed: one of {}", p.owner(), name,
                                          fmt::join(acquisition_strategy_names(), ", ")));
    s.strategy = *strategy;
    const auto total = static_cast<std::size_t>(p.integer("acquisition_evaluations"));
    s.local_starts = static_cast<std::size_t>(p.integer("local_starts"));
    s.local_evaluations = static_cast<std::size_t>(p.integer("local_evaluations"));
    switch (s.strategy) {
        case AcquisitionStrategy::SweepLocal:
        case AcquisitionStrategy::Multistart: {
            const auto starts = static_cast<std::uint64_t>(p.integer("local_starts"));
            const auto each = static_cast<std::uint64_t>(p.integer("local_evaluations"));
            if (starts != 0 && each >= (total + starts - 1) / starts)
                throw ValidationError(fmt::format(
                    "{}: local_starts × local_evaluations = {} × {} leaves no sweep point of acquisition_evaluations "
                    "= {}; allowed: local_starts × local_evaluations < acquisition_evaluations (optimiser = {})",
                    p.owner(), starts, each, total, name));
            s.sweep_points = total - static_cast<std::size_t>(starts * each);
            break;
        }
        case AcquisitionStrategy::Direct:
        case AcquisitionStrategy::BatchedDirect:
            s.direct_evaluations = total;
            s.sweep_points = 0;  // no sweep: nothing for the memory check below to count
            break;
        case AcquisitionStrategy::SweepDirect:
        case AcquisitionStrategy::SweepBatchedDirect:
            s.direct_evaluations = static_cast<std::size_t>(p.integer("direct_evaluations"));
            if (s.direct_evaluations >= total)
                throw ValidationError(fmt::format(
                    "{}: direct_evaluations = {} leaves no sweep point of acquisition_evaluations = {}; allowed: "
                    "direct_evaluations < acquisition_evaluations (optimiser = {})",
                    p.owner(), s.direct_evaluations, total, name));
            s.sweep_points = total - s.direct_evaluations;
            break;
        case AcquisitionStrategy::DirectLocal:
            if (s.local_evaluations >= total)
                throw ValidationError(fmt::format(
                    "{}: local_evaluations = {} leaves DIRECT no evaluation of acquisition_evaluations = {}; allowed: "
                    "local_evaluations < acquisition_evaluations (optimiser = {})",
                    p.owner(), s.local_evaluations, total, name));
            s.direct_evaluations = total - s.local_evaluations;
            s.sweep_points = 0;
            break;
    }
    return s;
}

}  // namespace dpbo
