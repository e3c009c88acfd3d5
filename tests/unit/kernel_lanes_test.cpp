// The kernels' vectorised loops (core/bo/src/gp/kernel_lanes.hpp): distances by differences with the
// plain loop's bits for every shape around their blocks of 8 and 256 rows; the profiles' own
// exponential within a few units in the last place of the C library's over the kernels' range and at
// its edges (0, the underflow to 0, overflow, NaN); the profiles' textbook values, independent of
// where an entry sits in its block of eight; and the fused kernel values equal to the two passes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <armadillo>

#include "dpbo/random.hpp"
#include "gp/kernel_lanes.hpp"

namespace {

// Each entry summed over the dimensions in order, as the routine promises to round. Compiled for the
// baseline x86-64, which has no fused multiply-add to contract into.
arma::mat reference_distances(const arma::mat& a, const arma::mat& b_by_column) {
    arma::mat out(a.n_rows, b_by_column.n_cols);
    for (arma::uword j = 0; j < b_by_column.n_cols; ++j) {
        for (arma::uword i = 0; i < a.n_rows; ++i) {
            double sum = 0.0;
            for (arma::uword k = 0; k < a.n_cols; ++k) {
                const double difference = a(i, k) - b_by_column(k, j);
                sum += difference * difference;
            }
            out(i, j) = sum;
        }
    }
    return out;
}

// |a − b| in units of the spacing of doubles at b.
double ulps(double a, double b) { return std::fabs(a - b) / (std::nextafter(std::fabs(b), INFINITY) - std::fabs(b)); }

}  // namespace

TEST_CASE("distances by differences: the plain loop's bits for every shape") {
    dpbo::ExperimentRng rng(11);
    for (const std::size_t rows : {1, 7, 8, 9, 255, 256, 257, 600}) {
        for (const std::size_t columns : {1, 3, 17}) {
            for (const std::size_t dims : {1, 2, 3, 10, 16}) {
                CAPTURE(rows);
                CAPTURE(columns);
                CAPTURE(dims);
                // Coordinates of very different sizes, so that any regrouping of the sum shows.
                const arma::mat a = (rng.uniform(rows, dims) - 0.5) * 1e3;
                const arma::mat b = rng.uniform(dims, columns) - 0.5;
                arma::mat out(rows, columns);
                dpbo::gp::detail::squared_distances_by_differences(a.memptr(), rows, b.memptr(), columns, dims,
                                                                   out.memptr());
                const arma::mat expected = reference_distances(a, b);
                CHECK(std::memcmp(out.memptr(), expected.memptr(), out.n_elem * sizeof(double)) == 0);
            }
        }
    }
}

TEST_CASE("distances by differences: a point against itself is exactly 0, and none is negative") {
    dpbo::ExperimentRng rng(12);
    const arma::mat a = rng.uniform(37, 4) * 1e8;
    const arma::mat b = a.rows(5, 9).t();
    arma::mat out(37, 5);
    dpbo::gp::detail::squared_distances_by_differences(a.memptr(), 37, b.memptr(), 5, 4, out.memptr());
    for (arma::uword j = 0; j < 5; ++j) CHECK(out(5 + j, j) == 0.0);
    CHECK(out.min() >= 0.0);
}

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
            dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::Matern52, values.memptr(), slope.memptr(),
                                             values.n_elem, variance);
        } else {
            dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::SquaredExponential, values.memptr(),
                                             slope.memptr(), values.n_elem, variance);
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
                dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::Matern52, moved.data(), nullptr,
                                                 moved.size(), variance);
            } else {
                dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::SquaredExponential, moved.data(),
                                                 nullptr, moved.size(), variance);
            }
            CHECK(std::memcmp(moved.data() + shift, values.memptr(), values.n_elem * sizeof(double)) == 0);
        }
        for (arma::uword i = 0; i < r2.n_elem; ++i) {
            double alone = r2[i];
            if (matern) {
                dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::Matern52, &alone, nullptr, 1,
                                                 variance);
            } else {
                dpbo::gp::detail::profile_values(dpbo::gp::detail::ProfileFamily::SquaredExponential, &alone, nullptr,
                                                 1, variance);
            }
            CHECK(std::memcmp(&alone, &values[i], sizeof(double)) == 0);
        }
    }
}

TEST_CASE("kernel values by differences: the bits of the distances and then the profile, for both profiles") {
    dpbo::ExperimentRng rng(16);
    for (const auto family :
         {dpbo::gp::detail::ProfileFamily::SquaredExponential, dpbo::gp::detail::ProfileFamily::Matern52}) {
        for (const std::size_t rows : {1, 9, 300}) {
            CAPTURE(rows);
            const std::size_t dims = 5;
            const std::size_t columns = 4;
            const arma::mat a = rng.uniform(rows, dims) * 3.0;
            const arma::mat b = rng.uniform(dims, columns) * 3.0;
            arma::mat two_passes(rows, columns);
            dpbo::gp::detail::squared_distances_by_differences(a.memptr(), rows, b.memptr(), columns, dims,
                                                               two_passes.memptr());
            dpbo::gp::detail::profile_values(family, two_passes.memptr(), nullptr, two_passes.n_elem, 0.8);
            arma::mat fused(rows, columns);
            dpbo::gp::detail::kernel_values_by_differences(family, 0.8, a.memptr(), rows, b.memptr(), columns, dims,
                                                           fused.memptr());
            CHECK(std::memcmp(fused.memptr(), two_passes.memptr(), fused.n_elem * sizeof(double)) == 0);
        }
    }
}
