// The smallest trial that is itself a private mechanism (PrivateTrials), for tests, audits and the
// docs of private selection among trials (private-search, dp-hypo). Its n sensitive records are
// drawn once from a public seed: x_i = ExperimentRng(data_seed).normal(n, 1). A trial at threshold
// θ computes the quantile query s(θ) = −|F_n(θ) − q|, F_n(θ) = #{i : x_i ≤ θ}/n, and releases it
// through the Laplace mechanism of scale Δ/ε with Δ = 1/n: replacing one record moves F_n(θ) by at
// most 1/n and |· − q| is 1-Lipschitz, so each trial is ε-DP for one record replaced. The score is
// maximised where θ is the records' q-quantile.
//
// The noise comes from the host's trial stream (EvaluationRequest::trial_noise) through the secure
// Laplace sampler, and each point's evaluation declares its event (laplace, scale 1/(nε),
// sensitivity 1/n), which is also the bound every trial stays within (trial_bound()).
//
// The neighbour switch (dpbo/neighbour.hpp) replaces record i by neighbour_value after the draw;
// its default 100 lies beyond every threshold in the box, so F_n(θ) drops by the full 1/n at every
// θ ≥ x_i: the neighbour an audit wants.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/neighbour.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'threshold-count-trial'";

class ThresholdCountTrial final : public dpbo::Objective, public dpbo::PrivateTrials, public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("records", {.fallback = 100, .lower = 1, .doc = "number n of sensitive records x_i ~ N(0, 1)"})
            .integer("data_seed", {.fallback = 1, .lower = 0, .doc = "seed of the records' draw (public)"})
            .real("epsilon", {.fallback = 1.0,
                              .lower = 0.0,
                              .lower_inclusive = false,
                              .doc = "ε of each trial's Laplace release of its score"})
            .real("quantile", {.fallback = 0.5,
                               .lower = 0.0,
                               .upper = 1.0,
                               .doc = "q: the score is −|F_n(θ) − q|, best at the records' q-quantile"})
            .real("bound", {.fallback = 4.0,
                            .lower = 0.0,
                            .lower_inclusive = false,
                            .doc = "the thresholds searched: θ in [−bound, bound]"});
        dpbo::add_neighbour_parameters(schema, 100.0,
                                       "the record that replaces record neighbour_record (default 100: above every "
                                       "threshold, so F_n drops by 1/n wherever θ ≥ the replaced record)");
        return schema;
    }

    explicit ThresholdCountTrial(const dpbo::ParameterSet& parameters)
        : records_(static_cast<std::size_t>(parameters.integer("records"))),
          data_seed_(static_cast<std::uint64_t>(parameters.integer("data_seed"))),
          epsilon_(parameters.real("epsilon")),
          quantile_(parameters.real("quantile")),
          neighbour_(dpbo::neighbour_switch(parameters, records_, kOwner)),
          space_(dpbo::SearchSpace::uniform_box(1, -parameters.real("bound"), parameters.real("bound"), "threshold")) {
        dpbo::ExperimentRng data_rng(data_seed_);
        data_ = data_rng.normal(records_, 1);
        if (neighbour_.active()) data_(*neighbour_.record) = neighbour_.value;
        data_ = arma::sort(data_);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Sense sense() const override { return dpbo::Sense::Maximise; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (points.n_cols != 1)
            throw dpbo::RunError(fmt::format("{}: points have {} coordinates; the space has 1", kOwner, points.n_cols));
        if (request.trial_noise == nullptr)
            throw dpbo::RunError(fmt::format(
                "{}: each evaluation is a private trial (PrivateTrials) and draws its Laplace noise from the "
                "host's trial stream (EvaluationRequest::trial_noise), which this evaluation was not given",
                kOwner));
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 1);
        for (std::size_t i = 0; i < points.n_rows; ++i)
            result.values(i, 0) =
                dpbo::privacy::laplace_release(exact_score(points(i, 0)), noise_scale(), *request.trial_noise);
        result.trial_events.assign(points.n_rows, trial_events());
        return result;
    }

    std::string trial_neighbouring() const override { return "replace one record"; }
    std::string trial_protected_unit() const override {
        return "one record of the objective's table (threshold-count-trial)";
    }
    std::vector<dpbo::PrivacyEvent> trial_bound() const override { return trial_events(); }

    std::string data_description() const override {
        return fmt::format("{} records x_i ~ N(0, 1) drawn with data_seed {}{}", records_, data_seed_,
                           neighbour_.describe(fmt::format("{}", neighbour_.value)));
    }
    // The best threshold and its exact score, for judging a search; computed from the records.
    std::vector<dpbo::ReleasedValue> reference_values() const override {
        const double best = best_threshold();
        return {{"best_threshold", "a threshold in the box closest to the records' q-quantile", arma::mat{best}},
                {"best_exact_score", "the exact score −|F_n(θ) − q| there", arma::mat{exact_score(best)}}};
    }

private:
    double sensitivity() const { return 1.0 / static_cast<double>(records_); }
    double noise_scale() const { return sensitivity() / epsilon_; }
    std::vector<dpbo::PrivacyEvent> trial_events() const {
        return {dpbo::PrivacyEvent(dpbo::LaplaceEvent(noise_scale(), sensitivity()), 1,
                                   "a trial's score −|F_n(θ) − q| released through the Laplace mechanism")};
    }

    // −|F_n(θ) − q| with F_n(θ) the fraction of records ≤ θ (the records are sorted).
    double exact_score(double threshold) const {
        const auto below = static_cast<double>(std::upper_bound(data_.begin(), data_.end(), threshold) - data_.begin());
        return -std::abs(below / static_cast<double>(records_) - quantile_);
    }
    // The record x_(k), k = ⌈qn⌉ (at least 1), where F_n first reaches q, clamped into the box.
    double best_threshold() const {
        const double rank = std::max(1.0, std::ceil(quantile_ * static_cast<double>(records_)));
        const auto index = std::min(records_, static_cast<std::size_t>(rank)) - 1;
        return std::clamp(data_(index), space_.lower()(0), space_.upper()(0));
    }

    std::size_t records_;
    std::uint64_t data_seed_;
    double epsilon_;
    double quantile_;
    dpbo::NeighbourSwitch neighbour_;
    dpbo::SearchSpace space_;
    arma::vec data_;  // sorted
};

}  // namespace

DPBO_PLUGIN(ThresholdCountTrial, "threshold-count-trial", "1.0.0",
            "a private trial: the quantile score −|F_n(θ) − q| of n records at threshold θ, released through the "
            "Laplace mechanism (sensitivity 1/n) and declared as the trial's event",
            "Laplace mechanism (Dwork, McSherry, Nissim & Smith 2006); a minimal trial for private selection "
            "(Papernot & Steinke 2022)")
