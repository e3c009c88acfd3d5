#include "dpbo/privacy/private_gradient.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/module_factory.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "noise_scale_range.hpp"

namespace dpbo {

ClippedAverage clip_and_average(const arma::mat& record_gradients, double bound, const std::string& owner) {
    if (record_gradients.n_cols == 0 || record_gradients.n_rows == 0) {
        throw RunError(fmt::format("{}: no per-record gradients to clip (got {} × {})", owner, record_gradients.n_rows,
                                   record_gradients.n_cols));
    }
    if (!record_gradients.is_finite()) {
        const arma::uvec bad = arma::find_nonfinite(record_gradients);
        throw RunError(
            fmt::format("{}: the gradient of record {} is not finite; the objective returned NaN or "
                        "infinite losses for it",
                        owner, bad(0) / record_gradients.n_rows));
    }
    const arma::rowvec norms = arma::sqrt(arma::sum(arma::square(record_gradients), 0));
    // min{1, B/‖g‖} with 0/0 read as 1: a zero gradient is left as it is.
    const arma::rowvec scales = arma::clamp(bound / norms, 0.0, 1.0);
    ClippedAverage result;
    result.mean = record_gradients * scales.t() / static_cast<double>(record_gradients.n_cols);
    result.clipped = arma::accu(norms > bound);
    result.largest_norm = norms.max();
    return result;
}

namespace {

std::string exact(double value) { return fmt::format("{:.17g}", value); }

// The sensitivity 2B/n is a property of the exact average; the released one is computed in
// floating point. Clipping leaves ‖g_i‖ ≤ B(1 + (d + 4)u) and the average's coordinates carry an
// absolute error of at most n·u·B each (a sum of n terms of size ≤ B, divided by n), so two
// neighbouring computed averages lie within 2B/n · (1 + (√d·n² + d + 4)·u) of each other, with u the
// unit roundoff 2⁻⁵³. Calibrating to that (with a factor 8 of margin) keeps the stated μ true for the
// computed average, at a cost of about 10⁻¹⁰ in σ for n = 1000.
double floating_point_allowance(std::size_t records, std::size_t dimension) {
    const double n = static_cast<double>(records);
    const double d = static_cast<double>(dimension);
    return (std::sqrt(d) * n * n + d + 4.0) * 0x1.0p-50;
}

constexpr const char* kNeighbouring = "replace one record";
constexpr const char* kProtectedUnit = "one record of the objective's sensitive data";

// Past this, n is so large that the allowance would be a visible share of the noise.
constexpr double kLargestAllowance = 1e-3;

// σ = k·B/μ with k = 2√T(1 + allowance)/n, as calibrated below. Out of the secure sampler's range,
// the mechanism would name only the derived σ or sensitivity (clipping_bound = 1e308 overflowed 2B/n
// to inf; mu = 1e300 made σ subnormal); the user set B and μ, so they are named, with the values
// that work.
void require_drawable_noise(const PrivateGradientSettings& settings, const std::string& owner) {
    const double n = static_cast<double>(settings.records);
    const double k = 2.0 * std::sqrt(static_cast<double>(settings.steps)) *
                     (1.0 + floating_point_allowance(settings.records, settings.dimension)) / n;
    const double bound = settings.clipping_bound, mu = settings.mu;
    const double sensitivity =
        2.0 * (bound / n) * (1.0 + floating_point_allowance(settings.records, settings.dimension));
    const double sigma = sensitivity / (mu / std::sqrt(static_cast<double>(settings.steps)));
    const privacy::NoiseScaleRange range = privacy::secure_noise_scale_range();
    if (std::isfinite(sensitivity) && range.contains(sigma)) return;
    throw ValidationError(fmt::format(
        "{}: clipping_bound = {} and mu = {} (with iterations = {} and the objective's {} records) give the gradient "
        "noise σ = 2B√T/(nμ) = {:.6g} per coordinate, {}; the secure sampler draws at noise scales in [{:.6g}, "
        "{:.6g}]. Allowed: clipping_bound in {} at mu = {}, or mu in {} at clipping_bound = {}",
        owner, bound, mu, settings.steps, settings.records, sigma,
        sigma < range.lowest ? "too small: its release grid would not be a normal double"
                             : "too large: the noise could overflow the double range",
        range.lowest, range.highest, privacy::allowed_interval(range.lowest / k * mu, range.highest / k * mu), mu,
        privacy::allowed_interval(k / range.highest * bound, k / range.lowest * bound), bound));
}

}  // namespace

PrivateGradientRelease::PrivateGradientRelease(RunContext& context, const std::string& owner,
                                               const PrivateGradientSettings& settings)
    : context_(context), owner_(owner), settings_(settings) {
    const auto refuse = [&](const char* key, const std::string& value, const char* allowed) {
        throw ValidationError(fmt::format("{}: {} = {}; allowed: {}", owner_, key, value, allowed));
    };
    if (!(settings_.mu > 0.0) || !std::isfinite(settings_.mu)) refuse("mu", exact(settings_.mu), "a finite number > 0");
    if (settings_.steps == 0) refuse("iterations", "0", "an integer >= 1");
    if (!(settings_.clipping_bound > 0.0) || !std::isfinite(settings_.clipping_bound))
        refuse("clipping_bound", exact(settings_.clipping_bound), "a finite number > 0");
    if (settings_.records == 0) {
        throw ValidationError(
            fmt::format("{}: the objective reports 0 records; a private gradient needs a "
                        "record-decomposable objective (one loss per record)",
                        owner_));
    }
    require_drawable_noise(settings_, owner_);
    mechanism_ = context_.modules.create_as<Mechanism>(
        settings_.mechanism, {{"mu", exact(per_step_mu())}, {"equivalent_delta", exact(settings_.equivalent_delta)}});
    if (mechanism_->sensitivity_norm() != SensitivityNorm::L2) {
        throw ValidationError(
            fmt::format("{}: mechanism '{}' takes {} sensitivities; the clipped average is bounded in "
                        "L2 (2B/n)",
                        owner_, settings_.mechanism, to_string(mechanism_->sensitivity_norm())));
    }
    if (settings_.dimension == 0) refuse("dimension", "0", "an integer >= 1");
    if (floating_point_allowance(settings_.records, settings_.dimension) > kLargestAllowance) {
        throw ValidationError(
            fmt::format("{}: {} records in {} dimensions: the floating-point error of the average "
                        "would exceed {} of its sensitivity; allowed: n²·√d below about 1e12",
                        owner_, settings_.records, settings_.dimension, kLargestAllowance));
    }
    mechanism_->calibrate(calibrated_sensitivity());
    context_.ledger.set_scope(kNeighbouring, kProtectedUnit);
}

PrivateGradientRelease::~PrivateGradientRelease() = default;

double PrivateGradientRelease::per_step_mu() const {
    return settings_.mu / std::sqrt(static_cast<double>(settings_.steps));
}

double PrivateGradientRelease::sensitivity() const {
    // 2·(B/n), not (2B)/n: the same double (doubling is exact) without overflowing for B near the
    // largest double.
    return 2.0 * (settings_.clipping_bound / static_cast<double>(settings_.records));
}

double PrivateGradientRelease::calibrated_sensitivity() const {
    return sensitivity() * (1.0 + floating_point_allowance(settings_.records, settings_.dimension));
}

double PrivateGradientRelease::noise_stddev() const { return mechanism_->noise_scale(); }

arma::vec PrivateGradientRelease::release(const arma::vec& clipped_average) {
    if (releases_ >= settings_.steps) {
        throw RunError(fmt::format("{}: release {} asked for, but the privacy budget covers {} releases", owner_,
                                   releases_ + 1, settings_.steps));
    }
    arma::vec released =
        mechanism_->release(clipped_average, context_.ledger, fmt::format("gradient at step {}", releases_ + 1));
    ++releases_;
    return released;
}

PrivacyStatement PrivateGradientRelease::statement(std::vector<std::string> released,
                                                   std::vector<std::string> assumptions) const {
    if (releases_ == 0) return PrivacyStatement::not_private(std::move(released), "no private gradient was released");
    // The notion is a claim only: the ledger replaces it, and the numbers, by its composition.
    PrivacyStatement statement = PrivacyStatement::gaussian_dp(per_step_mu());
    statement.neighbouring = kNeighbouring;
    statement.protected_unit = kProtectedUnit;
    statement.released = std::move(released);
    statement.mechanism = fmt::format(
        "{} releases of the per-record-clipped average gradient (B = {:.6g}, n = {}, L2 sensitivity 2B/n = {:.6g}, "
        "calibrated to {:.17g} to cover the floating-point error of the average) through the Gaussian mechanism, "
        "σ = 2B√T/(nμ) = {:.6g} per coordinate, each {:.6g}-GDP, charged to the run's privacy ledger. Each release: {}",
        releases_, settings_.clipping_bound, settings_.records, sensitivity(), calibrated_sensitivity(), noise_stddev(),
        per_step_mu(), mechanism_->guarantee().mechanism);
    statement.assumptions = std::move(assumptions);
    statement.assumptions.push_back(
        "holds for any data and any clipping bound B: clipping, not an assumption on the data, bounds the "
        "sensitivity (Theorem 3.1 of the DP-GIBO paper)");
    statement.assumptions.push_back("the privacy noise is fresh and secret (see the randomness record)");
    return statement;
}

}  // namespace dpbo
