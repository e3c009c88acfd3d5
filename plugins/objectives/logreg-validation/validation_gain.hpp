#pragma once
// The per-record validation gains of a trained model, larger is better, from the margin
// z = y·(w·x) of a validation record with ‖x‖ ≤ 1:
//   accuracy  1 if z > 0 else 0 (Kusner et al. 2015, Algorithm 1's validation accuracy);
//   ramp      −min(1, max(0, 1 − z)), the ramp loss negated;
//   sigmoid   −1/(1 + exp(z)), the normalised sigmoid loss negated (Algorithm 3).
// For ramp and sigmoid, f_V(λ) = −(1/m) Σ g(w_λ, x_i, y_i) with g as Kusner et al.'s Assumption 2
// needs: L-Lipschitz in w and 0 ≤ g ≤ g*.
#include <optional>
#include <string>

#include <armadillo>

namespace dpbo::logreg_validation {

enum class Gain { Accuracy, Ramp, Sigmoid };

Gain gain_from_name(const std::string& name);

// The gain of each record from its margin z_i.
arma::vec record_gains(Gain gain, const arma::vec& margins);

// L: by the chain rule |∂g/∂w| = |g′(z)|·|y|·‖x‖ ≤ sup|g′(z)| since |y| = 1 and ‖x‖ ≤ 1. The ramp
// loss has slope −1 or 0, so L = 1; the sigmoid loss 1/(1 + e^z) has |g′| = σ(z)σ(−z) ≤ 1/4, at
// z = 0, so L = 1/4. Accuracy is a step in w: no Lipschitz constant (nullopt).
std::optional<double> lipschitz_constant(Gain gain);
// g*: every gain lies in [−1, 0] (ramp, sigmoid) or {0, 1} (accuracy), so |gain| ≤ 1 and one
// record moves the mean of m gains by at most 1/m.
double gain_bound(Gain gain);

}  // namespace dpbo::logreg_validation
