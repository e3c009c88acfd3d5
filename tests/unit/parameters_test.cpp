#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"

namespace {

dpbo::ParameterSchema example_schema() {
    dpbo::ParameterSchema s;
    s.real("mu", {.fallback = 1.0, .lower = 0.0, .lower_inclusive = false, .doc = "privacy"});
    s.integer("dim", {.fallback = 2, .lower = 1, .upper = 100, .doc = "dimension"});
    s.real("sensitivity", {.required = true, .doc = "required real"});
    s.real("delta",
           {.lower = 0.0, .upper = 1.0, .lower_inclusive = false, .upper_inclusive = false, .doc = "optional"});
    s.boolean("adagrad", false, "step rule");
    s.choice("kernel", {"rbf", "matern52"}, "rbf", "kernel");
    s.real_list("theta0", std::nullopt, "start");
    return s;
}

std::string message_of(const std::map<std::string, std::string>& raw) {
    try {
        dpbo::validate_parameters(example_schema(), raw, "algorithm 'x'");
    } catch (const dpbo::ValidationError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("parameters: defaults, user values and optional values") {
    const auto p = dpbo::validate_parameters(example_schema(), {{"sensitivity", "2"}, {"theta0", "0, 1.5,-2"}}, "m");
    CHECK(p.real("mu") == 1.0);
    CHECK(p.integer("dim") == 2);
    CHECK(p.real("sensitivity") == 2.0);
    CHECK(p.given_by_user("sensitivity"));
    CHECK_FALSE(p.given_by_user("mu"));
    CHECK_FALSE(p.has("delta"));
    CHECK(p.text("kernel") == "rbf");
    CHECK(p.real_list("theta0") == std::vector<double>{0.0, 1.5, -2.0});
    CHECK_THROWS_AS(p.real("delta"), dpbo::ValidationError);
}

TEST_CASE("parameters: every kind of bad input names the key and what is allowed") {
    const std::string unknown = message_of({{"sensitivity", "1"}, {"dimm", "3"}});
    CHECK(unknown.find("unknown parameter 'dimm'") != std::string::npos);
    CHECK(unknown.find("did you mean 'dim'") != std::string::npos);
    CHECK(unknown.find("algorithm 'x'") != std::string::npos);

    const std::string type = message_of({{"sensitivity", "1"}, {"dim", "2.5"}});
    CHECK(type.find("'dim' = '2.5' is not an integer") != std::string::npos);
    CHECK(type.find("[1, 100]") != std::string::npos);

    const std::string range = message_of({{"sensitivity", "1"}, {"mu", "0"}});
    CHECK(range.find("'mu' = '0' is out of range") != std::string::npos);
    CHECK(range.find("(0, inf)") != std::string::npos);

    const std::string missing = message_of({});
    CHECK(missing.find("required parameter 'sensitivity' is missing") != std::string::npos);

    CHECK(message_of({{"sensitivity", "abc"}}).find("'sensitivity' = 'abc' is not a number") != std::string::npos);
    CHECK(message_of({{"sensitivity", "nan"}}).find("'sensitivity'") != std::string::npos);
    CHECK(message_of({{"sensitivity", "1"}, {"adagrad", "maybe"}}).find("is not a boolean") != std::string::npos);
    CHECK(message_of({{"sensitivity", "1"}, {"kernel", "rbff"}}).find("did you mean 'rbf'") != std::string::npos);
    CHECK(message_of({{"sensitivity", "1"}, {"theta0", "1,x"}}).find("entry 'x'") != std::string::npos);
    CHECK(message_of({{"sensitivity", "1"}, {"delta", "1"}}).find("(0, 1)") != std::string::npos);
}

TEST_CASE("parameters: integers written as integral reals are accepted") {
    const auto p = dpbo::validate_parameters(example_schema(), {{"sensitivity", "1"}, {"dim", "1e1"}}, "m");
    CHECK(p.integer("dim") == 10);
}

TEST_CASE("parameters: a schema refuses duplicate names and a default outside its choices") {
    dpbo::ParameterSchema s;
    s.real("a", {.fallback = 1.0});
    CHECK_THROWS_AS(s.real("a", {.fallback = 2.0}), dpbo::ValidationError);
    CHECK_THROWS_AS(s.choice("k", {"x", "y"}, "z", "doc"), dpbo::ValidationError);
}

TEST_CASE("closest_match suggests near names and stays quiet for far ones") {
    CHECK(dpbo::closest_match("brannin", {"branin", "rosenbrock"}) == std::optional<std::string>("branin"));
    CHECK_FALSE(dpbo::closest_match("zzzzzzzz", {"branin", "rosenbrock"}).has_value());
    CHECK(dpbo::edit_distance("kitten", "sitting") == 3);
}
