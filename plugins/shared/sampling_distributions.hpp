#pragma once
// Per-dimension sampling distributions for searches whose points never depend on observed values
// (random search, DPareto's initial design): DPareto's Tables 3 and 4 draw epochs uniformly, the lot
// size from a normal and the learning rate, noise variance and clipping norm from shifted
// exponentials, each accepted only inside its range (rejection) and rounded when integer-valued.
//
// Written as `NAME:KIND(ARGS); NAME:KIND(ARGS); ...`, NAME a dimension of the space:
//   uniform                     uniform on the dimension's own scale (log-uniform for log dimensions)
//   normal(MEAN, STDDEV)
//   shifted-exponential(RATE, SHIFT)   SHIFT + Exp(RATE), RATE the inverse of the mean
// Dimensions not named are drawn uniformly. The accept range is the dimension's bounds.
#include <cstddef>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

namespace dpbo::sampling {

struct DimensionDistribution {
    enum class Kind { Uniform, Normal, ShiftedExponential };
    Kind kind = Kind::Uniform;
    double first = 0.0;   // normal: mean; shifted-exponential: rate
    double second = 0.0;  // normal: standard deviation; shifted-exponential: shift
    std::string text;     // as written, for messages and the result
};

class Distributions {
public:
    // Uniform in every dimension.
    explicit Distributions(const SearchSpace& space);
    // Parses `spec` against the space's dimensions. Throws ValidationError naming `key`, the offending
    // part and what was expected: an unknown dimension (with the known ones), a repeated one, an
    // unknown kind, a wrong argument count, a non-positive rate or standard deviation.
    Distributions(const SearchSpace& space, const std::string& spec, const std::string& key);

    // `count` points (count × d). Throws RunError naming the dimension's distribution and its range
    // when a draw is rejected kMaxAttempts times in a row (a range it almost never reaches).
    arma::mat sample(std::size_t count, ExperimentRng& rng) const;
    // One line per dimension, e.g. "lot_size: normal(128, 64) accepted in [8, 512], integer".
    std::vector<std::string> describe() const;

    static constexpr std::size_t kMaxAttempts = 100000;

private:
    double draw(std::size_t dimension, ExperimentRng& rng) const;

    SearchSpace space_;
    std::vector<DimensionDistribution> distributions_;
};

}  // namespace dpbo::sampling
