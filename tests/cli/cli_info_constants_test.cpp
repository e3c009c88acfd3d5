// `dpbo info OBJECTIVE --constants`: the constants an objective declares (Kusner et al.'s Assumption
// 2 for logreg-validation), in text and JSON; refused for other kinds.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

TEST_CASE("cli info: --constants lists an objective's declared constants") {
    const auto text = run_dpbo({"info", "logreg-validation", "--constants"});
    CAPTURE(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("validation_records   16281") != std::string::npos);
    CHECK(text.out.find("lipschitz") == std::string::npos);  // the default gain, accuracy, has none
    const auto json_out = run_dpbo({"info", "logreg-validation", "--constants", "--json"});
    REQUIRE(json_out.exit_code == 0);
    const auto constants = nlohmann::json::parse(json_out.out)["declared_constants"];
    REQUIRE(constants.size() == 4);
    CHECK(constants[3]["name"] == "lambda_max");
    CHECK(constants[3]["value"] == 1.0);
    const auto plain = run_dpbo({"info", "logreg-validation", "--json"});
    CHECK(nlohmann::json::parse(plain.out)["declared_constants"].is_null());
    const auto none = run_dpbo({"info", "quadratic", "--constants"});
    CHECK(none.out.find("declared constants: none") != std::string::npos);
    const auto refused = run_dpbo({"info", "laplace", "--constants"});
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("--constants applies to objectives") != std::string::npos);
}
