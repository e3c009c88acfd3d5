// The two-sided geometric mechanism (Ghosh, Roughgarden & Sundararajan 2009) as a third-party
// dpbo plugin, written against the installed SDK with public headers only.
//
// For an integer-valued query with L1 sensitivity Δ, each coordinate gets independent noise Z with
// P(Z = z) = (1 − α)/(1 + α) · α^|z|, α = exp(−ε/Δ). Neighbouring datasets move the answer by
// integers whose absolute values sum to at most Δ, which changes the probability of any output by
// a factor of at most α^−Δ = e^ε: the release is ε-DP. Unlike Laplace noise the output stays an
// integer, so no floating-point low bits can carry information about the true value.
#include <dpbo/errors.hpp>
#include <dpbo/mechanism.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/random.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace {

// Doubles hold every integer up to 2^53 exactly. Keeping the input and the noise each within 2^52
// keeps their sum exact, so the release is the integer the privacy analysis talks about.
constexpr double kLargestInput = 0x1.0p52;
constexpr double kLargestNoise = 0x1.0p52;

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

    explicit GeometricMechanism(const dpbo::ParameterSet& parameters)
        : epsilon_(parameters.real("epsilon")) {}

    dpbo::SensitivityNorm sensitivity_norm() const override { return dpbo::SensitivityNorm::L1; }

    void calibrate(double sensitivity) override {
        if (!is_integer(sensitivity) || sensitivity <= 0.0) {
            throw refuse("sensitivity = " + exact_text(sensitivity) +
                         " is not allowed: the L1 sensitivity of an integer-valued query must be a "
                         "positive integer");
        }
        const double decay = epsilon_ / sensitivity;  // −log α, kept exact rather than log(exp(·))
        // The largest draw is −log(u)/decay for the smallest uniform u > 0 a double can hold; past
        // kLargestNoise the released integers would no longer be exact.
        const double largest_draw = -std::log(std::numeric_limits<double>::denorm_min()) / decay;
        if (largest_draw > kLargestNoise) {
            throw refuse("sensitivity = " + exact_text(sensitivity) + " with epsilon = " +
                         exact_text(epsilon_) + " gives epsilon/sensitivity = " + exact_text(decay) +
                         ", too small for exact integer noise; allowed: epsilon/sensitivity >= " +
                         exact_text(-std::log(std::numeric_limits<double>::denorm_min()) /
                                    kLargestNoise));
        }
        sensitivity_ = sensitivity;
        decay_ = decay;
    }

    bool calibrated() const override { return sensitivity_ > 0.0; }

    // Var Z = 2α/(1 − α)²; 1 − α is computed as −expm1(−decay) so small ε/Δ keeps its digits.
    double noise_scale() const override {
        require_calibrated("noise_scale()");
        const double alpha = std::exp(-decay_);
        return std::sqrt(2.0 * alpha) / -std::expm1(-decay_);
    }

    arma::vec release(const arma::vec& value, dpbo::PrivacyNoiseSource& noise) const override {
        require_calibrated("release()");
        // Every coordinate is checked before any noise is drawn, and the message names the
        // coordinate but never its value: the value is the un-noised, sensitive answer.
        for (arma::uword i = 0; i < value.n_elem; ++i) {
            if (!is_integer(value[i]) || std::abs(value[i]) > kLargestInput) {
                throw refuse("coordinate " + std::to_string(i) +
                             " of the value to release is not an integer of magnitude at most "
                             "2^52 = 4503599627370496 (its value is not shown: it is not private)");
            }
        }
        arma::vec released(value.n_elem);
        for (arma::uword i = 0; i < value.n_elem; ++i) {
            released[i] = value[i] + two_sided_geometric(noise);
        }
        return released;
    }

    dpbo::PrivacyStatement guarantee() const override {
        require_calibrated("guarantee()");
        dpbo::PrivacyStatement statement = dpbo::PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism = "two-sided geometric noise P(Z = z) ∝ α^|z|, α = exp(−ε/Δ) = " +
                              exact_text(std::exp(-decay_)) + ", added to each coordinate";
        statement.assumptions.push_back("the released query is integer-valued and its L1 "
                                        "sensitivity is at most Δ = " +
                                        exact_text(sensitivity_));
        statement.assumptions.push_back(
            "the noise is sampled by inverting 53-bit uniforms, so its probabilities match the "
            "two-sided geometric law up to that resolution (about 2^-53 per draw)");
        return statement;
    }

private:
    void require_calibrated(const char* call) const {
        if (!calibrated()) {
            throw dpbo::RunError(std::string("mechanism 'geometric': ") + call +
                                 " before calibrate(): the noise depends on the query's "
                                 "sensitivity, which calibrate() sets");
        }
    }

    // G = ⌊log U / log α⌋ has P(G ≥ k) = P(U ≤ α^k) = α^k: geometric on {0, 1, ...}. The
    // difference of two independent copies has P(Z = z) ∝ α^|z|.
    double geometric(dpbo::PrivacyNoiseSource& noise) const {
        return std::floor(std::log(noise.uniform_open()) / -decay_);
    }

    double two_sided_geometric(dpbo::PrivacyNoiseSource& noise) const {
        const double first = geometric(noise);
        return first - geometric(noise);
    }

    double epsilon_;
    double sensitivity_ = 0.0;  // 0 until calibrate()
    double decay_ = 0.0;        // ε/Δ = −log α
};

}  // namespace

DPBO_PLUGIN(GeometricMechanism, "geometric", "1.0.0",
            "two-sided geometric noise for integer-valued queries: pure ε-DP, integer output",
            "Ghosh, Roughgarden & Sundararajan 2009, Universally Utility-Maximizing Privacy "
            "Mechanisms (STOC), the α-geometric mechanism")
