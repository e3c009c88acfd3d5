#pragma once
// What the exponential mechanism and permute-and-flip share: their parameters (ε and the monotone
// switch), the calibration to the quality sensitivity Δq, the check of the scores, and the weights
// both are built from — candidate i's acceptance probability exp(−γ_i),
//   γ_i = ε·(q* − q_i) / (2Δq)   (ε·(q* − q_i)/Δq for monotone qualities),
// q* the largest score. The scores and the scale (ε, 2Δq) go to the secure layer, which bounds
// each exp(−γ_i) rigorously from the doubles themselves, so no rounding, overflow or underflow
// touches the law for any finite scores, and which samples with work that does not depend on the
// scores except with the probability the statement gives.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"

namespace dpbo::selections {

class ExactScoreSelection : public Selection {
public:
    static ParameterSchema schema() {
        ParameterSchema schema;
        schema.real("epsilon", {.lower = 0.0,
                                .lower_inclusive = false,
                                .required = true,
                                .doc = "ε of the ε-DP selection: candidate i is weighted by exp(ε·q_i/(2Δq)), "
                                       "or exp(ε·q_i/Δq) when monotone"});
        schema.boolean("monotone", false,
                       "true: use ε·q/Δq (no factor 2). Valid only when, for every pair of neighbouring datasets, "
                       "all scores move in the same direction (all up or all down, each by at most Δq); "
                       "otherwise the claim of ε-DP is false");
        return schema;
    }

    ExactScoreSelection(const ParameterSet& parameters, std::string owner)
        : owner_(std::move(owner)), epsilon_(parameters.real("epsilon")), monotone_(parameters.boolean("monotone")) {}

    void calibrate(double sensitivity) override {
        // 2Δq is the divisor of γ (McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10): it must be a
        // finite double too.
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0 || !std::isfinite(2.0 * sensitivity)) {
            throw ValidationError(
                fmt::format("{}: sensitivity = {} is not allowed; the quality sensitivity Δq must be "
                            "a finite number > 0 and below 8.9e307 (2Δq must be finite)",
                            owner_, sensitivity));
        }
        sensitivity_ = sensitivity;
    }

    bool calibrated() const override { return sensitivity_.has_value(); }

    AccountantChoice accountant() const override { return {"basic", {}}; }

    double epsilon() const { return epsilon_; }
    bool monotone() const { return monotone_; }

protected:
    // The largest score, after refusing any non-finite one (by index only: scores are sensitive).
    double best_score(const arma::vec& scores) const {
        for (arma::uword i = 0; i < scores.n_elem; ++i)
            if (!std::isfinite(scores[i]))
                throw RunError(
                    fmt::format("{}: score {} of {} is not finite (its value is not shown: scores are "
                                "sensitive); every score must be a finite number",
                                owner_, i, scores.n_elem));
        return scores.max();
    }

    // The scale of γ_i = ε·(q* − q_i)/(2Δq) (or /Δq when monotone), for the secure layer's samplers.
    privacy::ScoreScale scale() const {
        const double sensitivity = require_sensitivity("select()");
        return {epsilon_, monotone_ ? sensitivity : 2.0 * sensitivity};
    }

    double require_sensitivity(const char* operation) const {
        if (!sensitivity_)
            throw RunError(
                fmt::format("{}: {} called before calibrate(sensitivity); the selection's weights depend "
                            "on the quality sensitivity Δq",
                            owner_, operation));
        return *sensitivity_;
    }

    // The guarantee both share: pure ε-DP for scores of sensitivity Δq, with what it rests on and
    // what its running time depends on (`timing`, each selection's own).
    PrivacyStatement pure_statement(const std::string& how, const std::string& timing) const {
        const double sensitivity = require_sensitivity("guarantee()");
        auto statement = PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism = fmt::format(
            "{}, weights exp(−ε·(q* − q_i)/({}Δq)) with ε = {}, Δq = {}; exact sampling (fixed-width "
            "uniforms against rigorous bounds on exp(−γ_i), refined until decided), no slack; running time: {}",
            how, monotone_ ? "" : "2", epsilon_, sensitivity, timing);
        statement.assumptions.push_back(
            fmt::format("any one score moves by at most Δq = {} between neighbouring datasets", sensitivity));
        if (monotone_)
            statement.assumptions.push_back(
                "monotone scores: for every pair of neighbouring datasets all scores move in the same direction "
                "(the factor 2 is dropped on this condition alone)");
        return statement;
    }

    const std::string& owner() const { return owner_; }

private:
    std::string owner_;
    double epsilon_;
    bool monotone_;
    std::optional<double> sensitivity_;
};

}  // namespace dpbo::selections
