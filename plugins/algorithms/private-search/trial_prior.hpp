#pragma once
// The prior a private selection draws its trials' hyperparameters from. It is fixed before the data
// is touched and its randomness is part of the mechanism, so every draw comes from the selection's
// own secure stream (PrivacyLedger::charge_and_draw), never from the experiment generator.
//
// Papernot & Steinke's bounds are for K independent runs of one randomised trial, so the trials are
// drawn independently: `random` uniformly in the space's unit cube mapped back (log and integer
// dimensions respected, SearchSpace::from_unit), `grid` uniformly among the grid's points with
// replacement (an order without replacement would make the trials dependent, outside the theorem).
// A finite space is drawn from uniformly among its rows, which must be public.
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/space.hpp"

namespace dpbo {
class PrivacyNoiseSource;
}

namespace dpbo::private_search {

class TrialPrior {
public:
    enum class Kind { Random, Grid };

    // `grid_points` levels per dimension for Kind::Grid (ignored otherwise). Throws ValidationError
    // naming `owner` for a grid the space cannot make (fewer than 2 levels, too many points).
    TrialPrior(const SearchSpace& space, Kind kind, std::size_t grid_points, const std::string& owner);

    // `count` independent draws, one row each, from `noise`.
    arma::mat draw(std::size_t count, PrivacyNoiseSource& noise) const;
    // "uniform over the space (log and integer dimensions respected)", "uniform over a 5-point grid".
    std::string describe() const;

private:
    const SearchSpace& space_;
    Kind kind_;
    std::size_t grid_points_;
    arma::mat rows_;  // the grid's points, or a finite space's rows; empty for a random box draw
};

// A uniform double in [0, 1) from the top 53 bits of the next 64 keystream bits.
double secure_unit_uniform(PrivacyNoiseSource& noise);

}  // namespace dpbo::private_search
