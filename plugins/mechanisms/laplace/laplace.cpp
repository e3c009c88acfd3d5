// The Laplace mechanism: value + Lap(Δ₁/ε) per coordinate is ε-DP (Dwork, McSherry, Nissim &
// Smith 2006; Dwork & Roth 2014, Thm 3.6).
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "noise_scale_range.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "mechanism 'laplace'";

class LaplaceMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("epsilon", {.lower = 0.0,
                                .lower_inclusive = false,
                                .required = true,
                                .doc = "ε of the ε-DP release (noise scale b = Δ₁/ε)"});
        return schema;
    }

    explicit LaplaceMechanism(const dpbo::ParameterSet& parameters) : epsilon_(parameters.real("epsilon")) {}

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }

    void calibrate(double sensitivity) override {
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0) {
            throw dpbo::ValidationError(
                fmt::format("{}: sensitivity = {} is not allowed; the L1 sensitivity must be a finite number "
                            "> 0",
                            kOwner, sensitivity));
        }
        const double scale = sensitivity / epsilon_;
        // Δ₁ huge and ε tiny can overflow b (infinite noise would be a release of nothing), and a b
        // beyond the grid's range has no exact release.
        if (!std::isfinite(scale)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: sensitivity = {} with epsilon = {} gives an infinite noise scale", kOwner, sensitivity, epsilon_));
        }
        // Named by the parameters the user set, with the values that would work (b = Δ₁/ε).
        const dpbo::privacy::NoiseScaleRange range = dpbo::privacy::secure_noise_scale_range();
        if (!range.contains(scale)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: epsilon = {} with sensitivity = {} gives the noise scale b = {}, {}; the secure sampler draws at "
                "noise scales in [{:.6g}, {:.6g}]. Allowed: epsilon in {} for this sensitivity, or a sensitivity in "
                "{} at epsilon = {}",
                kOwner, epsilon_, sensitivity, scale,
                scale < range.lowest ? "too small: its release grid would not be a normal double"
                                     : "too large: noise at this scale could overflow the double range",
                range.lowest, range.highest,
                dpbo::privacy::allowed_interval(sensitivity / range.highest, sensitivity / range.lowest),
                dpbo::privacy::allowed_interval(range.lowest * epsilon_, range.highest * epsilon_), epsilon_));
        }
        dpbo::privacy::release_grid(scale, fmt::format("{}: noise scale b", kOwner));
        scale_ = scale;
        sensitivity_ = sensitivity;
    }

    bool calibrated() const override { return scale_.has_value(); }

    double noise_scale() const override { return require_scale("noise_scale()"); }

    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }

    dpbo::PrivacyEvent event() const override { return {dpbo::LaplaceEvent{require_scale("event()"), *sensitivity_}}; }

    dpbo::PrivacyStatement guarantee() const override {
        const double scale = require_scale("guarantee()");
        auto statement = dpbo::PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism = fmt::format(
            "Laplace mechanism, b = {} = Δ₁/ε for L1 sensitivity Δ₁ = {}; exact sampling of "
            "Laplace(0, b) (von Neumann's exponential, random sign) rounded to the grid 2^{}; "
            "rounding is post-processing, no slack",
            scale, *sensitivity_, std::ilogb(dpbo::privacy::release_grid(scale)));
        statement.assumptions.push_back(fmt::format("the query's L1 sensitivity is at most Δ = {}", *sensitivity_));
        return statement;
    }

protected:
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        return dpbo::privacy::laplace_release(value, require_scale("release()"), noise);
    }

private:
    double require_scale(const char* operation) const {
        if (!scale_) {
            throw dpbo::RunError(
                fmt::format("{}: {} called before calibrate(sensitivity); the noise scale depends on the "
                            "query's sensitivity",
                            kOwner, operation));
        }
        return *scale_;
    }

    double epsilon_;
    std::optional<double> sensitivity_;
    std::optional<double> scale_;
};

}  // namespace

DPBO_PLUGIN(LaplaceMechanism, "laplace", "1.0.0", "Laplace mechanism for ε-DP (b = Δ₁/ε)",
            "Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Thm 3.6")
