// The prediction profiles' own exponential (core/bo/src/gp/prediction_profile.hpp): within a few
// units in the last place of the C library's over the kernels' whole range, its edges (0, the
// underflow to 0, overflow, NaN), and the profiles' values independent of where an entry sits in
// its block of eight (the same bits in a full block and in the padded last one).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <armadillo>

#include "dpbo/random.hpp"
#include "gp/prediction_profile.hpp"

namespace {

// |a − b| in units of the spacing of doubles at b.
double ulps(double a, double b) { return std::fabs(a - b) / (std::nextafter(std::fabs(b), INFINITY) - std::fabs(b)); }

}  // namespace

TEST_CASE("prediction profile exp: within 2 ulp of the C library's from −708 to 709, 0 below, ∞ above") {
    using dpbo::gp::detail::profile_exp;
    dpbo::ExperimentRng rng(14);
    const arma::vec xs =
        arma::join_cols(arma::vec(rng.uniform(200000, 1)) * -708.0, arma::vec(rng.uniform(20000, 1)) * 2.0 - 1.0,
                        arma::vec(rng.uniform(20000, 1)) * 709.0);
    double worst = 0.0;
    for (const double x : xs) worst = std::max(worst, ulps(profile_exp(x), std::exp(x)));
    CHECK(worst <= 2.0);
    CHECK(profile_exp(0.0) == 1.0);
    CHECK(profile_exp(-0.0) == 1.0);
    CHECK(profile_exp(-709.5) == 0.0);
    CHECK(profile_exp(-1e300) == 0.0);
    CHECK(profile_exp(-std::numeric_limits<double>::infinity()) == 0.0);
    CHECK(std::isinf(profile_exp(710.0)));
    CHECK(std::isnan(profile_exp(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("prediction profiles: the textbook values, the slope, and the same bits wherever an entry sits") {
    dpbo::ExperimentRng rng(15);
    const double variance = 1.7;
    for (const bool matern : {false, true}) {
        CAPTURE(matern);
        const arma::vec r2 = arma::square(arma::vec(rng.uniform(29, 1)) * 6.0);
        arma::vec values = r2;
        arma::vec slope(r2.n_elem);
        if (matern) {
            dpbo::gp::detail::matern52_values(values.memptr(), slope.memptr(), values.n_elem, variance);
        } else {
            dpbo::gp::detail::squared_exponential_values(values.memptr(), slope.memptr(), values.n_elem, variance);
        }
        for (arma::uword i = 0; i < r2.n_elem; ++i) {
            const double r = std::sqrt(r2[i]);
            const double decay = variance * std::exp(matern ? -std::sqrt(5.0) * r : -0.5 * r2[i]);
            const double value = matern ? (1.0 + std::sqrt(5.0) * r + 5.0 / 3.0 * r2[i]) * decay : decay;
            const double slope_value = matern ? 5.0 / 3.0 * (1.0 + std::sqrt(5.0) * r) * decay : decay;
            CHECK(values[i] == doctest::Approx(value).epsilon(1e-14));
            CHECK(slope[i] == doctest::Approx(slope_value).epsilon(1e-14));
        }
        // Every entry again on its own (a padded block of one) and shifted by 1…7 places.
        for (std::size_t shift = 0; shift < 8; ++shift) {
            std::vector<double> moved(shift, 0.25);
            moved.insert(moved.end(), r2.begin(), r2.end());
            if (matern) {
                dpbo::gp::detail::matern52_values(moved.data(), nullptr, moved.size(), variance);
            } else {
                dpbo::gp::detail::squared_exponential_values(moved.data(), nullptr, moved.size(), variance);
            }
            CHECK(std::memcmp(moved.data() + shift, values.memptr(), values.n_elem * sizeof(double)) == 0);
        }
        for (arma::uword i = 0; i < r2.n_elem; ++i) {
            double alone = r2[i];
            if (matern) {
                dpbo::gp::detail::matern52_values(&alone, nullptr, 1, variance);
            } else {
                dpbo::gp::detail::squared_exponential_values(&alone, nullptr, 1, variance);
            }
            CHECK(std::memcmp(&alone, &values[i], sizeof(double)) == 0);
        }
    }
}
