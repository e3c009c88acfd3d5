// The neighbour switch of every shipped record objective (dpbo/neighbour.hpp): neighbour_record = i
// replaces record i and nothing else — every other record's losses stay bit-identical — and an
// index that is not a record is refused, naming the key and the number of records.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

struct Case {
    const char* objective;
    Parameters small;     // a quick configuration
    std::size_t records;  // its number of records
};

// Small but real configurations of each record objective.
const Case kCases[] = {
    {"normal-location", {{"dim", "3"}, {"records", "12"}}, 12},
    {"huber-regression", {{"dim", "2"}, {"records", "30"}}, 30},
    {"gp-lengthscales", {{"dim", "2"}, {"records", "40"}}, 20},
    {"svr-tuning", {{"features", "3"}, {"train_rows", "30"}, {"validation_rows", "15"}}, 15},
};

Parameters with(Parameters parameters, const Parameters& changes) {
    for (const auto& [key, value] : changes) parameters[key] = value;
    return parameters;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("neighbour switch: replacing record i changes its losses only, for every record objective") {
    for (const Case& c : kCases) {
        CAPTURE(c.objective);
        auto drawn = dpbo::test::make<dpbo::Objective>(c.objective, c.small);
        const std::size_t replaced = c.records / 2;
        auto neighbour = dpbo::test::make<dpbo::Objective>(
            c.objective, with(c.small, {{"neighbour_record", std::to_string(replaced)}}));
        REQUIRE(dpbo::record_count(*drawn) == c.records);
        REQUIRE(dpbo::record_count(*neighbour) == c.records);
        dpbo::ExperimentRng rng(5);
        const arma::mat points = arma::join_cols(arma::mat(drawn->space().centre()), drawn->space().sample(2, rng));
        const arma::mat before = dpbo::test::evaluate(*drawn, points).per_record;
        const arma::mat after = dpbo::test::evaluate(*neighbour, points).per_record;
        for (std::size_t i = 0; i < c.records; ++i) {
            CAPTURE(i);
            if (i == replaced) {
                CHECK(arma::any(before.col(i) != after.col(i)));
            } else {
                CHECK(arma::all(before.col(i) == after.col(i)));  // bit-identical
            }
        }
        // The replacement is the adversarial default: at the box's centre (DP-GIBO's θ⁽⁰⁾) its loss is
        // above every drawn record's.
        CHECK(after(0, replaced) > before.row(0).max());
        CHECK(mentions(dpbo::data_description(*neighbour), "replaced"));
        CHECK_FALSE(mentions(dpbo::data_description(*drawn), "replaced"));
    }
}

TEST_CASE("neighbour switch: neighbour_value sets the replacement record, and -1 is the data as drawn") {
    const Parameters small = {{"dim", "2"}, {"records", "10"}};
    auto drawn = dpbo::test::make<dpbo::Objective>("normal-location", small);
    auto explicit_drawn =
        dpbo::test::make<dpbo::Objective>("normal-location", with(small, {{"neighbour_record", "-1"}}));
    auto moved = dpbo::test::make<dpbo::Objective>("normal-location",
                                                   with(small, {{"neighbour_record", "0"}, {"neighbour_value", "3"}}));
    const arma::rowvec theta{0.5, -0.5};
    CHECK(arma::all(arma::vectorise(dpbo::test::record_gradients(*drawn, theta) ==
                                    dpbo::test::record_gradients(*explicit_drawn, theta))));
    // ∇ ½‖x − θ‖² = θ − x with x = (3, 3).
    const arma::rowvec gradient = dpbo::test::record_gradients(*moved, theta).row(0);
    CHECK(gradient(0) == doctest::Approx(-2.5));
    CHECK(gradient(1) == doctest::Approx(-3.5));
}

TEST_CASE("neighbour switch: an index that is not a record is refused, naming the key and the records") {
    for (const Case& c : kCases) {
        CAPTURE(c.objective);
        try {
            dpbo::test::make<dpbo::Objective>(c.objective,
                                              with(c.small, {{"neighbour_record", std::to_string(c.records)}}));
            FAIL("an out-of-range neighbour_record was accepted");
        } catch (const dpbo::ValidationError& e) {
            CHECK(mentions(e.what(), c.objective));
            CHECK(mentions(e.what(), "neighbour_record = " + std::to_string(c.records)));
            CHECK(mentions(e.what(), "has " + std::to_string(c.records) + " records"));
        }
        CHECK_THROWS_AS(dpbo::test::make<dpbo::Objective>(c.objective, with(c.small, {{"neighbour_record", "-2"}})),
                        dpbo::ValidationError);
    }
}
