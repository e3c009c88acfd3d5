// A shifted sphere Σ (x_i − c_i)² on a box: the simplest objective whose optimiser is known
// exactly, for checking that a search finds what it should. Holds no sensitive data; optional
// Gaussian observation noise.
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"
#include "memory_bound.hpp"

namespace {

// What one coordinate costs at least: its name and bounds in the space (about 64 bytes) and a few
// copies of a point's coordinate while evaluating.
constexpr double kBytesPerDimension = 96.0;

constexpr const char* kOwner = "objective 'quadratic'";
constexpr double kDefaultCentreCoordinate = 0.3;

class Quadratic final : public dpbo::Objective, public dpbo::ObservationNoise, public dpbo::HasKnownOptimum {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 2, .lower = 1, .doc = "number of dimensions"})
            .real_list("centre", std::nullopt,
                       "the minimiser, one coordinate per dimension inside [lower, upper] "
                       "(absent: 0.3 in every coordinate)")
            .real("lower", {.fallback = 0.0, .doc = "lower bound of every coordinate"})
            .real("upper", {.fallback = 1.0, .doc = "upper bound of every coordinate"});
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit Quadratic(const dpbo::ParameterSet& parameters)
        : dim_(static_cast<std::size_t>(parameters.integer("dim"))),
          space_(checked_space(dim_, parameters.real("lower"), parameters.real("upper"))),
          centre_(checked_centre(parameters, dim_)),
          noise_stddev_(parameters.real("noise_stddev")) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != dim_) {
            throw dpbo::RunError(fmt::format("{}: points have {} columns; dim = {}", kOwner, points.n_cols, dim_));
        }
        dpbo::Evaluations result;
        result.points = points;
        arma::mat offsets = points;
        offsets.each_row() -= centre_;
        result.values = arma::sum(arma::square(offsets), 1);
        return result;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        dpbo::KnownOptimum optimum;
        optimum.value = 0.0;
        optimum.points = centre_;
        return optimum;
    }

private:
    static dpbo::SearchSpace checked_space(std::size_t dim, double lower, double upper) {
        if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: lower = {} and upper = {} are not allowed; need finite lower < upper", kOwner, lower, upper));
        }
        // The largest value, dim·(upper − lower)², must be a double: past it every evaluation broke the
        // evaluation contract with an infinite value (exit 1) instead of naming lower and upper.
        const double widest = std::sqrt(std::numeric_limits<double>::max() / static_cast<double>(dim));
        if (!(upper - lower <= widest)) {
            throw dpbo::ValidationError(
                fmt::format("{}: lower = {} and upper = {} are too far apart: values up to dim·(upper − lower)² "
                            "would overflow the double range; allowed: upper − lower <= {:.6g} for dim = {}",
                            kOwner, lower, upper, widest, dim));
        }
        dpbo::memory::require(kOwner, fmt::format("dim = {}", dim), static_cast<double>(dim) * kBytesPerDimension,
                              "the search space's name and bounds of each coordinate and a point's copies");
        return dpbo::SearchSpace::uniform_box(dim, lower, upper);
    }

    // The centre must lie in the box, or the known optimum (and every regret) would be wrong.
    static arma::rowvec checked_centre(const dpbo::ParameterSet& parameters, std::size_t dim) {
        const double lower = parameters.real("lower");
        const double upper = parameters.real("upper");
        const bool given = parameters.has("centre");
        const std::vector<double> centre =
            given ? parameters.real_list("centre") : std::vector<double>(dim, kDefaultCentreCoordinate);
        if (centre.size() != dim) {
            throw dpbo::ValidationError(fmt::format("{}: centre = {} has {} coordinates; it needs dim = {}", kOwner,
                                                    fmt::join(centre, ","), centre.size(), dim));
        }
        for (std::size_t i = 0; i < dim; ++i) {
            if (!(lower <= centre[i] && centre[i] <= upper)) {
                throw dpbo::ValidationError(
                    fmt::format("{}: centre{} coordinate {} = {} lies outside [lower, upper] = [{}, {}]; "
                                "every coordinate must lie in the box{}",
                                kOwner, given ? "" : " (default 0.3 in every coordinate)", i, centre[i], lower, upper,
                                given ? "" : ", so give centre explicitly for this box"));
            }
        }
        return arma::rowvec(centre);
    }

    std::size_t dim_;
    dpbo::SearchSpace space_;
    arma::rowvec centre_;
    double noise_stddev_;
};

}  // namespace

DPBO_PLUGIN(Quadratic, "quadratic", "1.0.0",
            "shifted sphere sum (x_i - c_i)^2 on [lower, upper]^dim, minimum 0 at the centre",
            "standard test function (sphere); a sanity benchmark with a known optimiser")
