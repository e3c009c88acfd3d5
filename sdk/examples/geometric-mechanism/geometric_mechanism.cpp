// The two-sided geometric mechanism (Ghosh, Roughgarden & Sundararajan 2009) as a third-party
// dpbo plugin, written against the installed SDK with public headers only.
//
// For an integer-valued query with L1 sensitivity Δ, each coordinate gets independent noise Z with
// P(Z = z) = (1 − α)/(1 + α) · α^|z|, α = exp(−ε/Δ). Neighbouring datasets move the answer by
// integers whose absolute values sum to at most Δ, which changes the probability of any output by
// a factor of at most α^−Δ = e^ε: the release is ε-DP. The noise is drawn by the SDK's exact
// discrete Laplace sampler (integer arithmetic only, with ε/Δ as an exact rational), and the release
// is the double nearest to the noisy integer — a function of that integer alone, so no
// floating-point low bits can carry information about the true value.
#include <dpbo/errors.hpp>
#include <dpbo/mechanism.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy/secure_sampling.hpp>
#include <dpbo/random.hpp>

#include <charconv>
#include <cmath>
#include <string>

namespace {

// The shortest text that reads back as the same double: 2.0000000001 is shown as such, not as 2.
std::string exact_text(double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

bool is_integer(double value) { return std::isfinite(value) && std::trunc(value) == value; }

dpbo::ValidationError refuse(const std::string& what) {
    return dpbo::ValidationError("mechanism 'geometric': " + what);
}

class GeometricMechanism final : public dpbo::Mechanism {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("epsilon", {.lower = 0.0,
                                .lower_inclusive = false,
                                .required = true,
                                .doc = "ε of the pure ε-DP guarantee of one release"});
        return schema;
    }

    explicit GeometricMechanism(const dpbo::ParameterSet& parameters) : epsilon_(parameters.real("epsilon")) {}

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }

    void calibrate(double sensitivity) override {
        if (!is_integer(sensitivity) || sensitivity <= 0.0) {
            throw refuse("sensitivity = " + exact_text(sensitivity) +
                         " is not allowed: the L1 sensitivity of an integer-valued query must be a "
                         "positive integer");
        }
        sensitivity_ = sensitivity;
    }

    bool calibrated() const override { return sensitivity_ > 0.0; }

    // Var Z = 2α/(1 − α)²; 1 − α is computed as −expm1(−ε/Δ) so small ε/Δ keeps its digits.
    double noise_scale() const override {
        require_calibrated("noise_scale()");
        const double decay = epsilon_ / sensitivity_;
        return std::sqrt(2.0 * std::exp(-decay)) / -std::expm1(-decay);
    }

    // What one release costs: ε-DP, stated by this mechanism (the SDK's accountants know no
    // geometric event; a pure-DP event is exactly its guarantee).
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }

    dpbo::PrivacyEvent event() const override {
        require_calibrated("event()");
        return {dpbo::PureDpEvent{epsilon_}};
    }

    dpbo::PrivacyStatement guarantee() const override {
        require_calibrated("guarantee()");
        dpbo::PrivacyStatement statement = dpbo::PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism = "two-sided geometric noise P(Z = z) ∝ α^|z|, α = exp(−ε/Δ) = " +
                              exact_text(std::exp(-epsilon_ / sensitivity_)) +
                              ", added to each coordinate; sampled exactly with integer arithmetic (Canonne, Kamath "
                              "& Steinke 2020, Alg. 2), released as the double nearest to the noisy integer (exact "
                              "below 2^53); no slack";
        statement.assumptions.push_back(
            "the released query is integer-valued and its L1 "
            "sensitivity is at most Δ = " +
            exact_text(sensitivity_));
        return statement;
    }

protected:
    // Called by release() once the event is charged to the run's ledger.
    arma::vec add_noise(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        require_calibrated("release()");
        // Every coordinate is checked before any noise is drawn, and the message names the
        // coordinate but never its value: the value is the un-noised, sensitive answer.
        for (arma::uword i = 0; i < value.n_elem; ++i) {
            if (!is_integer(value[i])) {
                throw refuse("coordinate " + std::to_string(i) +
                             " of the value to release is not a finite integer (its value is not "
                             "shown: it is not private)");
            }
        }
        // The decay ε/Δ is passed as the pair (ε, Δ): the sampler uses their exact quotient.
        const dpbo::privacy::Ratio decay{epsilon_, sensitivity_};
        arma::vec released(value.n_elem);
        for (arma::uword i = 0; i < value.n_elem; ++i) {
            released[i] = dpbo::privacy::discrete_laplace_release(value[i], decay, noise);
        }
        return released;
    }

private:
    void require_calibrated(const char* call) const {
        if (!calibrated()) {
            throw dpbo::RunError(std::string("mechanism 'geometric': ") + call +
                                 " before calibrate(): the noise depends on the query's "
                                 "sensitivity, which calibrate() sets");
        }
    }

    double epsilon_;
    double sensitivity_ = 0.0;  // 0 until calibrate()
};

}  // namespace

DPBO_PLUGIN(GeometricMechanism, "geometric", "1.0.0",
            "two-sided geometric noise for integer-valued queries: pure ε-DP, integer output",
            "Ghosh, Roughgarden & Sundararajan 2009, Universally Utility-Maximizing Privacy "
            "Mechanisms (STOC), the α-geometric mechanism")
