#include "dpbo/privacy_event.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

// "{:.17g}" would print 0.1 as 0.10000000000000001; the shortest round-trip text is what the user typed.
std::string number(double value) { return fmt::format("{}", value); }

class FieldCheck {
public:
    explicit FieldCheck(PrivacyEventKind kind) : kind_(kind) {}

    void positive(const char* field, double value) const {
        if (!(std::isfinite(value) && value > 0.0)) refuse(field, number(value), "a finite number > 0");
    }
    void in_unit_interval_right_closed(const char* field, double value) const {
        if (!(value > 0.0 && value <= 1.0)) refuse(field, number(value), "a number in (0, 1]");
    }
    void probability_below_one(const char* field, double value) const {
        if (!(value >= 0.0 && value < 1.0)) refuse(field, number(value), "a number in [0, 1)");
    }
    void non_negative(const char* field, double value) const {
        if (!(std::isfinite(value) && value >= 0.0)) refuse(field, number(value), "a finite number >= 0");
    }
    void at_least_one(const char* field, std::size_t value) const {
        if (value == 0) refuse(field, "0", "an integer >= 1");
    }

private:
    [[noreturn]] void refuse(const char* field, const std::string& value, const char* allowed) const {
        throw ValidationError(
            fmt::format("privacy event '{}': '{}' = {}; allowed: {}", to_string(kind_), field, value, allowed));
    }
    PrivacyEventKind kind_;
};

}  // namespace

std::string_view to_string(SensitivityNorm norm) {
    switch (norm) {
        case SensitivityNorm::L1: return "L1";
        case SensitivityNorm::L2: return "L2";
        case SensitivityNorm::LInf: return "LInf";
    }
    return "unknown";
}

double vector_sensitivity(SensitivityNorm norm, double per_value, std::size_t k) {
    const double count = static_cast<double>(k);
    switch (norm) {
        case SensitivityNorm::L2: return per_value * std::sqrt(count);
        case SensitivityNorm::L1: return per_value * count;
        case SensitivityNorm::LInf: return per_value;
    }
    return per_value * count;
}

std::string_view to_string(PrivacyEventKind kind) {
    switch (kind) {
        case PrivacyEventKind::Gaussian: return "gaussian";
        case PrivacyEventKind::Gdp: return "gdp";
        case PrivacyEventKind::Laplace: return "laplace";
        case PrivacyEventKind::Exponential: return "exponential";
        case PrivacyEventKind::SubsampledGaussian: return "subsampled-gaussian";
        case PrivacyEventKind::PureDp: return "pure";
        case PrivacyEventKind::ApproxDp: return "approx";
    }
    return "unknown";
}

std::vector<PrivacyEventKind> all_privacy_event_kinds() {
    return {PrivacyEventKind::Gaussian,           PrivacyEventKind::Gdp,    PrivacyEventKind::Laplace,
            PrivacyEventKind::Exponential,        PrivacyEventKind::SubsampledGaussian,
            PrivacyEventKind::PureDp,             PrivacyEventKind::ApproxDp};
}

std::string_view to_string(SubsampledGaussianEvent::Sampling sampling) {
    return sampling == SubsampledGaussianEvent::Sampling::Poisson ? "poisson" : "fixed-size-without-replacement";
}

std::string_view to_string(SubsampledGaussianEvent::Neighbouring neighbouring) {
    return neighbouring == SubsampledGaussianEvent::Neighbouring::AddRemoveOne ? "add-remove-one" : "replace-one";
}

PrivacyEventKind PrivacyEvent::kind() const {
    return std::visit(Overloaded{
                          [](const GaussianEvent&) { return PrivacyEventKind::Gaussian; },
                          [](const GdpEvent&) { return PrivacyEventKind::Gdp; },
                          [](const LaplaceEvent&) { return PrivacyEventKind::Laplace; },
                          [](const ExponentialEvent&) { return PrivacyEventKind::Exponential; },
                          [](const SubsampledGaussianEvent&) { return PrivacyEventKind::SubsampledGaussian; },
                          [](const PureDpEvent&) { return PrivacyEventKind::PureDp; },
                          [](const ApproxDpEvent&) { return PrivacyEventKind::ApproxDp; },
                      },
                      mechanism);
}

void PrivacyEvent::validate() const {
    const FieldCheck check(kind());
    check.at_least_one("repetitions", repetitions);
    std::visit(Overloaded{
                   [&](const GaussianEvent& e) {
                       check.positive("sigma", e.sigma);
                       check.positive("sensitivity", e.sensitivity);
                   },
                   [&](const GdpEvent& e) { check.positive("mu", e.mu); },
                   [&](const LaplaceEvent& e) {
                       check.positive("scale", e.scale);
                       check.positive("sensitivity", e.sensitivity);
                   },
                   [&](const ExponentialEvent& e) {
                       check.positive("epsilon", e.epsilon);
                       check.positive("quality_sensitivity", e.quality_sensitivity);
                   },
                   [&](const SubsampledGaussianEvent& e) {
                       check.in_unit_interval_right_closed("sampling_rate", e.sampling_rate);
                       check.positive("noise_multiplier", e.noise_multiplier);
                       check.at_least_one("steps", e.steps);
                   },
                   [&](const PureDpEvent& e) { check.positive("epsilon", e.epsilon); },
                   [&](const ApproxDpEvent& e) {
                       // ε = 0 with δ > 0: a sensitivity bound that fails with probability δ
                       // (Kusner et al. 2015, Theorems 1, 3, 5), charged beside the pure release.
                       check.non_negative("epsilon", e.epsilon);
                       check.probability_below_one("delta", e.delta);
                       if (e.epsilon == 0.0 && e.delta == 0.0)
                           throw ValidationError(fmt::format("privacy event '{}': epsilon = 0 and delta = 0 "
                                                             "claim nothing; allowed: epsilon > 0 or delta > 0",
                                                             to_string(kind())));
                   },
               },
               mechanism);
}

std::string PrivacyEvent::describe() const {
    const std::string parameters = std::visit(
        Overloaded{
            [](const GaussianEvent& e) {
                return fmt::format("sigma = {}, L2 sensitivity = {}", number(e.sigma), number(e.sensitivity));
            },
            [](const GdpEvent& e) { return fmt::format("mu = {}", number(e.mu)); },
            [](const LaplaceEvent& e) {
                return fmt::format("scale b = {}, L1 sensitivity = {}", number(e.scale), number(e.sensitivity));
            },
            [](const ExponentialEvent& e) {
                return fmt::format("epsilon = {}, quality sensitivity = {}", number(e.epsilon),
                                   number(e.quality_sensitivity));
            },
            [](const SubsampledGaussianEvent& e) {
                return fmt::format("sampling rate q = {}, noise multiplier = {}, steps = {}, {} sampling, {}",
                                   number(e.sampling_rate), number(e.noise_multiplier), e.steps,
                                   to_string(e.sampling), to_string(e.neighbouring));
            },
            [](const PureDpEvent& e) { return fmt::format("epsilon = {}", number(e.epsilon)); },
            [](const ApproxDpEvent& e) {
                return fmt::format("epsilon = {}, delta = {}", number(e.epsilon), number(e.delta));
            },
        },
        mechanism);
    std::string out = fmt::format("{} ({})", to_string(kind()), parameters);
    if (repetitions != 1) out += fmt::format(" x {}", repetitions);
    if (!what.empty()) out += ": " + what;
    return out;
}

}  // namespace dpbo
