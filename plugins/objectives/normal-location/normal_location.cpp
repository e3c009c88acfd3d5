// Location of the Normal model (DP-GIBO: Sopa et al., §4.1): n sensitive records x_i ~ N(m·1, I_d) and the
// per-record loss L(θ, x_i) = ½‖x_i − θ‖², so f(θ) = (1/2n) Σ ‖x_i − θ‖² = ½‖θ − x̄‖² + f(x̄) is
// minimised by the MLE x̄. The records are drawn once, at construction, from their own generator
// ExperimentRng(data_seed): one call normal(n, d) (Armadillo fills it column by column), plus m.
// The search box [−bound, bound]^d has its centre at 0, the paper's θ⁽⁰⁾.
//
// The neighbour switch (dpbo/neighbour.hpp) replaces record i, after the draw, by the record whose
// every coordinate is neighbour_value. Its default −10 lies on the other side of θ⁽⁰⁾ = 0 from the
// records (mean m = 1): its gradient θ − x points against theirs and is clipped at any usual B, so
// the clipped average moves by nearly the full 2B/n the guarantee allows.
//
// noise_stddev perturbs the mean values only, as an observation of f would be; the per-record
// losses stay exact, because they are the records' own contributions, which DP-GIBO clips and
// privatises itself (its guarantee never relies on this noise). The host adds it after checking the
// exact values (observation_noise_stddev()).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/neighbour.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'normal-location'";

class NormalLocation final : public dpbo::Objective,
                             public dpbo::ObservationNoise,
                             public dpbo::RecordDecomposable,
                             public dpbo::RecordGradients,
                             public dpbo::HasKnownOptimum,
                             public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 5, .lower = 1, .doc = "dimension d of θ and of each record"})
            .integer("records", {.fallback = 50, .lower = 1, .doc = "number n of sensitive records"})
            .real("true_mean", {.fallback = 1.0,
                                .doc = "every coordinate of the mean of the distribution the records are drawn from"});
        dpbo::add_synthetic_record_parameters(schema);
        dpbo::add_neighbour_parameters(
            schema, -10.0,
            "every coordinate of the record that replaces record neighbour_record (default −10: on the other "
            "side of θ⁽⁰⁾ = 0 from the records, so its clipped gradient points against theirs)");
        return schema;
    }

    explicit NormalLocation(const dpbo::ParameterSet& parameters)
        : setup_(dpbo::synthetic_record_settings(parameters)),
          true_mean_(parameters.real("true_mean")),
          neighbour_(dpbo::neighbour_switch(parameters, setup_.records, kOwner)),
          space_(dpbo::SearchSpace::uniform_box(setup_.dim, -setup_.bound, setup_.bound, "theta")) {
        dpbo::ExperimentRng data_rng(setup_.data_seed);
        data_ = data_rng.normal(setup_.records, setup_.dim) + true_mean_;
        if (neighbour_.active()) data_.row(*neighbour_.record).fill(neighbour_.value);
        half_squared_norms_ = 0.5 * arma::sum(arma::square(data_), 1);
        mle_ = arma::mean(data_, 0);
        arma::mat centred = data_;
        centred.each_row() -= mle_;
        value_at_mle_ = 0.5 * arma::accu(arma::square(centred)) / static_cast<double>(setup_.records);
        // A known optimum outside the box would be unreachable and every distance to it misleading.
        if (arma::abs(mle_).max() > setup_.bound) {
            throw dpbo::ValidationError(fmt::format(
                "{}: bound = {} is too small: the records' mean (the MLE, largest coordinate {:.6g} in absolute value) "
                "lies outside [−bound, bound]^{} for true_mean = {}, records = {}, data_seed = {}; allowed: a bound "
                "that contains it",
                kOwner, setup_.bound, arma::abs(mle_).max(), setup_.dim, true_mean_, setup_.records, setup_.data_seed));
        }
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return setup_.noise_stddev; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        check_columns(points.n_cols, "points have");
        dpbo::Evaluations result;
        result.points = points;
        arma::mat offsets = points;
        offsets.each_row() -= mle_;
        result.values = 0.5 * arma::sum(arma::square(offsets), 1) + value_at_mle_;
        if (request.per_record) {
            // ½‖x_i − θ‖² = ½‖θ‖² + ½‖x_i‖² − θᵀx_i for every (point, record) pair: one GEMM.
            arma::mat per_record = -points * data_.t();
            per_record.each_col() += 0.5 * arma::sum(arma::square(points), 1);
            per_record.each_row() += half_squared_norms_.t();
            result.per_record = std::move(per_record);
        }
        return result;
    }

    std::size_t record_count() const override { return setup_.records; }

    // ∇_θ ½‖x_i − θ‖² = θ − x_i, one row per record.
    arma::mat record_gradients(const arma::rowvec& point) const override {
        check_columns(point.n_elem, "the point has");
        arma::mat gradients = -data_;
        gradients.each_row() += point;
        return gradients;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        return dpbo::KnownOptimum{value_at_mle_, arma::mat(mle_)};
    }

    std::string data_description() const override {
        return fmt::format("{} records x_i ~ N({}·1, I_{}) drawn with data_seed {}{}", setup_.records, true_mean_,
                           setup_.dim, setup_.data_seed, neighbour_.describe(fmt::format("{}·1", neighbour_.value)));
    }

private:
    void check_columns(std::size_t columns, const char* what) const {
        if (columns != setup_.dim)
            throw dpbo::RunError(fmt::format("{}: {} {} coordinates; dim = {}", kOwner, what, columns, setup_.dim));
    }

    dpbo::SyntheticRecordSettings setup_;
    double true_mean_;
    dpbo::NeighbourSwitch neighbour_;
    dpbo::SearchSpace space_;
    arma::mat data_;                // n × d, one record per row
    arma::vec half_squared_norms_;  // ½‖x_i‖²
    arma::rowvec mle_;              // x̄
    double value_at_mle_ = 0.0;     // f(x̄) = (1/2n) Σ ‖x_i − x̄‖²
};

}  // namespace

DPBO_PLUGIN(NormalLocation, "normal-location", "1.0.0",
            "location of the Normal model: mean of ½‖x_i − θ‖² over n records x_i ~ N(m·1, I_d); minimum at the MLE x̄",
            "Sopa, Marusic, Avella-Medina & Cunningham, Scalable Differentially Private Bayesian Optimization, "
            "§4.1 and appendix C.1 (appendix E.3 of the newer version): location of the Normal model")
