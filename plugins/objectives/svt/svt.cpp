// DPareto's second illustrative privacy–utility oracle (Avent et al. 2020, §2 and Appendix B): the
// sparse vector technique answering m binary queries, k of them true. Two outputs, both minimised:
// ε of Algorithm 1 (closed form, δ = 0) and 1 − F₁ averaged over random query orders. It holds no
// sensitive records — the queries' true answers are synthetic — so it is cheap enough for a
// near-exact Pareto front by a fine grid.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "repetitions.hpp"
#include "sparse_vector.hpp"

namespace {

constexpr const char* kOwner = "objective 'svt'";

class SparseVectorOracle final : public dpbo::Objective, public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .integer("queries",
                     {.fallback = 100, .lower = 1, .upper = 1000000, .doc = "m, the binary queries asked (paper: 100)"})
            .integer("true_queries", {.fallback = 10,
                                      .lower = 1,
                                      .upper = 1000000,
                                      .doc = "how many of them are true (paper: 10); at most `queries`"})
            .integer("repetitions", {.fallback = 50,
                                     .lower = 1,
                                     .upper = 100000,
                                     .doc = "random query orders the F1 score is averaged over (paper: 50)"})
            .integer("max_cutoff", {.fallback = 30,
                                    .lower = 2,
                                    .upper = 1000000,
                                    .doc = "upper end of the cutoff dimension C (paper: 30)"})
            .integer("seed", {.fallback = 1,
                              .lower = 0,
                              .doc = "the learner's randomness: repetition r draws its query order and "
                                     "Laplace noise from the stream seeded by (seed, r) at every point "
                                     "(common random numbers), so the oracle is a function of (b, C)"});
        return schema;
    }

    explicit SparseVectorOracle(const dpbo::ParameterSet& parameters)
        : queries_(static_cast<std::size_t>(parameters.integer("queries"))),
          true_queries_(static_cast<std::size_t>(parameters.integer("true_queries"))),
          repetitions_(static_cast<std::size_t>(parameters.integer("repetitions"))),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))) {
        if (true_queries_ > queries_)
            throw dpbo::ValidationError(
                fmt::format("{}: true_queries = {} exceeds queries = {}", kOwner, true_queries_, queries_));
        // C is an integer: Algorithm 1 stops after ⌈C⌉ positive answers, and the closed-form ε
        // charges 2C/b₂ for the answers — with a fractional C the run could answer ⌈C⌉ > C times
        // and spend more than the oracle says.
        const auto max_cutoff = static_cast<double>(parameters.integer("max_cutoff"));
        space_ = dpbo::SearchSpace::box({{.name = "noise", .lower = 1e-2, .upper = 1e2, .scale = dpbo::Scale::Log},
                                         {.name = "cutoff", .lower = 1.0, .upper = max_cutoff, .integer = true}});
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        return {{"epsilon", dpbo::Sense::Minimise}, {"error", dpbo::Sense::Minimise}};
    }
    std::vector<dpbo::AuxiliaryOutput> auxiliary_outputs() const override {
        return dpbo::plugin_data::repetition_auxiliary_outputs("F1 score");
    }
    std::string data_description() const override {
        return fmt::format("{} synthetic binary queries of sensitivity 1, {} of them true (no personal records)",
                           queries_, true_queries_);
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("{}: points have {} columns; expected 2 (noise, cutoff)", kOwner, points.n_cols));
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 2);
        result.auxiliary.set_size(points.n_rows, 2);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double noise = points(i, 0);
            const double cutoff = points(i, 1);
            if (!(noise > 0.0) || cutoff != std::round(cutoff) || cutoff < 1.0)
                throw dpbo::RunError(
                    fmt::format("{}: point {} has noise = {} and cutoff = {}; expected noise "
                                "> 0 and an integer cutoff ≥ 1",
                                kOwner, i, noise, cutoff));
            result.values(i, 0) = dpbo::svt::privacy_oracle(noise, cutoff);
            const dpbo::plugin_data::RepetitionErrors errors =
                dpbo::plugin_data::repetition_errors(f1_scores(noise, static_cast<int>(cutoff)));
            result.values(i, 1) = errors.mean;
            dpbo::plugin_data::set_repetition_auxiliary(result.auxiliary, i, errors);
        }
        return result;
    }

private:
    std::vector<double> f1_scores(double noise, int cutoff) const {
        std::vector<int> truth(queries_, 0);
        std::fill_n(truth.begin(), true_queries_, 1);
        std::vector<double> scores(repetitions_);
        for (std::size_t r = 0; r < repetitions_; ++r) {
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, r);
            std::vector<int> order = truth;
            std::shuffle(order.begin(), order.end(), engine);
            scores[r] = dpbo::svt::f1_score(order, dpbo::svt::run(order, noise, cutoff, engine));
        }
        return scores;
    }

    std::size_t queries_;
    std::size_t true_queries_;
    std::size_t repetitions_;
    std::uint64_t seed_;
    dpbo::SearchSpace space_;
};

}  // namespace

DPBO_PLUGIN(SparseVectorOracle, "svt", "1.0.0",
            "privacy-utility oracle of the sparse vector technique (DPareto Alg. 1): outputs epsilon "
            "(closed form, delta = 0) and 1 - F1 over random query orders; noise b in [1e-2, 1e2] (log), "
            "integer cutoff C in [1, 30]; the Laplace noise here measures utility only and is drawn by a "
            "statistical sampler",
            "Avent, Gonzalez, Diethe, Paleyes, Balle (2020), Algorithm 1 and Appendix B; "
            "Lyu, Su & Li (2017), Alg. 7 / Thm. 4")
