#include "event_mechanism.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::pld {
namespace {

// Noise over sensitivity, rounded toward zero: less noise never understates the loss.
double ratio_down(double noise, double sensitivity) { return std::nextafter(noise / sensitivity, 0.0); }

// Below this σ/Δ the loss's scale 1/σ² leaves double range. The mechanism is then, to double
// precision, its σ → 0 limit: the record's presence revealed whenever it is sampled, (0, q)-DP in
// both directions, which randomized response's (0, q) distribution dominates.
constexpr double kSmallestNoise = 1e-100;

Mechanism gaussian(double noise_over_sensitivity, double sampling_rate = 1.0) {
    if (noise_over_sensitivity < kSmallestNoise) return {Mechanism::Kind::ApproximateDp, 0.0, sampling_rate};
    return {Mechanism::Kind::SubsampledGaussian, noise_over_sensitivity, sampling_rate};
}

EventMechanism subsampled(const SubsampledGaussianEvent& event, const PrivacyEvent& charge, Relation relation,
                          std::string_view owner) {
    using S = SubsampledGaussianEvent;
    const bool poisson = event.sampling == S::Sampling::Poisson;
    // Poisson subsampling is amplified for add/remove-one neighbours (Zhu, Dong & Wang 2022), fixed-size
    // sampling without replacement for replace-one (Dong, Roth & Su 2022, Sec. 4).
    const S::Neighbouring proved = poisson ? S::Neighbouring::AddRemoveOne : S::Neighbouring::ReplaceOne;
    if (event.neighbouring != proved)
        throw ValidationError(
            fmt::format("{}: event 'subsampled-gaussian' with sampling = {} and neighbouring = {} is refused: its "
                        "privacy-loss distribution is proved for neighbouring = {} only (Zhu, Dong & Wang 2022)",
                        owner, to_string(event.sampling), to_string(event.neighbouring), to_string(proved)));
    const Relation wanted = poisson ? Relation::AddRemoveOne : Relation::ReplaceOne;
    if (relation != Relation::Any && relation != wanted)
        throw ValidationError(fmt::format(
            "{}: event 'subsampled-gaussian' with sampling = {} is refused: the composition already holds a "
            "subsampled event under the other neighbouring relation (add-remove-one for poisson, replace-one for "
            "fixed-size-without-replacement), and the two guarantees do not compose",
            owner, to_string(event.sampling)));
    Mechanism mechanism = gaussian(event.noise_multiplier, event.sampling_rate);
    // Without replacement the two directions cannot be composed apart (see mechanism_plds.hpp).
    if (!poisson && mechanism.kind == Mechanism::Kind::SubsampledGaussian && mechanism.second < 1.0)
        mechanism.kind = Mechanism::Kind::WithoutReplacementGaussian;
    return {mechanism, event.steps * charge.repetitions, wanted};
}

}  // namespace

std::string relation_text(Relation relation) {
    switch (relation) {
        case Relation::AddRemoveOne:
            return "add or remove one record";
        case Relation::ReplaceOne:
            return "replace one record";
        case Relation::Any:
            break;
    }
    return "the relation under which each event's sensitivity is stated";
}

std::vector<std::string> named_event_kinds() {
    return {std::string(GaussianEvent::kind_name),
            std::string(GdpEvent::kind_name),
            std::string(LaplaceEvent::kind_name),
            std::string(ExponentialEvent::kind_name),
            std::string(SubsampledGaussianEvent::kind_name),
            std::string(PureDpEvent::kind_name),
            std::string(ApproxDpEvent::kind_name)};
}

EventMechanism event_mechanism(const PrivacyEvent& event, Relation relation, std::string_view owner) {
    const std::size_t times = event.repetitions;
    if (const auto* g = event.as<GaussianEvent>())
        return {gaussian(ratio_down(g->sigma, g->sensitivity)), times, relation};
    if (const auto* l = event.as<LaplaceEvent>())
        return {{Mechanism::Kind::Laplace, ratio_down(l->scale, l->sensitivity), 0.0}, times, relation};
    if (const auto* s = event.as<SubsampledGaussianEvent>()) return subsampled(*s, event, relation, owner);
    // μ-GDP is exactly the Gaussian mechanism with σ/Δ = 1/μ (Dong, Roth & Su 2022, Thm. 2.7); the
    // gdp kind and any plugin kind offering the view.
    if (const auto mu = event.description().gdp_mu()) return {gaussian(ratio_down(1.0, *mu)), times, relation};
    // Exponential, pure, approx and any kind stating (ε, δ): randomized response's distribution
    // dominates every (ε, δ)-DP mechanism (Kairouz, Oh & Viswanath 2015).
    if (const auto dp = event.description().approximate_dp())
        return {{Mechanism::Kind::ApproximateDp, dp->epsilon, dp->delta}, times, relation};
    throw ValidationError(
        fmt::format("{}: event {} offers neither a μ-GDP nor an (ε, δ) view", owner, event.describe()));
}

}  // namespace dpbo::pld
