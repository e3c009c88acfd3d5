// The objective capabilities: asked for by dynamic_cast, present or absent per class (also across the
// plugin boundary), and require's refusal naming who needs what of whom.
#include <doctest/doctest.h>

#include <string>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "test_support.hpp"

namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The base alone: no capability.
class Bare final : public dpbo::Objective {
public:
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::sum(points, 1);
        return result;
    }

private:
    dpbo::SearchSpace space_ = dpbo::SearchSpace::uniform_box(2, 0.0, 1.0);
};

// A finite space: without FiniteCandidates (refused by the check), and with it.
class Rows : public dpbo::Objective {
public:
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::sum(points, 1);
        return result;
    }

protected:
    dpbo::SearchSpace space_ = dpbo::SearchSpace::candidates(arma::mat{{0.0, 1.0}, {2.0, 3.0}});
};

class SensitiveRows final : public Rows, public dpbo::FiniteCandidates, public dpbo::ThreadSafe {
public:
    dpbo::CandidateRows candidates() const override { return {space_.candidate_rows(), dpbo::RowStatus::Sensitive}; }
};

class OtherRows final : public Rows, public dpbo::FiniteCandidates {
public:
    dpbo::CandidateRows candidates() const override { return {other_, dpbo::RowStatus::Released}; }

private:
    arma::mat other_{{9.0, 9.0}};
};

}  // namespace

TEST_CASE("objective capabilities: present when the class inherits them, absent otherwise") {
    Bare bare;
    CHECK(dpbo::capability<dpbo::RecordDecomposable>(bare) == nullptr);
    CHECK(dpbo::capability<dpbo::FiniteCandidates>(bare) == nullptr);
    CHECK(dpbo::record_count(bare) == 0);
    CHECK_FALSE(dpbo::known_optimum(bare).has_value());
    CHECK(dpbo::observation_noise_stddev(bare) == 0.0);
    CHECK(dpbo::data_description(bare).empty());
    CHECK(dpbo::declared_constants(bare).empty());
    CHECK_FALSE(dpbo::thread_safe(bare));
    CHECK_FALSE(bare.regret(1.0).has_value());
    CHECK_NOTHROW(dpbo::check_objective_capabilities(bare));

    SensitiveRows rows;
    const auto* finite = dpbo::capability<dpbo::FiniteCandidates>(rows);
    REQUIRE(finite != nullptr);
    const dpbo::CandidateRows candidates = finite->candidates();
    CHECK(candidates.sensitive());
    CHECK_FALSE(candidates.released());
    CHECK(candidates.rows.n_rows == 2);
    CHECK(dpbo::thread_safe(rows));
    CHECK(dpbo::to_string(candidates.status) == "sensitive");
    CHECK_NOTHROW(dpbo::check_objective_capabilities(rows));
}

TEST_CASE("objective capabilities: require names who needs which capability of which objective") {
    Bare bare;
    try {
        (void)dpbo::require<dpbo::RecordGradients>(bare, "algorithm 'dp-gd'");
        FAIL("no refusal");
    } catch (const dpbo::ValidationError& e) {
        const std::string message = e.what();
        CHECK(mentions(message, "algorithm 'dp-gd' needs the capability RecordGradients"));
        CHECK(mentions(message, "per-record gradients"));
        CHECK(mentions(message, "objective"));
        CHECK(mentions(message, "does not provide it"));
    }
    SensitiveRows rows;
    CHECK(&dpbo::require<dpbo::FiniteCandidates>(rows, "test") == static_cast<const dpbo::FiniteCandidates*>(&rows));
}

TEST_CASE("objective capabilities: a finite space needs FiniteCandidates, and its rows must be the space's") {
    Rows undeclared;
    CHECK_THROWS_WITH_AS(dpbo::check_objective_capabilities(undeclared),
                         doctest::Contains("does not provide the capability FiniteCandidates"), dpbo::ValidationError);
    OtherRows other;
    CHECK_THROWS_WITH_AS(dpbo::check_objective_capabilities(other), doctest::Contains("are not its search space's"),
                         dpbo::ValidationError);
}

TEST_CASE("objective capabilities: asked for across the plugin boundary") {
    // The classes live in the plugins; the typeinfo compared is libdpbo's.
    auto location = dpbo::test::make<dpbo::Objective>("normal-location");
    CHECK(dpbo::capability<dpbo::RecordDecomposable>(*location) != nullptr);
    CHECK(dpbo::capability<dpbo::RecordGradients>(*location) != nullptr);
    CHECK(dpbo::capability<dpbo::FiniteCandidates>(*location) == nullptr);
    CHECK(dpbo::record_count(*location) == 50);

    auto table = dpbo::test::make<dpbo::Objective>("loan-roi");
    const auto* rows = dpbo::capability<dpbo::FiniteCandidates>(*table);
    REQUIRE(rows != nullptr);
    CHECK(rows->candidates().sensitive());
    CHECK(dpbo::capability<dpbo::RecordDecomposable>(*table) == nullptr);

    // synthetic-gp is a box or a grid by its settings: only the grid has candidate rows, fixed by the
    // settings alone.
    auto box = dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "1"}});
    CHECK(dpbo::capability<dpbo::FiniteCandidates>(*box) == nullptr);
    auto grid = dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "1"}, {"grid", "5"}});
    const auto* grid_rows = dpbo::capability<dpbo::FiniteCandidates>(*grid);
    REQUIRE(grid_rows != nullptr);
    CHECK(grid_rows->candidates().status == dpbo::RowStatus::DataIndependent);
    CHECK_NOTHROW(dpbo::check_objective_capabilities(*grid));

    auto branin = dpbo::test::make<dpbo::Objective>("branin-grid", {{"grid", "3"}});
    CHECK(dpbo::capability<dpbo::FiniteCandidates>(*branin)->candidates().status == dpbo::RowStatus::DataIndependent);
}
