// The public entry points: validation, the grid, and one RandomBits per call so that a vector of
// releases shares buffered bits.
#include "dpbo/privacy/secure_sampling.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "exact_draw.hpp"
#include "exact_integer.hpp"
#include "exact_rational.hpp"
#include "grid_rounding.hpp"
#include "random_bits.hpp"

namespace dpbo::privacy {

namespace {

// 2^40 grid points per noise scale: the rounding moves a release by at most 2^-40 of the noise's own
// scale, far below anything the noise lets an observer resolve, and it keeps scale/g a 53-bit
// mantissa over 2^12 or 2^13, so the common rounding fits in 128-bit integers.
constexpr int kGridPointsPerScaleBits = 40;
// |noise| beyond 2^24 scales has probability below exp(−2^47); the largest scale leaves that much
// room under the double range, so a release is finite unless the value itself is near its top.
constexpr int kNoiseHeadroomBits = 24;
constexpr int kLowestGridExponent = -1022;  // the smallest normal double

int ceil_log2(double scale) {
    int exponent = 0;
    const double fraction = std::frexp(scale, &exponent);  // scale = fraction · 2^exponent
    return fraction == 0.5 ? exponent - 1 : exponent;
}

int grid_exponent(double scale, std::string_view what) {
    if (!std::isfinite(scale) || !(scale > 0.0)) {
        throw ValidationError(
            fmt::format("{} = {:.17g} is not allowed; the noise scale must be a finite number > 0", what, scale));
    }
    const int exponent = ceil_log2(scale) - kGridPointsPerScaleBits;
    if (exponent < kLowestGridExponent) {
        throw ValidationError(fmt::format(
            "{} = {:.17g} is too small: its release grid 2^{} would not be a normal double; allowed: a noise "
            "scale above 2^{}",
            what, scale, exponent, kLowestGridExponent - 1 + kGridPointsPerScaleBits));
    }
    if (ceil_log2(scale) + kNoiseHeadroomBits > 1023) {
        throw ValidationError(fmt::format(
            "{} = {:.17g} is too large: noise at this scale could overflow the double range; allowed: a noise "
            "scale of at most 2^{}",
            what, scale, 1023 - kNoiseHeadroomBits));
    }
    return exponent;
}

void require_finite(double value, std::size_t index, const char* caller) {
    if (!std::isfinite(value)) {
        throw RunError(
            fmt::format("{}: coordinate {} of the value to release is not finite (its value is not "
                        "shown: it is the un-noised answer)",
                        caller, index));
    }
}

using Sampler = void (*)(detail::ExactDraw&, std::uint64_t, detail::RandomBits&);

double release_one(double value, double scale, int grid, std::uint64_t min_integer, Sampler sampler,
                   detail::ExactDraw& draw, detail::RandomBits& bits) {
    sampler(draw, min_integer, bits);
    return detail::round_to_grid({value, scale, grid}, draw, bits);
}

arma::vec release_all(const arma::vec& value, double scale, std::string_view what, Sampler sampler,
                      PrivacyNoiseSource& noise, const char* caller) {
    const int grid = grid_exponent(scale, what);
    for (arma::uword i = 0; i < value.n_elem; ++i) require_finite(value[i], i, caller);
    detail::RandomBits bits(noise);
    detail::ExactDraw draw;
    arma::vec released(value.n_elem);
    for (arma::uword i = 0; i < value.n_elem; ++i)
        released[i] = release_one(value[i], scale, grid, 0, sampler, draw, bits);
    return released;
}

double release_single(double value, double scale, std::uint64_t min_integer, std::string_view what, Sampler sampler,
                      PrivacyNoiseSource& noise, const char* caller) {
    const int grid = grid_exponent(scale, what);
    require_finite(value, 0, caller);
    detail::RandomBits bits(noise);
    detail::ExactDraw draw;
    return release_one(value, scale, grid, min_integer, sampler, draw, bits);
}

}  // namespace

double release_grid(double scale, std::string_view what) { return std::ldexp(1.0, grid_exponent(scale, what)); }

double gaussian_release(double value, double sigma, PrivacyNoiseSource& noise) {
    return release_single(value, sigma, 0, "gaussian_release: sigma", detail::sample_exact_normal, noise,
                          "gaussian_release");
}

arma::vec gaussian_release(const arma::vec& value, double sigma, PrivacyNoiseSource& noise) {
    return release_all(value, sigma, "gaussian_release: sigma", detail::sample_exact_normal, noise, "gaussian_release");
}

double laplace_release(double value, double scale, PrivacyNoiseSource& noise) {
    return release_single(value, scale, 0, "laplace_release: scale", detail::sample_exact_laplace, noise,
                          "laplace_release");
}

arma::vec laplace_release(const arma::vec& value, double scale, PrivacyNoiseSource& noise) {
    return release_all(value, scale, "laplace_release: scale", detail::sample_exact_laplace, noise, "laplace_release");
}

double gaussian_release_tail(double value, double sigma, std::uint32_t min_integer_part, PrivacyNoiseSource& noise) {
    return release_single(value, sigma, min_integer_part, "gaussian_release_tail: sigma", detail::sample_exact_normal,
                          noise, "gaussian_release_tail");
}

double laplace_release_tail(double value, double scale, std::uint32_t min_integer_part, PrivacyNoiseSource& noise) {
    return release_single(value, scale, min_integer_part, "laplace_release_tail: scale", detail::sample_exact_laplace,
                          noise, "laplace_release_tail");
}

bool bernoulli_exp_minus(Ratio gamma, PrivacyNoiseSource& noise) {
    const auto exact = detail::to_rational(gamma, "bernoulli_exp_minus: gamma", false);
    detail::RandomBits bits(noise);
    return detail::bernoulli_exp_minus(exact, bits);
}

double discrete_laplace_release(double integer_value, Ratio decay, PrivacyNoiseSource& noise) {
    const auto exact = detail::to_rational(decay, "discrete_laplace_release: decay", true);
    if (!std::isfinite(integer_value) || std::trunc(integer_value) != integer_value) {
        throw RunError(
            "discrete_laplace_release: the value to release is not a finite integer (its value is not "
            "shown: it is the un-noised answer)");
    }
    detail::RandomBits bits(noise);
    return detail::nearest_double(detail::integer_of(integer_value) + detail::discrete_laplace(exact, bits), 0);
}

std::uint64_t uniform_below(std::uint64_t bound, PrivacyNoiseSource& noise) {
    if (bound == 0) throw ValidationError("uniform_below: bound = 0 is not allowed; allowed: an integer >= 1");
    detail::RandomBits bits(noise);
    return bits.uniform_below(bound);
}

}  // namespace dpbo::privacy
