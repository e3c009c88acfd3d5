// A mechanism that draws its noise from a generator of its own instead of the ledger's source, and
// whose calibrate() takes any sensitivity: `dpbo check` must name both broken promises.
#include <random>

#include <dpbo/errors.hpp>
#include <dpbo/mechanism.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy_statement.hpp>

namespace {
class OwnRandomnessMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit OwnRandomnessMechanism(const dpbo::ParameterSet&) {}
    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }
    void calibrate(double sensitivity) override {
        sensitivity_ = sensitivity;
        calibrated_ = true;
    }
    bool calibrated() const override { return calibrated_; }
    double noise_scale() const override { return sensitivity_; }
    dpbo::PrivacyEvent event() const override {
        if (!calibrated_) throw dpbo::RunError("own-randomness: not calibrated");
        return {dpbo::LaplaceEvent{sensitivity_, sensitivity_}};
    }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }
    dpbo::PrivacyStatement guarantee() const override { return dpbo::PrivacyStatement::pure_dp(1.0); }

protected:
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource&) const override {
        std::random_device device;
        std::mt19937_64 engine(device());
        std::exponential_distribution<double> exponential(1.0 / sensitivity_);
        arma::vec out = value;
        for (double& v : out) v += exponential(engine) - exponential(engine);
        return out;
    }

private:
    double sensitivity_ = 0.0;
    bool calibrated_ = false;
};
}  // namespace

DPBO_PLUGIN(OwnRandomnessMechanism, "own-randomness", "1.0.0",
            "Laplace noise from its own generator, not the ledger's; calibrates to any sensitivity", "none")
