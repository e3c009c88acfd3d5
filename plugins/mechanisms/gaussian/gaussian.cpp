// The Gaussian mechanism, calibrated either to μ-GDP (σ = Δ₂/μ, Dong, Roth & Su 2022, Thm 2.7)
// or to (ε, δ)-DP by the analytic Gaussian mechanism (Balle & Wang 2018, Thm 8).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"
#include "noise_scale_range.hpp"

namespace {

constexpr const char* kOwner = "mechanism 'gaussian'";

class GaussianMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .real("mu", {.lower = 0.0,
                         .lower_inclusive = false,
                         .doc = "μ-GDP guarantee of one release (σ = Δ₂/μ); give alone"})
            .real("epsilon", {.lower = 0.0,
                              .lower_inclusive = false,
                              .doc = "ε of an (ε, δ)-DP release (analytic Gaussian); give with delta"})
            .real("delta", {.lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .upper_inclusive = false,
                            .doc = "δ of an (ε, δ)-DP release (analytic Gaussian); give with epsilon"})
            .real("equivalent_delta", {.fallback = 1e-5,
                                       .lower = 0.0,
                                       .upper = 1.0,
                                       .lower_inclusive = false,
                                       .upper_inclusive = false,
                                       .doc = "δ at which the (ε, δ) equivalent of a μ-GDP guarantee is reported"});
        return schema;
    }

    explicit GaussianMechanism(const dpbo::ParameterSet& parameters) {
        const bool has_mu = parameters.has("mu");
        const bool has_epsilon = parameters.has("epsilon");
        const bool has_delta = parameters.has("delta");
        if (has_mu && !has_epsilon && !has_delta) {
            mu_ = parameters.real("mu");
            equivalent_delta_ = parameters.real("equivalent_delta");
        } else if (!has_mu && has_epsilon && has_delta) {
            epsilon_ = parameters.real("epsilon");
            delta_ = parameters.real("delta");
            // Accepting it would silently ignore it: an (ε, δ) release already states its δ.
            if (parameters.given_by_user("equivalent_delta")) {
                throw dpbo::ValidationError(
                    fmt::format("{}: equivalent_delta = {} applies only to mu (μ-GDP) mode; with epsilon and "
                                "delta the guarantee is already (epsilon, delta)-DP — remove equivalent_delta",
                                kOwner, parameters.real("equivalent_delta")));
            }
        } else {
            throw dpbo::ValidationError(
                fmt::format("{}: got {}; allowed: either mu alone (μ-GDP, σ = Δ/μ) or epsilon and delta "
                            "together ((ε, δ)-DP, analytic Gaussian mechanism)",
                            kOwner, describe_given(parameters)));
        }
    }

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L2; }

    void calibrate(double sensitivity) override {
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0) {
            throw dpbo::ValidationError(
                fmt::format("{}: sensitivity = {} is not allowed; the L2 sensitivity must be a finite number "
                            "> 0",
                            kOwner, sensitivity));
        }
        const double sigma =
            mu_ ? sensitivity / *mu_ : dpbo::analytic_gaussian_sigma(epsilon_, delta_, sensitivity, kOwner);
        // μ = 1e−320 used to calibrate σ = inf and release `null`s with exit 0.
        if (!std::isfinite(sigma) || sigma <= 0.0) {
            throw dpbo::ValidationError(fmt::format(
                "{}: {} with sensitivity = {} gives the noise scale σ = {}; allowed: parameters for which σ is a "
                "finite number > 0",
                kOwner, mu_ ? fmt::format("mu = {}", *mu_) : fmt::format("epsilon = {}, delta = {}", epsilon_, delta_),
                sensitivity, sigma));
        }
        // Refuses a σ with no usable release grid (beyond the double range) before anything is released,
        // naming the parameter the user set and the values that would work: σ = Δ/μ, and the analytic σ
        // is proportional to Δ at fixed (ε, δ).
        const dpbo::privacy::NoiseScaleRange range = dpbo::privacy::secure_noise_scale_range();
        if (!range.contains(sigma)) {
            const std::string allowed =
                mu_ ? fmt::format(
                          "mu in {} for this sensitivity, or a sensitivity in {} at mu = {}",
                          dpbo::privacy::allowed_interval(sensitivity / range.highest, sensitivity / range.lowest),
                          dpbo::privacy::allowed_interval(range.lowest * *mu_, range.highest * *mu_), *mu_)
                    : fmt::format("a sensitivity in {} at epsilon = {} and delta = {}",
                                  dpbo::privacy::allowed_interval(range.lowest * (sensitivity / sigma),
                                                                  range.highest * (sensitivity / sigma)),
                                  epsilon_, delta_);
            throw dpbo::ValidationError(fmt::format(
                "{}: {} with sensitivity = {} gives sigma = {}, {}; the secure sampler draws at noise scales in "
                "[{:.6g}, {:.6g}]. Allowed: {}",
                kOwner, mu_ ? fmt::format("mu = {}", *mu_) : fmt::format("epsilon = {}, delta = {}", epsilon_, delta_),
                sensitivity, sigma,
                sigma < range.lowest ? "too small: its release grid would not be a normal double"
                                     : "too large: noise at this scale could overflow the double range",
                range.lowest, range.highest, allowed));
        }
        dpbo::privacy::release_grid(sigma, fmt::format("{}: sigma", kOwner));
        sigma_ = sigma;
        sensitivity_ = sensitivity;
    }

    bool calibrated() const override { return sigma_.has_value(); }

    double noise_scale() const override { return require_sigma("noise_scale()"); }

    // A μ-calibrated release is stated as μ-GDP, the analytic one as (ε, δ)-DP: what guarantee()
    // claims, so the composed statement carries the very numbers the user configured.
    dpbo::AccountantChoice accountant() const override {
        if (mu_) return {"gdp", {{"delta", fmt::format("{:.17g}", equivalent_delta_)}}};
        return {"basic", {}};  // the analytic Gaussian's releases are (ε, δ)-DP events
    }

    dpbo::PrivacyEvent event() const override {
        require_sigma("event()");
        if (mu_) return {dpbo::GdpEvent{*mu_}};
        return {dpbo::ApproxDpEvent{epsilon_, delta_}};
    }

    dpbo::PrivacyStatement guarantee() const override {
        const double sigma = require_sigma("guarantee()");
        dpbo::PrivacyStatement statement;
        if (mu_) {
            statement = dpbo::PrivacyStatement::gaussian_dp(*mu_);
            statement.equivalent_epsilon_delta = {{dpbo::gdp_epsilon(*mu_, equivalent_delta_), equivalent_delta_}};
            statement.mechanism = fmt::format(
                "Gaussian mechanism, σ = {} = Δ/μ for L2 sensitivity Δ = {} (Dong, Roth & Su "
                "2022, Thm 2.7); {}",
                sigma, *sensitivity_, sampler(sigma));
        } else {
            statement = dpbo::PrivacyStatement::approx_dp(epsilon_, delta_);
            statement.mechanism = fmt::format(
                "analytic Gaussian mechanism, σ = {} for L2 sensitivity Δ = {} (Balle & Wang "
                "2018); {}",
                sigma, *sensitivity_, sampler(sigma));
        }
        statement.assumptions.push_back(fmt::format("the query's L2 sensitivity is at most Δ = {}", *sensitivity_));
        return statement;
    }

protected:
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        return dpbo::privacy::gaussian_release(value, require_sigma("release()"), noise);
    }

private:
    static std::string sampler(double sigma) {
        return fmt::format(
            "exact sampling of N(0, σ²) (Karney 2016) rounded to the grid 2^{}; rounding is "
            "post-processing, no slack",
            std::ilogb(dpbo::privacy::release_grid(sigma)));
    }

    static std::string describe_given(const dpbo::ParameterSet& parameters) {
        std::vector<std::string> given;
        for (const char* key : {"mu", "epsilon", "delta"}) {
            if (parameters.has(key)) given.push_back(fmt::format("{} = {}", key, parameters.real(key)));
        }
        if (given.empty()) return "none of mu, epsilon, delta";
        return fmt::format("{}", fmt::join(given, ", "));
    }

    double require_sigma(const char* operation) const {
        if (!sigma_) {
            throw dpbo::RunError(
                fmt::format("{}: {} called before calibrate(sensitivity); the noise scale depends on the "
                            "query's sensitivity",
                            kOwner, operation));
        }
        return *sigma_;
    }

    std::optional<double> mu_;
    double epsilon_ = 0.0;
    double delta_ = 0.0;
    double equivalent_delta_ = 0.0;
    std::optional<double> sensitivity_;
    std::optional<double> sigma_;
};

}  // namespace

DPBO_PLUGIN(GaussianMechanism, "gaussian", "1.0.0",
            "Gaussian mechanism calibrated to μ-GDP or, analytically, to (ε, δ)-DP",
            "Dong, Roth & Su 2022, Thm 2.7 (μ-GDP); Balle & Wang 2018, Thm 8 (analytic (ε, δ))")
