#include "trial_prior.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"

namespace dpbo::private_search {

double secure_unit_uniform(PrivacyNoiseSource& noise) {
    return static_cast<double>(noise.next_u64() >> 11) * 0x1.0p-53;
}

TrialPrior::TrialPrior(const SearchSpace& space, Kind kind, std::size_t grid_points, const std::string& owner)
    : space_(space), kind_(kind), grid_points_(grid_points) {
    if (space.is_finite()) {
        rows_ = space.candidate_rows();
    } else if (kind == Kind::Grid) {
        try {
            rows_ = space.grid(grid_points);
        } catch (const ValidationError& error) {
            throw ValidationError(
                fmt::format("{}: prior = grid with grid_points = {}: {}", owner, grid_points, error.what()));
        }
    }
}

arma::mat TrialPrior::draw(std::size_t count, PrivacyNoiseSource& noise) const {
    arma::mat points(count, space_.dim());
    if (rows_.n_rows > 0) {
        for (std::size_t i = 0; i < count; ++i) points.row(i) = rows_.row(privacy::uniform_below(rows_.n_rows, noise));
        return points;
    }
    arma::mat unit(count, space_.dim());
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < space_.dim(); ++j) unit(i, j) = secure_unit_uniform(noise);
    return space_.from_unit(unit);
}

std::string TrialPrior::describe() const {
    if (space_.is_finite()) return fmt::format("uniform over the space's {} public rows", rows_.n_rows);
    if (kind_ == Kind::Grid)
        return fmt::format("uniform over a grid of {} levels per dimension ({} points), drawn with replacement",
                           grid_points_, rows_.n_rows);
    return "uniform over the space (log and integer dimensions respected)";
}

}  // namespace dpbo::private_search
