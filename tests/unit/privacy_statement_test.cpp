#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_statement.hpp"

namespace {
dpbo::PrivacyStatement complete(dpbo::PrivacyStatement s) {
    s.neighbouring = "replace one record";
    s.protected_unit = "one validation record";
    s.released = {"the path"};
    return s;
}
}  // namespace

TEST_CASE("privacy statement: complete statements validate and read well") {
    const auto gdp = complete(dpbo::PrivacyStatement::gaussian_dp(0.5));
    CHECK_NOTHROW(gdp.validate());
    CHECK(gdp.headline() == "0.5-GDP");
    CHECK(complete(dpbo::PrivacyStatement::approx_dp(1, 1e-5)).headline() == "(1, 1e-05)-DP");
    CHECK(complete(dpbo::PrivacyStatement::pure_dp(2)).headline() == "2-DP");
    const std::string text = gdp.describe();
    CHECK(text.find("one validation record") != std::string::npos);
    CHECK(text.find("released: the path") != std::string::npos);
    CHECK_NOTHROW(dpbo::PrivacyStatement::not_private({"everything"}, "no mechanism").validate());
}

TEST_CASE("privacy statement: incomplete or meaningless statements are refused") {
    CHECK_THROWS_AS(complete(dpbo::PrivacyStatement::gaussian_dp(0.0)).validate(), dpbo::ValidationError);
    CHECK_THROWS_AS(complete(dpbo::PrivacyStatement::approx_dp(1, 1.0)).validate(), dpbo::ValidationError);
    CHECK_THROWS_AS(complete(dpbo::PrivacyStatement::pure_dp(-1)).validate(), dpbo::ValidationError);
    auto no_unit = complete(dpbo::PrivacyStatement::gaussian_dp(1));
    no_unit.protected_unit.clear();
    CHECK_THROWS_WITH_AS(no_unit.validate(), doctest::Contains("unit protected"), dpbo::ValidationError);
    auto nothing_released = complete(dpbo::PrivacyStatement::gaussian_dp(1));
    nothing_released.released.clear();
    CHECK_THROWS_AS(nothing_released.validate(), dpbo::ValidationError);
    dpbo::PrivacyStatement rdp = complete({});
    rdp.notion = dpbo::PrivacyNotion::Renyi;
    CHECK_THROWS_AS(rdp.validate(), dpbo::ValidationError);
    rdp.rdp_curve = {{2.0, 0.1}, {8.0, 0.5}};
    CHECK_NOTHROW(rdp.validate());
}
