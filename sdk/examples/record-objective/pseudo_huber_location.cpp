// A record-decomposable objective as a third-party dpbo plugin, written against the installed SDK
// with public headers only: robust location estimation with the pseudo-Huber loss
//   L(θ, x_i) = √(1 + ‖θ − x_i‖²) − 1,   f(θ) = (1/n) Σ_i L(θ, x_i),
// over n sensitive records x_i ~ N(m·1, I_d). Each record's gradient (θ − x_i)/√(1 + ‖θ − x_i‖²)
// has norm below 1, so an outlier moves the minimiser only a little — the point of a robust loss.
//
// What makes it a record objective, usable by DP-GIBO and DP-GD:
//   - it inherits dpbo::RecordDecomposable, whose record_count() returns n;
//   - evaluate() fills per_record (b × n, one row per point) when asked, and values is the mean of
//     each row;
//   - the records are the data the privacy statement protects: they are drawn from their own
//     generator (data_seed), never from the run's randomness, so every run sees the same records.
// And the neighbour switch (dpbo/neighbour.hpp), so that `dpbo audit` can run an algorithm on this
// data and on a neighbour of it: neighbour_record = i replaces record i, after the draw, by the
// record whose every coordinate is neighbour_value — by default −10, far on the other side of the
// box's centre from the records, where its gradient points against theirs.
#include <dpbo/errors.hpp>
#include <dpbo/evaluation.hpp>
#include <dpbo/neighbour.hpp>
#include <dpbo/objective.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/random.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const std::string kOwner = "objective 'pseudo-huber-location'";

class PseudoHuberLocation final : public dpbo::Objective, public dpbo::RecordDecomposable, public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 3, .lower = 1, .doc = "dimension d of θ and of each record"})
            .integer("records", {.fallback = 50, .lower = 1, .doc = "number n of sensitive records"})
            .real("true_mean", {.fallback = 1.0, .doc = "every coordinate of the mean the records are drawn around"})
            .real(
                "bound",
                {.fallback = 5.0, .lower = 0.0, .lower_inclusive = false, .doc = "the search box is [−bound, bound]^d"})
            .integer("data_seed", {.fallback = 0, .lower = 0, .doc = "seed of the records' own generator"});
        // The shared declaration: neighbour_record (−1 = the data as drawn) and neighbour_value.
        dpbo::add_neighbour_parameters(schema, -10.0,
                                       "every coordinate of the record that replaces record neighbour_record "
                                       "(default −10: on the other side of the box's centre from the records)");
        return schema;
    }

    explicit PseudoHuberLocation(const dpbo::ParameterSet& parameters)
        : dim_(static_cast<std::size_t>(parameters.integer("dim"))),
          space_(dpbo::SearchSpace::uniform_box(dim_, -parameters.real("bound"), parameters.real("bound"), "theta")) {
        const auto records = static_cast<std::size_t>(parameters.integer("records"));
        dpbo::ExperimentRng data_rng(static_cast<std::uint64_t>(parameters.integer("data_seed")));
        records_ = data_rng.normal(records, dim_) + parameters.real("true_mean");
        // Read after the draw, so the other records are exactly those of the data as drawn; an index
        // that is not a record is refused with a ValidationError naming the key and n.
        const dpbo::NeighbourSwitch neighbour = dpbo::neighbour_switch(parameters, records, kOwner);
        if (neighbour.active()) records_.row(*neighbour.record).fill(neighbour.value);
        description_ = std::to_string(records) + " records x_i ~ N(" + std::to_string(parameters.real("true_mean")) +
                       "·1, I_" + std::to_string(dim_) + ") drawn with data_seed " +
                       std::to_string(parameters.integer("data_seed")) +
                       neighbour.describe("the record " + std::to_string(neighbour.value) + "·1");
    }

    const dpbo::SearchSpace& space() const override { return space_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (points.n_cols != dim_)
            throw dpbo::RunError(kOwner + ": points have " + std::to_string(points.n_cols) +
                                 " columns; dim = " + std::to_string(dim_));
        // ‖θ − x_i‖² for every (point, record) pair at once: ‖θ‖² + ‖x_i‖² − 2θᵀx_i.
        arma::mat squared = -2.0 * points * records_.t();
        squared.each_col() += arma::sum(arma::square(points), 1);
        squared.each_row() += arma::sum(arma::square(records_), 1).t();
        arma::mat losses = arma::sqrt(1.0 + arma::clamp(squared, 0.0, arma::datum::inf)) - 1.0;
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::mean(losses, 1);  // the mean of each row: f(θ)
        if (request.per_record) result.per_record = std::move(losses);
        return result;
    }

    std::size_t record_count() const override { return records_.n_rows; }

    std::string data_description() const override { return description_; }

private:
    std::size_t dim_;
    dpbo::SearchSpace space_;
    arma::mat records_;  // n × d, one record per row
    std::string description_;
};

}  // namespace

DPBO_PLUGIN(PseudoHuberLocation, "pseudo-huber-location", "1.0.0",
            "robust location: mean over n records of the pseudo-Huber loss √(1 + ‖θ − x_i‖²) − 1; "
            "with the neighbour switch for 'dpbo audit'",
            "Huber 1964 (robust location); pseudo-Huber: Charbonnier et al. 1997")
