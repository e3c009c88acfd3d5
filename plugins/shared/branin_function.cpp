#include "branin_function.hpp"

#include <numbers>

namespace dpbo::branin_function {

namespace {

constexpr double kPi = std::numbers::pi;

// The usual constants (Dixon & Szegő 1978).
constexpr double kA = 1.0;
constexpr double kB = 5.1 / (4.0 * kPi * kPi);
constexpr double kC = 5.0 / kPi;
constexpr double kR = 6.0;
constexpr double kS = 10.0;
constexpr double kT = 1.0 / (8.0 * kPi);

}  // namespace

// At every minimiser the squared term vanishes and cos(x1) = −1, leaving s·t = 5/(4π).
double minimum_value() { return kS * kT; }

arma::mat minimisers() { return {{-kPi, 12.275}, {kPi, 2.275}, {3.0 * kPi, 2.475}}; }

SearchSpace box() {
    return SearchSpace::box({{.name = "x1", .lower = -5.0, .upper = 10.0},  //
                             {.name = "x2", .lower = 0.0, .upper = 15.0}});
}

arma::vec values(const arma::mat& points) {
    const arma::vec x1 = points.col(0);
    const arma::vec x2 = points.col(1);
    return kA * arma::square(x2 - kB * arma::square(x1) + kC * x1 - kR) + kS * (1.0 - kT) * arma::cos(x1) + kS;
}

}  // namespace dpbo::branin_function
