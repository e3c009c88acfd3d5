#include "gp_ucb_phase.hpp"

#include <cmath>
#include <limits>

#include "dpbo/evaluation.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "finite_set_posterior.hpp"
#include "kusner_constants.hpp"

namespace dpbo::dp_ucb {

namespace {

// argmax of the scores; exact ties (every candidate at t = 1, where μ_0 = 0 and σ_0 = 1) are broken
// uniformly with the run's experiment generator, never by the data.
std::size_t argmax_with_ties(const arma::vec& scores, dpbo::ExperimentRng& rng) {
    const double best = scores.max();
    const arma::uvec ties = arma::find(scores == best);
    return ties.n_elem == 1 ? ties(0) : ties(rng.index(ties.n_elem));
}

}  // namespace

GpUcbPhase run_gp_ucb_phase(dpbo::RunContext& context, const arma::mat& candidates, const dpbo::gp::Kernel& kernel,
                            double noise_variance, double delta, std::size_t budget, bool repeat_candidates,
                            double sign) {
    const std::size_t count = candidates.n_rows;
    const std::size_t dim = candidates.n_cols;
    FiniteSetPosterior posterior(candidates, kernel, noise_variance, budget);
    GpUcbPhase phase;
    phase.model_values.set_size(budget);
    // λ_t, v_t and the UCB depend on the data: only the step and β_t (public) are outside
    // evaluation_only.
    std::vector<dpbo::TraceColumn> columns = {
        {"iteration"}, {"beta"}, {"value", true}, {"ucb", true}, {"cpu_seconds", true}};
    for (auto& column : dpbo::Trace::vector_columns("x", dim, true)) columns.push_back(column);
    phase.trace.set_columns(columns);
    std::vector<bool> evaluated(count, false);
    dpbo::EvaluationRequest request;
    request.rng = &context.rng;
    context.observer.on_start(budget);
    for (std::size_t t = 1; t <= budget; ++t) {
        const double start = dpbo::thread_cpu_seconds();
        // Algorithm 1, line 4.
        const double beta_t = beta(t, count, delta);
        // Algorithm 1, line 5: λ_t = argmax μ_{t−1}(λ) + √β_t σ_{t−1}(λ).
        arma::vec ucb = posterior.mean() + std::sqrt(beta_t) * arma::sqrt(posterior.variance());
        if (!repeat_candidates)
            for (std::size_t i = 0; i < count; ++i)
                if (evaluated[i]) ucb(i) = -std::numeric_limits<double>::infinity();
        const std::size_t row = argmax_with_ties(ucb, context.rng);
        // Algorithm 1, line 6: observe v_t (the host adds the objective's declared noise).
        const dpbo::Evaluations observed = context.evaluator.evaluate(context.objective, candidates.row(row), request);
        const double value = observed.values(0, 0);
        // Algorithm 1, line 7: update μ and σ².
        posterior.observe(row, sign * value);
        evaluated[row] = true;
        phase.rows.push_back(row);
        phase.model_values(t - 1) = sign * value;
        std::vector<double> trace_row = {static_cast<double>(t), beta_t, value, ucb(row),
                                         dpbo::thread_cpu_seconds() - start};
        for (std::size_t j = 0; j < dim; ++j) trace_row.push_back(candidates(row, j));
        phase.trace.add_row(trace_row);
        context.observer.on_iteration(t, phase.trace);
    }
    phase.final_mean = posterior.mean();
    return phase;
}

}  // namespace dpbo::dp_ucb
