// Branin-Hoo as PO-GP-UCB's appendix searches it (Kharkovskii, Dai & Low 2020): a finite set of
// rows, the g × g grid of the box [−5, 10] × [0, 15], and −Branin maximised, since PO-GP-UCB
// maximises. The box is public, so it is the grid's declared bounds (a row release scales from
// them). `branin` with grid = g is the same grid minimised; this form keeps the paper's sign, so its
// best values and known optimum read as the paper's.
#include <cstdint>

#include <fmt/format.h>

#include "branin_function.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "released_rows.hpp"

namespace {

constexpr const char* kOwner = "objective 'branin-grid'";

dpbo::SearchSpace grid_space(const dpbo::ParameterSet& parameters) {
    const auto levels = static_cast<std::size_t>(parameters.integer("grid"));
    const dpbo::SearchSpace box = dpbo::branin_function::box();
    return dpbo::SearchSpace::candidates_within(box.grid(levels), box.dimensions());
}

class BraninGrid final : public dpbo::Objective,
                         public dpbo::FiniteCandidates,
                         public dpbo::ObservationNoise,
                         public dpbo::HasKnownOptimum {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        // Two levels at least: one level is no grid of the box. 2000² = 4 000 000 rows at most.
        schema.integer("grid", {.fallback = 100,
                                .lower = 2,
                                .upper = 2000,
                                .doc = "levels per dimension: the rows are the g × g grid of [-5, 10] × [0, 15], "
                                       "x1 varying fastest"});
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit BraninGrid(const dpbo::ParameterSet& parameters)
        : space_(grid_space(parameters)),
          index_(space_.candidate_rows()),
          values_(-dpbo::branin_function::values(space_.candidate_rows())),
          noise_stddev_(parameters.real("noise_stddev")) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    // A grid of the box, fixed by the level count alone.
    dpbo::CandidateRows candidates() const override {
        return {space_.candidate_rows(), dpbo::RowStatus::DataIndependent};
    }
    dpbo::Sense sense() const override { return dpbo::Sense::Maximise; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (request.per_record)
            throw dpbo::ValidationError(
                fmt::format("{}: per-record values were asked; Branin-Hoo has no records", kOwner));
        dpbo::Evaluations result;
        result.points = points;
        // A point is a grid row given exactly (the modeler proposes stored rows); anything else is refused.
        result.candidate_rows = index_.rows_of(points, kOwner);
        result.values = values_.elem(result.candidate_rows);
        return result;
    }

    // The best grid rows: near, not at, Branin's three minimisers unless the grid happens to hold them.
    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        const double best = values_.max();
        return dpbo::KnownOptimum{best, space_.candidate_rows().rows(arma::find(values_ == best))};
    }

private:
    dpbo::SearchSpace space_;
    dpbo::released_rows::RowIndex index_;
    arma::vec values_;
    double noise_stddev_;
};

}  // namespace

DPBO_PLUGIN(BraninGrid, "branin-grid", "1.0.0",
            "-Branin-Hoo maximised over the g x g grid of [-5,10]x[0,15] (PO-GP-UCB's Branin-Hoo experiment), "
            "declared box bounds",
            "Dixon & Szegő (1978); Kharkovskii, Dai & Low (2020), appendix (Branin-Hoo)")
