// A deliberately leaky mechanism, for the tests only: ε-DP Laplace noise drawn and added in floating
// point the textbook way, b·(log U − log U′) + x, which Mironov (2012) showed leaks x through the
// low bits of the result and which is bounded (|noise| ≤ about 37·b). It keeps its own sampler, so
// `dpbo audit` must refute it whatever the shipped mechanisms draw from: the test that proves the
// auditor has power.
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "mechanism 'leaky-laplace'";

// A uniform in (0, 1) from the top 53 bits of one 64-bit draw: the floating-point uniform such
// samplers start from.
double uniform_open(dpbo::PrivacyNoiseSource& noise) {
    return (static_cast<double>(noise.next_u64() >> 11) + 0.5) * 0x1p-53;
}

class LeakyLaplace final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real(
            "epsilon",
            {.lower = 0.0, .lower_inclusive = false, .required = true, .doc = "the ε it claims (and does not keep)"});
        return schema;
    }

    explicit LeakyLaplace(const dpbo::ParameterSet& parameters) : epsilon_(parameters.real("epsilon")) {}

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }

    void calibrate(double sensitivity) override {
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0)
            throw dpbo::ValidationError(
                fmt::format("{}: sensitivity = {} must be finite and > 0", kOwner, sensitivity));
        scale_ = sensitivity / epsilon_;
    }

    bool calibrated() const override { return scale_.has_value(); }

    double noise_scale() const override { return scale(); }

    // It claims ε-DP (and does not keep it): stated, not derived from its scale.
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }

    dpbo::PrivacyEvent event() const override {
        scale();
        return {dpbo::PureDpEvent{epsilon_}};
    }

    dpbo::PrivacyStatement guarantee() const override {
        dpbo::PrivacyStatement statement = dpbo::PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism =
            fmt::format("floating-point Laplace noise, b = {} (test only: deliberately leaky)", scale());
        statement.assumptions = {"none that hold: the test suite's example of a broken sampler"};
        return statement;
    }

protected:
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        arma::vec out = value;
        for (auto& v : out) v += scale() * (std::log(uniform_open(noise)) - std::log(uniform_open(noise)));
        return out;
    }

private:
    double scale() const {
        if (!scale_) throw dpbo::RunError(fmt::format("{}: used before calibrate()", kOwner));
        return *scale_;
    }

    double epsilon_;
    std::optional<double> scale_;
};

}  // namespace

DPBO_PLUGIN(
    LeakyLaplace, "leaky-laplace", "1.0.0",
    "test only: Laplace noise added in floating point (leaks through the low bits; Mironov 2012)",
    "Mironov 2012, On significance of the least significant bits for differential privacy: the attacked sampler")
