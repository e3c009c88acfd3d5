// Several independent outputs in one surrogate (DPareto's use): each output of a multi-output `gp`
// must be exactly what a separate single-output `gp` makes of that column — through appends,
// truncation and refits that give the outputs different hyperparameters — while the single-output
// methods keep their meaning and wrong shapes are refused before anything changes.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Raw = std::map<std::string, std::string>;

// Equal up to rounding: the outputs run the same code on the same numbers, so anything above
// this is a different model, not roundoff.
constexpr double kSame = 1e-12;

std::shared_ptr<dpbo::Surrogate> surrogate(const Raw& parameters) {
    return dpbo::test::make<dpbo::Surrogate>("gp", parameters);
}

arma::mat points_in(std::size_t n, std::size_t dim, std::uint64_t seed) {
    dpbo::ExperimentRng rng(seed);
    return rng.uniform(n, dim);
}

// Two outputs that differ in every way a per-output model must follow: output 0 varies slowly
// along x₀ only, output 1 quickly along x₁ only, around a far larger mean and scale.
arma::mat two_outputs(const arma::mat& points) {
    arma::mat targets(points.n_rows, 2);
    targets.col(0) = arma::sin(3.0 * points.col(0));
    targets.col(1) = 40.0 + 100.0 * arma::cos(9.0 * points.col(1));
    return targets;
}

double largest_difference(const arma::mat& a, const arma::mat& b) {
    REQUIRE(a.n_rows == b.n_rows);
    REQUIRE(a.n_cols == b.n_cols);
    return arma::abs(a - b).max();
}

// Every output of `multi` against the single-output surrogate built on its column.
void check_outputs_match(const dpbo::Surrogate& multi, const std::vector<std::shared_ptr<dpbo::Surrogate>>& singles,
                         const arma::mat& queries) {
    REQUIRE(multi.output_count() == singles.size());
    const dpbo::MultiPosterior posterior = multi.predict_outputs(queries);
    REQUIRE(posterior.mean.n_rows == queries.n_rows);
    REQUIRE(posterior.mean.n_cols == singles.size());
    REQUIRE(posterior.variance.n_cols == singles.size());
    for (std::size_t j = 0; j < singles.size(); ++j) {
        CAPTURE(j);
        REQUIRE(multi.size() == singles[j]->size());
        const dpbo::Posterior single = singles[j]->predict(queries);
        CHECK(largest_difference(posterior.mean.col(j), single.mean) <= kSame);
        CHECK(largest_difference(posterior.variance.col(j), single.variance) <= kSame);
    }
}

std::string refusal_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "no error";
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A surrogate that models one output and keeps the interface's multi-output defaults; it records
// what reached its single-output methods.
class OneOutputSurrogate final : public dpbo::Surrogate {
public:
    void condition(const arma::mat& points, const arma::vec& targets) override {
        points_ = points;
        targets_ = targets;
    }
    void append(const arma::mat& points, const arma::vec& targets) override {
        points_ = arma::join_cols(points_, points);
        targets_ = arma::join_cols(targets_, targets);
    }
    void truncate(std::size_t n) override {
        points_.resize(n, points_.n_cols);
        targets_.resize(n);
    }
    std::size_t size() const override { return targets_.n_elem; }
    dpbo::Posterior predict(const arma::mat& points) const override {
        return {arma::sum(points, 1) + arma::accu(targets_), arma::vec(points.n_rows, arma::fill::value(0.25))};
    }
    std::string describe() const override { return "one-output test surrogate"; }
    const arma::vec& targets() const { return targets_; }

private:
    arma::mat points_;
    arma::vec targets_;
};

const Raw kFixed = {{"kernel", "matern52"},
                    {"lengthscales", "0.3,0.6"},
                    {"noise_variance", "1e-3"},
                    {"mean", "constant"},
                    {"standardise", "true"}};

const Raw kFitted = {{"kernel", "rbf"}, {"ard", "true"},      {"fit", "marginal-likelihood"}, {"refit_every", "3"},
                     {"restarts", "1"}, {"mean", "constant"}, {"standardise", "true"}};

}  // namespace

TEST_CASE(
    "gp with two outputs: each output predicts exactly as a separate gp on its column, through appends and truncation") {
    const arma::mat x = points_in(26, 2, 21);
    const arma::mat y = two_outputs(x);
    const arma::mat queries = points_in(40, 2, 22);
    auto multi = surrogate(kFixed);
    std::vector<std::shared_ptr<dpbo::Surrogate>> singles{surrogate(kFixed), surrogate(kFixed)};

    multi->condition_outputs(x.rows(0, 13), y.rows(0, 13));
    for (std::size_t j = 0; j < 2; ++j) singles[j]->condition(x.rows(0, 13), y.col(j).rows(0, 13));
    CHECK(multi->output_count() == 2);
    CHECK(multi->size() == 14);
    check_outputs_match(*multi, singles, queries);

    multi->append_outputs(x.rows(14, 20), y.rows(14, 20));
    multi->append_outputs(x.rows(21, 25), y.rows(21, 25));
    for (std::size_t j = 0; j < 2; ++j) {
        singles[j]->append(x.rows(14, 20), y.col(j).rows(14, 20));
        singles[j]->append(x.rows(21, 25), y.col(j).rows(21, 25));
    }
    CHECK(multi->size() == 26);
    check_outputs_match(*multi, singles, queries);
    // The same sweep again: the cached path of every output's GP.
    check_outputs_match(*multi, singles, queries);

    multi->truncate(17);
    for (auto& single : singles) single->truncate(17);
    check_outputs_match(*multi, singles, queries);
}

TEST_CASE("gp with two outputs: refits give each output its own hyperparameters, schedule and exact predictions") {
    const arma::mat x = points_in(24, 2, 31);
    const arma::mat y = two_outputs(x);
    const arma::mat queries = points_in(30, 2, 32);
    auto multi = surrogate(kFitted);
    std::vector<std::shared_ptr<dpbo::Surrogate>> singles{surrogate(kFitted), surrogate(kFitted)};
    // The multi-output surrogate refits output 0, then output 1, from one stream; the separate
    // surrogates draw from an identical stream in the same order.
    dpbo::ExperimentRng multi_rng(41);
    dpbo::ExperimentRng singles_rng(41);
    const auto refit_singles = [&] {
        bool any = false;
        for (auto& single : singles) any = single->refit_if_due(singles_rng) || any;
        return any;
    };

    multi->condition_outputs(x.rows(0, 19), y.rows(0, 19));
    for (std::size_t j = 0; j < 2; ++j) singles[j]->condition(x.rows(0, 19), y.col(j).rows(0, 19));
    CHECK(mentions(multi->describe(), "not yet run"));
    CHECK(multi->refit_if_due(multi_rng));
    CHECK(refit_singles());
    check_outputs_match(*multi, singles, queries);

    // The fits found what each output is: output 0 varies along x₀ only and output 1 along x₁
    // only, so each has its shorter length-scale in its own dimension.
    const arma::vec first = singles[0]->lengthscales();
    const arma::vec second = singles[1]->lengthscales();
    CHECK(first(0) < 0.5 * first(1));
    CHECK(second(1) < 0.5 * second(0));
    // The single-output accessors address output 0.
    CHECK(largest_difference(multi->lengthscales(), first) == 0.0);

    multi->append_outputs(x.rows(20, 21), y.rows(20, 21));
    for (std::size_t j = 0; j < 2; ++j) singles[j]->append(x.rows(20, 21), y.col(j).rows(20, 21));
    CHECK_FALSE(multi->refit_if_due(multi_rng));  // 2 of 3 points since the last fit
    CHECK_FALSE(refit_singles());
    check_outputs_match(*multi, singles, queries);

    multi->append_outputs(x.rows(22, 22), y.rows(22, 22));
    for (std::size_t j = 0; j < 2; ++j) singles[j]->append(x.rows(22, 22), y.col(j).rows(22, 22));
    CHECK(multi->refit_if_due(multi_rng));
    CHECK(refit_singles());
    check_outputs_match(*multi, singles, queries);

    const std::string description = multi->describe();
    CHECK(mentions(description, "2 independent outputs"));
    CHECK(mentions(description, "output 0"));
    CHECK(mentions(description, "output 1"));
    CHECK(mentions(description, "2 fits"));
    CHECK(description.find('\n') == std::string::npos);

    // A fresh condition with the same number of outputs keeps each output's hyperparameters, as
    // conditioning one GP anew does.
    multi->condition_outputs(x, y);
    for (std::size_t j = 0; j < 2; ++j) singles[j]->condition(x, y.col(j));
    check_outputs_match(*multi, singles, queries);
}

TEST_CASE("gp with two outputs: the single-output methods address output 0, gradients included") {
    const arma::mat x = points_in(18, 2, 51);
    const arma::mat y = two_outputs(x);
    auto multi = surrogate(kFixed);
    auto first = surrogate(kFixed);
    multi->condition_outputs(x, y);
    first->condition(x, y.col(0));

    const arma::mat queries = points_in(12, 2, 52);
    CHECK(largest_difference(multi->predict(queries).mean, first->predict(queries).mean) <= kSame);
    CHECK(largest_difference(multi->predict(queries).variance, first->predict(queries).variance) <= kSame);
    const arma::rowvec point = queries.row(3);
    const dpbo::PointPosterior a = multi->predict_with_gradient(point);
    const dpbo::PointPosterior b = first->predict_with_gradient(point);
    CHECK(std::abs(a.mean - b.mean) <= kSame);
    CHECK(largest_difference(a.mean_gradient, b.mean_gradient) <= kSame);
    CHECK(largest_difference(a.variance_gradient, b.variance_gradient) <= kSame);
    CHECK(largest_difference(multi->mean_gradient(point), first->mean_gradient(point)) <= kSame);
    CHECK(largest_difference(multi->mean_gradient_weights(point), first->mean_gradient_weights(point)) <= kSame);
    CHECK(largest_difference(multi->gradient_covariance(point), first->gradient_covariance(point)) <= kSame);
}

TEST_CASE("gp with one output: the single-output API is unchanged and is the one-column case") {
    const arma::mat x = points_in(15, 2, 61);
    const arma::vec y = two_outputs(x).col(1);
    const arma::mat queries = points_in(20, 2, 62);

    auto single = surrogate(kFixed);
    CHECK(single->output_count() == 1);  // before any data: the prior of one output
    const dpbo::MultiPosterior prior = single->predict_outputs(queries);
    CHECK(prior.mean.n_cols == 1);
    CHECK(largest_difference(prior.variance.col(0), single->predict(queries).variance) == 0.0);

    single->condition(x.rows(0, 9), y.subvec(0, 9));
    single->append(x.rows(10, 14), y.subvec(10, 14));
    auto as_columns = surrogate(kFixed);
    as_columns->condition_outputs(x.rows(0, 9), arma::mat(y.subvec(0, 9)));
    as_columns->append_outputs(x.rows(10, 14), arma::mat(y.subvec(10, 14)));
    CHECK(single->output_count() == 1);
    CHECK(as_columns->output_count() == 1);
    const dpbo::Posterior posterior = single->predict(queries);
    const dpbo::MultiPosterior columns = as_columns->predict_outputs(queries);
    CHECK(largest_difference(columns.mean.col(0), posterior.mean) <= kSame);
    CHECK(largest_difference(columns.variance.col(0), posterior.variance) <= kSame);
    CHECK(largest_difference(single->predict_outputs(queries).mean, arma::mat(posterior.mean)) == 0.0);
    CHECK(single->describe() == as_columns->describe());
    CHECK_FALSE(mentions(single->describe(), "outputs"));

    // Conditioning with another number of outputs replaces the model; appending may not change it.
    single->condition_outputs(x, two_outputs(x));
    CHECK(single->output_count() == 2);
    CHECK(single->size() == 15);
}

TEST_CASE("a surrogate that models one output keeps the interface's defaults: one column passes, more are refused") {
    OneOutputSurrogate model;
    CHECK(model.output_count() == 1);
    const arma::mat points = points_in(4, 3, 71);
    model.condition_outputs(points, arma::mat(arma::vec{1.0, 2.0, 3.0, 4.0}));
    model.append_outputs(points.rows(0, 0), arma::mat(1, 1, arma::fill::value(5.0)));
    CHECK(model.size() == 5);
    CHECK(arma::approx_equal(model.targets(), arma::vec{1.0, 2.0, 3.0, 4.0, 5.0}, "absdiff", 0.0));

    const dpbo::MultiPosterior posterior = model.predict_outputs(points);
    const dpbo::Posterior single = model.predict(points);
    CHECK(posterior.mean.n_cols == 1);
    CHECK(largest_difference(posterior.mean.col(0), single.mean) == 0.0);
    CHECK(largest_difference(posterior.variance.col(0), single.variance) == 0.0);

    const std::string two = refusal_of([&] { model.condition_outputs(points, arma::mat(4, 2, arma::fill::ones)); });
    CHECK(mentions(two, "single output"));
    CHECK(mentions(two, "2 columns"));
    const std::string rows = refusal_of([&] { model.append_outputs(points, arma::mat(3, 1, arma::fill::ones)); });
    CHECK(mentions(rows, "4 points"));
    CHECK(mentions(rows, "3 target rows"));
    CHECK(model.size() == 5);
}

TEST_CASE(
    "gp with two outputs: wrong shapes and non-finite targets are refused by name, and the data stay as they were") {
    const arma::mat x = points_in(12, 2, 81);
    const arma::mat y = two_outputs(x);
    auto multi = surrogate(kFixed);
    multi->condition_outputs(x.rows(0, 9), y.rows(0, 9));
    const arma::mat queries = points_in(8, 2, 82);
    const dpbo::MultiPosterior before = multi->predict_outputs(queries);

    const std::string more =
        refusal_of([&] { multi->append_outputs(x.rows(10, 11), arma::mat(2, 3, arma::fill::ones)); });
    CHECK(mentions(more, "3 column(s)"));
    CHECK(mentions(more, "2 output(s)"));
    const std::string fewer = refusal_of([&] { multi->append(x.rows(10, 11), y.col(0).rows(10, 11)); });
    CHECK(mentions(fewer, "1 column(s)"));
    CHECK(mentions(fewer, "2 output(s)"));
    const std::string rows = refusal_of([&] { multi->append_outputs(x.rows(10, 11), y.rows(9, 11)); });
    CHECK(mentions(rows, "2 points but 3 target rows"));
    const std::string none = refusal_of([&] { multi->condition_outputs(x, arma::mat(12, 0)); });
    CHECK(mentions(none, "no columns"));
    const std::string dimension =
        refusal_of([&] { multi->append_outputs(arma::mat(2, 3, arma::fill::value(0.5)), y.rows(10, 11)); });
    CHECK(mentions(dimension, "3 coordinates"));
    CHECK(mentions(dimension, "2-D"));

    arma::mat broken = y.rows(10, 11);
    broken(1, 1) = std::numeric_limits<double>::quiet_NaN();
    const std::string nan = refusal_of([&] { multi->append_outputs(x.rows(10, 11), broken); });
    CHECK(mentions(nan, "output 1"));
    CHECK(mentions(nan, "point 1"));
    CHECK(mentions(nan, "nan"));
    const std::string nan_condition = refusal_of([&] { multi->condition_outputs(x.rows(10, 11), broken); });
    CHECK(mentions(nan_condition, "output 1"));

    // Every refusal came before any output changed.
    CHECK(multi->size() == 10);
    CHECK(multi->output_count() == 2);
    const dpbo::MultiPosterior after = multi->predict_outputs(queries);
    CHECK(largest_difference(after.mean, before.mean) == 0.0);
    CHECK(largest_difference(after.variance, before.variance) == 0.0);
}
