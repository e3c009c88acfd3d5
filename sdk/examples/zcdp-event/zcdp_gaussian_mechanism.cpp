// The Gaussian mechanism calibrated to ρ-zCDP: noise N(0, σ²) on a query of L2 sensitivity Δ is
// Δ²/(2σ²)-zCDP (Bun & Steinke 2016, Prop. 1.6), so σ = Δ/√(2ρ) spends exactly ρ per release. Each
// release is one "zcdp" event, composed by the accountant "zcdp-accountant" of this example (or by any accountant
// that reads RDP curves). The noise is drawn by the SDK's secure sampling layer (exact Gaussian,
// rounded to a grid that depends on σ alone), never by std:: random.
#include <dpbo/errors.hpp>
#include <dpbo/mechanism.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy/secure_sampling.hpp>
#include <dpbo/random.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "zcdp_event.hpp"

namespace {

constexpr const char* kOwner = "mechanism 'zcdp-gaussian'";

double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

class ZcdpGaussianMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("rho", {.lower = 0.0,
                            .lower_inclusive = false,
                            .required = true,
                            .doc = "ρ of the ρ-zCDP guarantee of one release (σ = Δ/√(2ρ))"});
        return schema;
    }

    explicit ZcdpGaussianMechanism(const dpbo::ParameterSet& parameters) : rho_(parameters.real("rho")) {}

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L2; }

    void calibrate(double sensitivity) override {
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0) {
            throw dpbo::ValidationError(std::string(kOwner) + ": sensitivity = " + dpbo::event_number(sensitivity) +
                                        " is not allowed; the L2 sensitivity must be a finite number > 0");
        }
        // Two roundings (√ and ÷) may each fall below the exact quotient by half an ulp; two steps
        // up keep σ ≥ Δ/√(2ρ), so the release never spends more than the ρ it reports.
        const double sigma = up(up(sensitivity / std::sqrt(2.0 * rho_)));
        // Refuses a σ with no usable release grid before anything is released.
        dpbo::privacy::release_grid(sigma, std::string(kOwner) + ": sigma");
        sigma_ = sigma;
        sensitivity_ = sensitivity;
    }

    bool calibrated() const override { return sigma_ > 0.0; }

    double noise_scale() const override {
        require_calibrated("noise_scale()");
        return sigma_;
    }

    dpbo::AccountantChoice accountant() const override { return {"zcdp-accountant", {}}; }

    dpbo::PrivacyEvent event() const override {
        require_calibrated("event()");
        return {zcdp::ZcdpEvent{rho_}};
    }

    // ρ-zCDP is the RDP curve ε(α) = ρα (Bun & Steinke 2016, Def. 1.1); a few of its orders.
    dpbo::PrivacyStatement guarantee() const override {
        require_calibrated("guarantee()");
        dpbo::PrivacyStatement statement;
        statement.notion = dpbo::PrivacyNotion::Renyi;
        for (const double alpha : {2.0, 4.0, 8.0, 16.0, 32.0, 64.0})
            statement.rdp_curve.emplace_back(alpha, up(rho_ * alpha));
        statement.mechanism = "Gaussian noise σ = Δ/√(2ρ) = " + dpbo::event_number(sigma_) +
                              " for Δ = " + dpbo::event_number(sensitivity_) +
                              ": ρ-zCDP with ρ = " + dpbo::event_number(rho_) +
                              " (Bun & Steinke 2016, Prop. 1.6); exact Gaussian sampling rounded to a grid of σ alone";
        return statement;
    }

protected:
    // Called by release() once the event is charged to the run's ledger.
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        require_calibrated("release()");
        return dpbo::privacy::gaussian_release(value, sigma_, noise);
    }

private:
    void require_calibrated(const char* call) const {
        if (!calibrated()) {
            throw dpbo::RunError(std::string(kOwner) + ": " + call +
                                 " before calibrate(): σ depends on the query's sensitivity, which calibrate() sets");
        }
    }

    double rho_;
    double sigma_ = 0.0;  // 0 until calibrate()
    double sensitivity_ = 0.0;
};

}  // namespace

DPBO_PLUGIN(ZcdpGaussianMechanism, "zcdp-gaussian", "1.0.0",
            "Gaussian noise calibrated to ρ-zCDP (σ = Δ/√(2ρ)); each release is a 'zcdp' event",
            "Bun & Steinke 2016, Concentrated Differential Privacy (TCC), Prop. 1.6")
