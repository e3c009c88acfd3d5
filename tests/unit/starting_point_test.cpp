// The shared θ⁽⁰⁾ parameters of the local methods (dpbo/bo/starting_point.hpp): what start and theta0
// mean together, what is refused, and where each kind of start lands.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"
#include "dpbo/bo/starting_point.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'test'";

dpbo::StartingPoint read(const std::map<std::string, std::string>& raw) {
    dpbo::ParameterSchema schema;
    dpbo::add_starting_point_parameters(schema);
    return dpbo::starting_point_settings(dpbo::validate_parameters(schema, raw, kOwner), kOwner);
}

std::string refusal_of(const std::map<std::string, std::string>& raw) {
    try {
        read(raw);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return {};
}

}  // namespace

TEST_CASE("starting point: the centre by default, theta0 alone means given") {
    CHECK(read({}).kind == dpbo::StartKind::Centre);
    CHECK(read({{"start", "random"}}).kind == dpbo::StartKind::Random);
    const dpbo::StartingPoint given = read({{"theta0", "0.5,-1"}});
    CHECK(given.kind == dpbo::StartKind::Given);
    CHECK(given.theta0 == std::vector<double>{0.5, -1.0});
    CHECK(read({{"start", "given"}, {"theta0", "1,2"}}).kind == dpbo::StartKind::Given);
}

TEST_CASE("starting point: a start the user set must agree with theta0") {
    const std::string centre_with_point = refusal_of({{"start", "centre"}, {"theta0", "0,0"}});
    CHECK(centre_with_point.find("algorithm 'test'") != std::string::npos);
    CHECK(centre_with_point.find("start = centre with theta0") != std::string::npos);
    CHECK(refusal_of({{"start", "random"}, {"theta0", "0,0"}}).find("start = random with theta0") != std::string::npos);
    CHECK(refusal_of({{"start", "given"}}).find("start = given without theta0") != std::string::npos);
    CHECK(refusal_of({{"start", "middle"}}).find("start") != std::string::npos);
}

TEST_CASE("starting point: each kind lands in the box, a given point is checked against it") {
    const dpbo::SearchSpace box = dpbo::SearchSpace::uniform_box(2, -1.0, 3.0, "x");
    dpbo::ExperimentRng rng(11);
    CHECK(arma::approx_equal(dpbo::choose_starting_point(read({}), box, rng, kOwner), arma::rowvec{1.0, 1.0}, "absdiff",
                             0.0));
    // A random start is the generator's next draw, nothing else.
    dpbo::ExperimentRng replay(11);
    const arma::rowvec expected = box.sample(1, replay);
    const arma::rowvec drawn = dpbo::choose_starting_point(read({{"start", "random"}}), box, rng, kOwner);
    CHECK(arma::approx_equal(drawn, expected, "absdiff", 0.0));
    CHECK(arma::all(drawn >= -1.0));
    CHECK(arma::all(drawn <= 3.0));
    CHECK(arma::approx_equal(dpbo::choose_starting_point(read({{"theta0", "2.5,-0.5"}}), box, rng, kOwner),
                             arma::rowvec{2.5, -0.5}, "absdiff", 0.0));
    CHECK_THROWS_WITH_AS(dpbo::choose_starting_point(read({{"theta0", "1,1,1"}}), box, rng, kOwner),
                         doctest::Contains("theta0 has 3 coordinates; the objective has dimension 2"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::choose_starting_point(read({{"theta0", "1,4"}}), box, rng, kOwner),
                         doctest::Contains("theta0"), dpbo::ValidationError);
}
