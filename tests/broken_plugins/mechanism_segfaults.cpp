// A well-formed mechanism whose calibrate() dereferences a null pointer: `dpbo audit` must report
// the signal naming the module, its file and what it was doing.
#include <dpbo/mechanism.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy_statement.hpp>

namespace {
class SegfaultingMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit SegfaultingMechanism(const dpbo::ParameterSet&) {}
    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }
    void calibrate(double sensitivity) override {
        volatile double* nowhere = nullptr;
        *nowhere = sensitivity;
    }
    bool calibrated() const override { return true; }
    double noise_scale() const override { return 1.0; }
    dpbo::PrivacyEvent event() const override { return {dpbo::PureDpEvent{1.0}}; }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }
    dpbo::PrivacyStatement guarantee() const override { return dpbo::PrivacyStatement::pure_dp(1.0); }

protected:
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource&) const override { return value; }
};
}  // namespace

DPBO_PLUGIN(SegfaultingMechanism, "segfaulting-mechanism", "1.0.0", "its calibrate dereferences null", "none")
