// The run's privacy release by release (result.json privacy_over_run): the ledger's log composed
// again on an empty copy of the accountant, at the final statement's δ.
#include <cmath>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/host/privacy_over_run.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/result.hpp"
#include "test_support.hpp"

namespace {

dpbo::LedgerEntry laplace(double scale, double released) {
    return {dpbo::PrivacyEvent(dpbo::LaplaceEvent(scale, 1.0), 1, "a value"), arma::vec{released}};
}

}  // namespace

TEST_CASE("privacy over run: pure ε-DP releases add up one by one, each Laplace release with its noise") {
    const auto basic = dpbo::test::make<dpbo::Accountant>("basic");
    // Scales 2, 1, 0.5 on sensitivity 1: ε = 0.5, 1, 2 per release.
    const std::vector<dpbo::LedgerEntry> log{laplace(2.0, 0.25), laplace(1.0, 0.5), laplace(0.5, 0.75)};
    // The run reports the second release's number, and a list with a number no release made.
    const std::vector<dpbo::ReleasedValue> released{{"best_value", "", arma::mat{0.5}},
                                                    {"both", "", arma::mat{{0.5, 0.6}}}};
    const auto out = dpbo::privacy_over_run_json(log, *basic, released);
    CHECK(out["delta"].get<double>() == 0.0);
    CHECK(out["releases"].get<std::size_t>() == 3);
    REQUIRE(out["points"].size() == 3);
    const std::vector<double> expected{0.5, 1.5, 3.5};
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(out["points"][k]["release"].get<std::size_t>() == k + 1);
        CHECK(out["points"][k]["epsilon"].get<double>() == doctest::Approx(expected[k]).epsilon(1e-12));
    }
    REQUIRE(out["noise"].size() == 3);
    CHECK(out["noise"][1]["distribution"] == "laplace");
    CHECK(out["noise"][1]["scale"].get<double>() == 1.0);
    CHECK(out["noise"][1]["standard_deviation"].get<double>() == doctest::Approx(std::sqrt(2.0)));
    CHECK(out["noise"][1]["released_as"] == nlohmann::json::array({"best_value"}));
    CHECK(out["noise"][0]["released_as"].empty());
    CHECK(out["noise"][1]["what"] == "a value");
    // The accountant handed in is not charged.
    CHECK_THROWS(basic->total());
}

TEST_CASE("privacy over run: Gaussian releases under GDP are stated as ε at the final δ, rising to it") {
    const auto gdp = dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1e-5"}});
    std::vector<dpbo::LedgerEntry> log;
    for (int k = 0; k < 4; ++k)
        log.push_back({dpbo::PrivacyEvent(dpbo::GaussianEvent(2.0, 1.0), 1, "a gradient"), arma::vec{1.0, 2.0}});
    const auto out = dpbo::privacy_over_run_json(log, *gdp, {});
    auto whole = gdp->clone();
    for (const auto& entry : log) whole->compose(entry.event);
    const dpbo::PrivacyStatement total = whole->total();
    REQUIRE_FALSE(total.equivalent_epsilon_delta.empty());
    CHECK(out["delta"].get<double>() == total.equivalent_epsilon_delta.front().second);
    REQUIRE(out["points"].size() == 4);
    for (std::size_t k = 1; k < 4; ++k)
        CHECK(out["points"][k]["epsilon"].get<double>() > out["points"][k - 1]["epsilon"].get<double>());
    CHECK(out["points"][3]["epsilon"].get<double>() ==
          doctest::Approx(total.equivalent_epsilon_delta.front().first).epsilon(1e-9));
    REQUIRE(out["noise"].size() == 4);
    CHECK(out["noise"][0]["distribution"] == "gaussian");
    CHECK(out["noise"][0]["standard_deviation"].get<double>() == 2.0);
    CHECK(out["noise"][0]["released_as"].empty());
}

TEST_CASE("privacy over run: a long log keeps 64 evenly spaced points, the last release among them") {
    const auto basic = dpbo::test::make<dpbo::Accountant>("basic");
    std::vector<dpbo::LedgerEntry> log(1001, laplace(10.0, 0.0));
    const auto out = dpbo::privacy_over_run_json(log, *basic, {});
    REQUIRE(out["points"].size() == dpbo::kPrivacyOverRunPoints);
    CHECK(out["points"].back()["release"].get<std::size_t>() == 1001);
    CHECK(out["points"].back()["epsilon"].get<double>() == doctest::Approx(100.1).epsilon(1e-9));
    for (std::size_t i = 1; i < out["points"].size(); ++i)
        CHECK(out["points"][i]["release"].get<std::size_t>() > out["points"][i - 1]["release"].get<std::size_t>());
    CHECK(dpbo::privacy_over_run_json({}, *basic, {}).is_null());
}
