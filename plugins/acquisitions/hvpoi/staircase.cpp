#include "staircase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace dpbo::hvpoi {

namespace {

// P(y ≤ bound) and P(y > bound) for y ~ N(mean, variance), each from erfc so that a far tail is
// computed to full relative precision instead of as 1 − (something close to 1).
double below(double bound, double mean, double variance) {
    if (bound == std::numeric_limits<double>::infinity()) return 1.0;
    if (bound == -std::numeric_limits<double>::infinity()) return 0.0;
    if (variance <= 0.0) return mean <= bound ? 1.0 : 0.0;
    return 0.5 * std::erfc((mean - bound) / std::sqrt(2.0 * variance));
}

double above(double bound, double mean, double variance) {
    if (bound == -std::numeric_limits<double>::infinity()) return 1.0;
    if (bound == std::numeric_limits<double>::infinity()) return 0.0;
    if (variance <= 0.0) return mean > bound ? 1.0 : 0.0;
    return 0.5 * std::erfc((bound - mean) / std::sqrt(2.0 * variance));
}

}  // namespace

arma::mat sorted_staircase(const arma::mat& front) {
    std::vector<arma::uword> order(front.n_rows);
    for (arma::uword i = 0; i < front.n_rows; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](arma::uword a, arma::uword b) {
        return front(a, 0) != front(b, 0) ? front(a, 0) > front(b, 0) : front(a, 1) > front(b, 1);
    });
    arma::mat sorted(front.n_rows, front.n_cols);
    for (arma::uword i = 0; i < front.n_rows; ++i) sorted.row(i) = front.row(order[i]);
    return sorted;
}

double nondominated_probability(const arma::mat& staircase, double mean0, double variance0, double mean1,
                                double variance1) {
    const arma::uword m = staircase.n_rows;
    if (m == 0) return 1.0;
    // Output 1's running best over the points with output 0 at least the cell's upper edge: the
    // cell's floor. Duplicated or dominated rows leave it unchanged, so they add no cell.
    double probability = above(staircase(0, 0), mean0, variance0);
    double floor = -std::numeric_limits<double>::infinity();
    // A strip's upper edge is the lower edge of the strip before it (the strips skipped between
    // them are empty: their edges are equal), so its P(y_0 ≤ edge) is carried over rather than
    // computed again; the comparison only guards edges that are NaN. The erfc calls are most of
    // this function's cost, and the search calls it for every point it scores.
    double carried_edge = std::numeric_limits<double>::quiet_NaN();
    double carried_below = 0.0;
    for (arma::uword i = 0; i < m; ++i) {
        floor = std::max(floor, staircase(i, 1));
        const double upper = staircase(i, 0);
        const double lower = i + 1 < m ? staircase(i + 1, 0) : -std::numeric_limits<double>::infinity();
        if (!(upper > lower)) continue;
        const double below_upper = upper == carried_edge ? carried_below : below(upper, mean0, variance0);
        carried_edge = lower;
        carried_below = below(lower, mean0, variance0);
        const double in_strip = below_upper - carried_below;
        probability += in_strip * above(floor, mean1, variance1);
    }
    return std::clamp(probability, 0.0, 1.0);
}

double exclusive_hypervolume(const arma::mat& staircase, const arma::rowvec& point, const arma::rowvec& reference) {
    const double width = point(0) - reference(0);
    const double height = point(1) - reference(1);
    if (!(width > 0.0) || !(height > 0.0)) return 0.0;
    // The box [reference, point] minus what the front covers of it: the front clipped to the box
    // swept by output 0 decreasing, each point adding the strip above the best output 1 so far.
    double covered = 0.0;
    double best1 = reference(1);
    for (arma::uword i = 0; i < staircase.n_rows; ++i) {
        const double x = std::min(staircase(i, 0), point(0));
        const double y = std::min(staircase(i, 1), point(1));
        if (x <= reference(0) || y <= best1) continue;
        covered += (x - reference(0)) * (y - best1);
        best1 = y;
    }
    return std::max(0.0, width * height - covered);
}

}  // namespace dpbo::hvpoi
