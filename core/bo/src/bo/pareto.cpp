#include "dpbo/bo/pareto.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

arma::rowvec maximisation_signs(const std::vector<Sense>& senses) {
    arma::rowvec signs(senses.size());
    for (std::size_t j = 0; j < senses.size(); ++j) signs(j) = senses[j] == Sense::Maximise ? 1.0 : -1.0;
    return signs;
}

namespace {

// The values in the maximisation sense, after checking they can be compared.
arma::mat to_maximisation(const arma::mat& values, const std::vector<Sense>& senses, const char* what) {
    if (senses.size() != values.n_cols)
        throw ValidationError(fmt::format("{}: {} senses for {} output columns; expected one sense per column", what,
                                          senses.size(), values.n_cols));
    if (values.has_nan()) throw ValidationError(fmt::format("{}: the values contain NaN", what));
    arma::mat oriented = values;
    // Armadillo's each_row() binds a reference to the (null) memory of an empty matrix.
    if (!oriented.is_empty()) oriented.each_row() %= maximisation_signs(senses);
    return oriented;
}

}  // namespace

arma::uvec non_dominated(const arma::mat& values, const std::vector<Sense>& senses) {
    const arma::mat v = to_maximisation(values, senses, "non_dominated");
    // O(n² k): fronts are read once per BO iteration over at most a few thousand observations.
    std::vector<arma::uword> kept;
    for (arma::uword a = 0; a < v.n_rows; ++a) {
        bool dominated = false;
        for (arma::uword b = 0; b < v.n_rows && !dominated; ++b)
            dominated = b != a && arma::all(v.row(b) >= v.row(a)) && arma::any(v.row(b) > v.row(a));
        if (!dominated) kept.push_back(a);
    }
    return arma::uvec(kept);
}

double hypervolume_2d(const arma::mat& front, const arma::rowvec& reference, const std::vector<Sense>& senses) {
    if (front.n_cols != 2 || reference.n_elem != 2)
        throw ValidationError(
            fmt::format("hypervolume_2d: the front has {} columns and the reference {} entries; "
                        "expected 2 of each",
                        front.n_cols, reference.n_elem));
    if (!front.is_finite() || !reference.is_finite())
        throw ValidationError("hypervolume_2d: the front and the reference must be finite");
    const arma::mat v = to_maximisation(front, senses, "hypervolume_2d");
    const arma::rowvec r = reference % maximisation_signs(senses);
    std::vector<arma::uword> order;
    for (arma::uword i = 0; i < v.n_rows; ++i)
        if (v(i, 0) > r(0) && v(i, 1) > r(1)) order.push_back(i);
    // Sweep by the first output, best first: each point adds the strip between its second output
    // and the best second output seen so far, as wide as its first output reaches past the reference.
    std::sort(order.begin(), order.end(),
              [&](arma::uword a, arma::uword b) { return v(a, 0) != v(b, 0) ? v(a, 0) > v(b, 0) : v(a, 1) > v(b, 1); });
    double area = 0.0;
    double covered = r(1);
    for (const arma::uword i : order) {
        if (v(i, 1) <= covered) continue;
        area += (v(i, 0) - r(0)) * (v(i, 1) - covered);
        covered = v(i, 1);
    }
    return area;
}

}  // namespace dpbo
