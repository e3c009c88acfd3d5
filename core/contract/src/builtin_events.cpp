// The built-in event kinds: their schemas (what `dpbo account --event KIND:...` reads), checks,
// one-line texts, parameters and views. The texts are those every journal has recorded; a journal
// compares descriptions as text when it replays, so they must not change.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_event.hpp"
#include "privacy/laplace_rdp.hpp"

namespace dpbo {

namespace {

double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

// numerator/denominator rounded up: the exact residual q·d − n (one rounding in fma keeps its sign)
// says whether the correctly rounded quotient fell below the true value.
double quotient_rounded_up(double numerator, double denominator) {
    double q = numerator / denominator;
    if (std::fma(q, denominator, -numerator) < 0.0) q = up(q);
    return q;
}

void require_order(std::string_view kind, double alpha) {
    if (!(alpha > 1.0))
        throw ValidationError(
            fmt::format("privacy event '{}': RDP order alpha = {}; allowed: a number > 1", kind, alpha));
}

// αμ²/2, each product rounded up: the Gaussian mechanism's RDP (Mironov 2017, Prop. 7).
double gaussian_rdp_upper(double mu, double alpha) { return up(alpha * up(mu * mu)) / 2.0; }

RealOptions required_real(std::string doc) { return {.required = true, .doc = std::move(doc)}; }

}  // namespace

// --- gaussian ---------------------------------------------------------------------------------
ParameterSchema GaussianEvent::schema() {
    ParameterSchema schema;
    schema.real("sigma", required_real("standard deviation σ of the noise (> 0)"))
        .real("sensitivity", required_real("L2 sensitivity Δ of the query (> 0)"));
    return schema;
}
GaussianEvent::GaussianEvent(const ParameterSet& p) : GaussianEvent(p.real("sigma"), p.real("sensitivity")) {}
std::string_view GaussianEvent::kind() const { return kind_name; }
void GaussianEvent::validate() const {
    const EventParameterCheck check(kind_name);
    check.positive("sigma", sigma);
    check.positive("sensitivity", sensitivity);
}
std::string GaussianEvent::parameter_text() const {
    return fmt::format("sigma = {}, L2 sensitivity = {}", event_number(sigma), event_number(sensitivity));
}
std::map<std::string, ParameterValue> GaussianEvent::parameters() const {
    return {{"sigma", sigma}, {"sensitivity", sensitivity}};
}
// Gaussian noise σ on an L2-sensitivity-Δ query is (Δ/σ)-GDP (Dong, Roth & Su 2022, Thm. 2.7); the
// quotient is rounded up, never below the true μ (+∞ when it overflows).
std::optional<double> GaussianEvent::gdp_mu() const { return quotient_rounded_up(sensitivity, sigma); }
std::optional<double> GaussianEvent::rdp_epsilon(double alpha) const {
    require_order(kind_name, alpha);
    return gaussian_rdp_upper(*gdp_mu(), alpha);
}

// --- gdp --------------------------------------------------------------------------------------
ParameterSchema GdpEvent::schema() {
    ParameterSchema schema;
    schema.real("mu", required_real("μ of the μ-GDP guarantee (> 0)"));
    return schema;
}
GdpEvent::GdpEvent(const ParameterSet& p) : GdpEvent(p.real("mu")) {}
std::string_view GdpEvent::kind() const { return kind_name; }
void GdpEvent::validate() const { EventParameterCheck(kind_name).positive("mu", mu); }
std::string GdpEvent::parameter_text() const { return fmt::format("mu = {}", event_number(mu)); }
std::map<std::string, ParameterValue> GdpEvent::parameters() const { return {{"mu", mu}}; }
std::optional<double> GdpEvent::gdp_mu() const { return mu; }
std::optional<double> GdpEvent::rdp_epsilon(double alpha) const {
    require_order(kind_name, alpha);
    return gaussian_rdp_upper(mu, alpha);
}

// --- laplace ----------------------------------------------------------------------------------
ParameterSchema LaplaceEvent::schema() {
    ParameterSchema schema;
    schema.real("scale", required_real("scale b of the noise (> 0)"))
        .real("sensitivity", required_real("L1 sensitivity Δ₁ of the query (> 0)"));
    return schema;
}
LaplaceEvent::LaplaceEvent(const ParameterSet& p) : LaplaceEvent(p.real("scale"), p.real("sensitivity")) {}
std::string_view LaplaceEvent::kind() const { return kind_name; }
void LaplaceEvent::validate() const {
    const EventParameterCheck check(kind_name);
    check.positive("scale", scale);
    check.positive("sensitivity", sensitivity);
}
std::string LaplaceEvent::parameter_text() const {
    return fmt::format("scale b = {}, L1 sensitivity = {}", event_number(scale), event_number(sensitivity));
}
std::map<std::string, ParameterValue> LaplaceEvent::parameters() const {
    return {{"scale", scale}, {"sensitivity", sensitivity}};
}
// (Δ₁/b)-DP, the quotient rounded up (+∞ when it overflows).
std::optional<ApproximateDp> LaplaceEvent::approximate_dp() const {
    return ApproximateDp{quotient_rounded_up(sensitivity, scale), 0.0};
}
std::optional<double> LaplaceEvent::rdp_epsilon(double alpha) const {
    require_order(kind_name, alpha);
    return privacy::laplace_rdp_upper(up(sensitivity / scale), alpha);
}

// --- exponential ------------------------------------------------------------------------------
ParameterSchema ExponentialEvent::schema() {
    ParameterSchema schema;
    schema.real("epsilon", required_real("ε of the selection (> 0)"))
        .real("quality_sensitivity", required_real("sensitivity Δq of the quality scores (> 0)"));
    return schema;
}
ExponentialEvent::ExponentialEvent(const ParameterSet& p)
    : ExponentialEvent(p.real("epsilon"), p.real("quality_sensitivity")) {}
std::string_view ExponentialEvent::kind() const { return kind_name; }
void ExponentialEvent::validate() const {
    const EventParameterCheck check(kind_name);
    check.positive("epsilon", epsilon);
    check.positive("quality_sensitivity", quality_sensitivity);
}
std::string ExponentialEvent::parameter_text() const {
    return fmt::format("epsilon = {}, quality sensitivity = {}", event_number(epsilon),
                       event_number(quality_sensitivity));
}
std::map<std::string, ParameterValue> ExponentialEvent::parameters() const {
    return {{"epsilon", epsilon}, {"quality_sensitivity", quality_sensitivity}};
}
std::optional<ApproximateDp> ExponentialEvent::approximate_dp() const { return ApproximateDp{epsilon, 0.0}; }

// --- subsampled-gaussian ----------------------------------------------------------------------
namespace {

constexpr const char* kPoisson = "poisson";
constexpr const char* kWithoutReplacement = "fixed-size-without-replacement";
constexpr const char* kAddRemoveOne = "add-remove-one";
constexpr const char* kReplaceOne = "replace-one";

// A value with a short alias (sampling_rate / q): exactly one of the two must be given.
double aliased(const ParameterSet& p, const char* key, const char* alias) {
    constexpr auto kind = SubsampledGaussianEvent::kind_name;
    if (p.has(key) && p.has(alias))
        throw ValidationError(
            fmt::format("privacy event '{}': keys '{}' and '{}' name the same value; give one", kind, key, alias));
    if (!p.has(key) && !p.has(alias))
        throw ValidationError(fmt::format("privacy event '{}' needs key '{}' (or its alias '{}')", kind, key, alias));
    return p.real(p.has(alias) ? alias : key);
}

}  // namespace

ParameterSchema SubsampledGaussianEvent::schema() {
    ParameterSchema schema;
    schema.real("sampling_rate", {.doc = "sampling rate q in (0, 1]; or give q"})
        .real("q", {.doc = "alias of sampling_rate"})
        .real("noise_multiplier", {.doc = "noise multiplier σ (noise σ·Δ, > 0); or give sigma"})
        .real("sigma", {.doc = "alias of noise_multiplier"})
        .integer("steps", {.lower = 1, .required = true, .doc = "number of subsampled releases"})
        .choice("sampling", {kPoisson, kWithoutReplacement, "without-replacement"},
                ChoiceOptions{.required = true,
                              .doc = "poisson (each record independently with probability q) or fixed-size batches "
                                     "drawn without replacement (without-replacement is an alias)"})
        .choice("neighbouring", {kAddRemoveOne, kReplaceOne},
                ChoiceOptions{.doc = "the neighbouring relation; default: the one the sampling's bound is proved "
                                     "for (poisson: add-remove-one; without replacement: replace-one)"});
    return schema;
}
SubsampledGaussianEvent::SubsampledGaussianEvent(const ParameterSet& p)
    : sampling_rate(aliased(p, "sampling_rate", "q")),
      noise_multiplier(aliased(p, "noise_multiplier", "sigma")),
      steps(static_cast<std::size_t>(p.integer("steps"))),
      sampling(p.text("sampling") == kPoisson ? Sampling::Poisson : Sampling::FixedSizeWithoutReplacement),
      neighbouring(p.has("neighbouring") ? (p.text("neighbouring") == kAddRemoveOne ? Neighbouring::AddRemoveOne
                                                                                    : Neighbouring::ReplaceOne)
                   : sampling == Sampling::Poisson ? Neighbouring::AddRemoveOne
                                                   : Neighbouring::ReplaceOne) {}
std::string_view SubsampledGaussianEvent::kind() const { return kind_name; }
void SubsampledGaussianEvent::validate() const {
    const EventParameterCheck check(kind_name);
    check.in_unit_interval_right_closed("sampling_rate", sampling_rate);
    check.positive("noise_multiplier", noise_multiplier);
    check.at_least_one("steps", steps);
}
std::string SubsampledGaussianEvent::parameter_text() const {
    return fmt::format("sampling rate q = {}, noise multiplier = {}, steps = {}, {} sampling, {}",
                       event_number(sampling_rate), event_number(noise_multiplier), steps, to_string(sampling),
                       to_string(neighbouring));
}
std::map<std::string, ParameterValue> SubsampledGaussianEvent::parameters() const {
    return {{"sampling_rate", sampling_rate},
            {"noise_multiplier", noise_multiplier},
            {"steps", static_cast<std::int64_t>(steps)},
            {"sampling", std::string(to_string(sampling))},
            {"neighbouring", std::string(to_string(neighbouring))}};
}

std::string_view to_string(SubsampledGaussianEvent::Sampling sampling) {
    return sampling == SubsampledGaussianEvent::Sampling::Poisson ? kPoisson : kWithoutReplacement;
}

std::string_view to_string(SubsampledGaussianEvent::Neighbouring neighbouring) {
    return neighbouring == SubsampledGaussianEvent::Neighbouring::AddRemoveOne ? kAddRemoveOne : kReplaceOne;
}

// --- pure -------------------------------------------------------------------------------------
ParameterSchema PureDpEvent::schema() {
    ParameterSchema schema;
    schema.real("epsilon", required_real("ε of the stated ε-DP guarantee (> 0)"));
    return schema;
}
PureDpEvent::PureDpEvent(const ParameterSet& p) : PureDpEvent(p.real("epsilon")) {}
std::string_view PureDpEvent::kind() const { return kind_name; }
void PureDpEvent::validate() const { EventParameterCheck(kind_name).positive("epsilon", epsilon); }
std::string PureDpEvent::parameter_text() const { return fmt::format("epsilon = {}", event_number(epsilon)); }
std::map<std::string, ParameterValue> PureDpEvent::parameters() const { return {{"epsilon", epsilon}}; }
std::optional<ApproximateDp> PureDpEvent::approximate_dp() const { return ApproximateDp{epsilon, 0.0}; }

// --- approx -----------------------------------------------------------------------------------
ParameterSchema ApproxDpEvent::schema() {
    ParameterSchema schema;
    schema.real("epsilon", required_real("ε of the stated (ε, δ)-DP guarantee (>= 0)"))
        .real("delta", required_real("δ of the stated (ε, δ)-DP guarantee, in [0, 1)"));
    return schema;
}
ApproxDpEvent::ApproxDpEvent(const ParameterSet& p) : ApproxDpEvent(p.real("epsilon"), p.real("delta")) {}
std::string_view ApproxDpEvent::kind() const { return kind_name; }
void ApproxDpEvent::validate() const {
    const EventParameterCheck check(kind_name);
    // ε = 0 with δ > 0: a sensitivity bound that fails with probability δ (Kusner et al. 2015,
    // Theorems 1, 3, 5), charged beside the pure release.
    check.non_negative("epsilon", epsilon);
    check.probability_below_one("delta", delta);
    if (epsilon == 0.0 && delta == 0.0)
        throw ValidationError(
            fmt::format("privacy event '{}': epsilon = 0 and delta = 0 claim nothing; allowed: "
                        "epsilon > 0 or delta > 0",
                        kind_name));
}
std::string ApproxDpEvent::parameter_text() const {
    return fmt::format("epsilon = {}, delta = {}", event_number(epsilon), event_number(delta));
}
std::map<std::string, ParameterValue> ApproxDpEvent::parameters() const {
    return {{"epsilon", epsilon}, {"delta", delta}};
}
std::optional<ApproximateDp> ApproxDpEvent::approximate_dp() const { return ApproximateDp{epsilon, delta}; }

}  // namespace dpbo
