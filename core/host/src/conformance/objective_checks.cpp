// The promises every objective makes:
//   - a search space with at least one dimension, outputs with distinct names;
//   - evaluate() meets the evaluation contract (dpbo/evaluation_contract.hpp) on a batch drawn from
//     its own space, with per-record losses when it is record-decomposable;
//   - the same points and the same experiment seed give the same values (its randomness, if any, is
//     the request's generator: runs and resumed runs reproduce);
//   - a known optimum lies in the space, and its points evaluate to its value;
//   - true per-record gradients, when provided, are n × d.
#include <cmath>
#include <memory>
#include <set>

#include <armadillo>
#include <fmt/format.h>

#include "checklist.hpp"
#include "conformance_kinds.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/random.hpp"

namespace dpbo::conformance {

namespace {

constexpr std::size_t kBatch = 3;

Evaluations evaluate_seeded(Objective& objective, const arma::mat& points, std::uint64_t seed) {
    ExperimentRng rng(seed);
    // A private trial (PrivateTrials) draws its privacy noise from the trial stream a run hands it; a
    // stream seeded like the generator here, so the same seed must give the same values.
    PrivacyNoiseSource trial_noise = PrivacyNoiseSource::from_seed(seed);
    EvaluationRequest request;
    request.per_record = record_count(objective) > 0;
    request.rng = &rng;
    if (capability<PrivateTrials>(objective) != nullptr) request.trial_noise = &trial_noise;
    return objective.evaluate(points, request);
}

}  // namespace

void check_objective(Checklist& list, const std::shared_ptr<Objective>& objective) {
    const std::string who = objective->describe_origin();
    arma::mat points;
    if (!list.run("has a search space with at least one dimension", who, [&] {
            const SearchSpace& space = objective->space();
            if (space.dim() == 0) broken("its space has no dimension");
            ExperimentRng rng(11);
            points = space.sample(kBatch, rng);
            if (points.n_rows != kBatch || points.n_cols != space.dim())
                broken("its space sampled {} × {} points for {} × {}", points.n_rows, points.n_cols, kBatch,
                       space.dim());
        }))
        return;
    list.run("names its outputs distinctly", who, [&] {
        const auto outputs = objective->outputs();
        if (outputs.empty()) broken("declares no output");
        std::set<std::string> names;
        for (const Output& output : outputs)
            if (output.name.empty() || !names.insert(output.name).second)
                broken("output name '{}' is empty or repeated", output.name);
    });
    Evaluations first;
    if (!list.run("evaluates a batch within the evaluation contract", who, [&] {
            first = evaluate_seeded(*objective, points, 5);
            EvaluationRequest request;
            request.per_record = record_count(*objective) > 0;
            check_evaluation_contract(*objective, points, request, first);
        }))
        return;
    list.run("gives the same values for the same points and seed", who, [&] {
        const Evaluations again = evaluate_seeded(*objective, points, 5);
        if (!arma::approx_equal(first.values, again.values, "absdiff", 0.0))
            broken(
                "two evaluations of the same points with the same seed differ: its randomness is not the "
                "request's generator alone");
    });
    list.run("its known optimum lies in its space and is attained there", who, [&] {
        const auto optimum = known_optimum(*objective);
        if (!optimum || optimum->points.n_rows == 0) return;  // none declared, or the value alone
        if (!std::isfinite(optimum->value)) broken("its known optimum value {} is not finite", optimum->value);
        if (optimum->points.n_cols != objective->space().dim())
            broken("its optimum points have {} columns, its space {} dimensions", optimum->points.n_cols,
                   objective->space().dim());
        const Evaluations at = evaluate_seeded(*objective, optimum->points, 5);
        for (arma::uword i = 0; i < at.values.n_rows; ++i) {
            const double value = at.values(i, 0);
            if (std::abs(value - optimum->value) > 1e-6 * std::max(1.0, std::abs(optimum->value)))
                broken("optimum point {} evaluates to {}, its known optimum value is {}", i + 1, value, optimum->value);
        }
    });
    list.run("its true per-record gradients, when provided, are records × dimensions", who, [&] {
        const auto* provider = capability<RecordGradients>(*objective);
        if (provider == nullptr) return;
        const arma::mat gradients = provider->record_gradients(points.row(0));
        if (gradients.n_rows != record_count(*objective) || gradients.n_cols != objective->space().dim())
            broken("record_gradients gave {} × {}, expected {} × {}", gradients.n_rows, gradients.n_cols,
                   record_count(*objective), objective->space().dim());
        if (!gradients.is_finite()) broken("record_gradients gave a non-finite entry");
    });
}

}  // namespace dpbo::conformance
