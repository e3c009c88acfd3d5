// The gp-lengthscales objective (DP-GIBO's GP length-scale tuning benchmark), loaded through the
// registry: the data follow from data_seed, the value is the mean of the per-record validation
// losses, the GP prediction agrees with a direct closed-form computation, the analytic per-record
// gradients agree with finite differences, and bad parameters and points are refused.
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// Small enough for every test to stay fast: 100 training and 100 validation records in 3-d.
const Parameters kSmall = {{"dim", "3"}, {"records", "200"}};

std::shared_ptr<dpbo::Objective> gp_lengthscales(const Parameters& parameters) {
    return dpbo::test::make<dpbo::Objective>("gp-lengthscales", parameters);
}

Parameters with(Parameters parameters, const Parameters& changes) {
    for (const auto& [key, value] : changes) parameters[key] = value;
    return parameters;
}

using dpbo::test::evaluate;

double value_at(dpbo::Objective& objective, const arma::rowvec& point) {
    return evaluate(objective, arma::mat(point), false).values(0);
}

std::string refusal(const Parameters& parameters) {
    try {
        gp_lengthscales(parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

std::string run_refusal(dpbo::Objective& objective, const arma::rowvec& point) {
    try {
        evaluate(objective, arma::mat(point));
    } catch (const dpbo::RunError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

// The evaluation-only reference the objective reports for the validation loss at the true
// length-scales; the public data description must not carry it (it is computed from the records).
double reported_truth_loss(const dpbo::Objective& objective) {
    CHECK(dpbo::data_description(objective).find("length-scales:") == std::string::npos);
    const auto references = dpbo::reference_values(objective);
    REQUIRE(references.size() == 1);
    CHECK(references.front().name == "loss_at_true_lengthscales");
    return references.front().value(0, 0);
}

// The plugin's documented draws (regression_data.hpp), redone here from the seed: true
// length-scales, inputs, and targets y = chol(K + noise² I) z, with the kernel written out
// element by element rather than through the plugin's distance expansion.
struct DrawnData {
    arma::vec truth;
    arma::mat inputs;
    arma::vec targets;
};

double rbf(const arma::rowvec& a, const arma::rowvec& b, const arma::vec& lengthscales) {
    double r2 = 0.0;
    for (arma::uword k = 0; k < lengthscales.n_elem; ++k) {
        const double scaled = (a(k) - b(k)) / lengthscales(k);
        r2 += scaled * scaled;
    }
    return std::exp(-0.5 * r2);
}

arma::mat rbf_matrix(const arma::mat& a, const arma::mat& b, const arma::vec& lengthscales) {
    arma::mat result(a.n_rows, b.n_rows);
    for (arma::uword i = 0; i < a.n_rows; ++i) {
        for (arma::uword j = 0; j < b.n_rows; ++j) result(i, j) = rbf(a.row(i), b.row(j), lengthscales);
    }
    return result;
}

DrawnData redraw(std::uint64_t seed, std::size_t dim, std::size_t records, double low, double high, double noise,
                 double input_range) {
    dpbo::ExperimentRng rng(seed);
    DrawnData data;
    data.truth = low + (high - low) * rng.uniform(dim, 1);
    data.inputs = input_range * rng.uniform(records, dim);
    const arma::vec z = rng.normal(records, 1);
    arma::mat covariance = rbf_matrix(data.inputs, data.inputs, data.truth);
    covariance.diag() += noise * noise;
    data.targets = arma::chol(covariance, "lower") * z;
    return data;
}

// The true length-scales of a data set drawn with these parameters (the first draw of its seed).
arma::rowvec true_lengthscales(std::uint64_t seed, std::size_t dim, double low, double high) {
    dpbo::ExperimentRng rng(seed);
    return (low + (high - low) * rng.uniform(dim, 1)).t();
}

}  // namespace

TEST_CASE("gp-lengthscales: defaults are the paper's d = 15 setup, calibrated near its 0.047") {
    auto objective = gp_lengthscales({});
    CHECK(objective->sense() == dpbo::Sense::Minimise);
    CHECK(objective->space().dim() == 15);
    CHECK(arma::all(objective->space().lower() == 0.1));
    CHECK(arma::all(objective->space().upper() == 5.0));
    CHECK(dpbo::record_count(*objective) == 1000);
    CHECK_FALSE(dpbo::known_optimum(*objective).has_value());
    CHECK((dpbo::capability<dpbo::RecordGradients>(*objective) != nullptr));

    // The authors' code reports 0.047 at the true length-scales (d = 15); input_range 1.75 and
    // data_noise 0.11 were chosen for that. A setting far from the truth in either direction must
    // be clearly worse: on [0, 1.75]^d the long length-scales matter too.
    const double truth = reported_truth_loss(*objective);
    CHECK(truth == doctest::Approx(0.047).epsilon(0.1));
    const arma::rowvec truth_point = true_lengthscales(0, 15, 0.5, 5.0);
    CHECK(value_at(*objective, truth_point) == doctest::Approx(truth).epsilon(1e-3));
    CHECK(value_at(*objective, arma::rowvec(15, arma::fill::value(0.1))) > 10.0 * truth);
    CHECK(value_at(*objective, arma::rowvec(15, arma::fill::value(5.0))) > 3.0 * truth);
}

TEST_CASE("gp-lengthscales: per-record losses average to the value, one column per validation record") {
    auto objective = gp_lengthscales(with(kSmall, {{"train_fraction", "0.3"}}));
    REQUIRE(dpbo::record_count(*objective) == 140);  // 200 − round(0.3 · 200)
    const arma::mat points = {{0.5, 1.0, 2.0}, {0.1, 0.1, 0.1}, {5.0, 5.0, 5.0}, {1.5, 0.3, 4.0}};
    const dpbo::Evaluations result = evaluate(*objective, points);
    REQUIRE(result.per_record.n_rows == 4);
    REQUIRE(result.per_record.n_cols == 140);
    CHECK(arma::all(arma::vectorise(result.per_record) >= 0.0));
    CHECK(arma::approx_equal(arma::vec(arma::mean(result.per_record, 1)), result.values, "reldiff", 1e-12));
    CHECK(evaluate(*objective, points, false).per_record.is_empty());
}

TEST_CASE("gp-lengthscales: the true length-scales give a lower loss than far-off ones") {
    // A truth range inside the box and away from both of its ends, so both ends are far off.
    const Parameters parameters =
        with(kSmall, {{"lengthscale_low", "0.5"}, {"lengthscale_high", "1.0"}, {"data_seed", "3"}});
    auto objective = gp_lengthscales(parameters);
    const arma::rowvec truth = true_lengthscales(3, 3, 0.5, 1.0);
    const double at_truth = value_at(*objective, truth);
    CHECK(reported_truth_loss(*objective) == doctest::Approx(at_truth).epsilon(1e-3));
    CHECK(at_truth < value_at(*objective, arma::rowvec(3, arma::fill::value(0.1))));
    CHECK(at_truth < value_at(*objective, arma::rowvec(3, arma::fill::value(5.0))));
    CHECK(at_truth < value_at(*objective, truth % arma::rowvec{4.0, 0.25, 4.0}));
}

TEST_CASE("gp-lengthscales: the same data_seed gives the same data, another seed other data") {
    const arma::mat points = {{0.7, 1.2, 2.5}, {3.0, 0.4, 1.0}};
    auto first = gp_lengthscales(with(kSmall, {{"data_seed", "11"}}));
    auto again = gp_lengthscales(with(kSmall, {{"data_seed", "11"}}));
    auto other = gp_lengthscales(with(kSmall, {{"data_seed", "12"}}));
    const arma::mat losses = evaluate(*first, points).per_record;
    CHECK(arma::approx_equal(losses, evaluate(*again, points).per_record, "absdiff", 0.0));
    CHECK(dpbo::data_description(*first) == dpbo::data_description(*again));
    CHECK(arma::abs(losses - evaluate(*other, points).per_record).max() > 1e-3);
    CHECK(dpbo::data_description(*first) != dpbo::data_description(*other));
}

TEST_CASE("gp-lengthscales: the prediction equals the closed form on 5 training records") {
    // 10 records, 5 per split: rebuild the data from the seed and predict by solving the full
    // 5 × 5 system directly. Noise variance 0.01 on the diagonals bounds every condition number
    // here by about (10 + 0.01)/0.01 = 1000, so both computations agree to ~1e-13; 1e-10 leaves
    // room without hiding a real difference (a wrong kernel or split moves the losses by >1e-3).
    const std::size_t dim = 2;
    const double noise = 0.1;
    auto objective = gp_lengthscales({{"dim", "2"},
                                      {"records", "10"},
                                      {"lengthscale_low", "0.4"},
                                      {"lengthscale_high", "0.6"},
                                      {"input_range", "1.3"},
                                      {"data_noise", "0.1"},
                                      {"data_seed", "5"}});
    const DrawnData data = redraw(5, dim, 10, 0.4, 0.6, noise, 1.3);
    const arma::mat train = data.inputs.rows(0, 4);
    const arma::mat validation = data.inputs.rows(5, 9);
    const arma::vec train_targets = data.targets.subvec(0, 4);
    const arma::vec validation_targets = data.targets.subvec(5, 9);

    const arma::mat points = {{0.7, 1.3}, {0.2, 4.0}, {0.45, 0.55}};
    const arma::mat losses = evaluate(*objective, points).per_record;
    REQUIRE(losses.n_rows == 3);
    REQUIRE(losses.n_cols == 5);
    for (arma::uword p = 0; p < points.n_rows; ++p) {
        const arma::vec theta = points.row(p).t();
        arma::mat system = rbf_matrix(train, train, theta);
        system.diag() += noise * noise;
        const arma::vec prediction = rbf_matrix(validation, train, theta) * arma::solve(system, train_targets);
        const arma::rowvec expected = arma::square(validation_targets - prediction).t();
        CAPTURE(p);
        CHECK(arma::approx_equal(losses.row(p), expected, "both", 1e-10, 1e-10));
    }
    // The description's reference loss is the closed form at the true length-scales.
    arma::mat system = rbf_matrix(train, train, data.truth);
    system.diag() += noise * noise;
    const arma::vec truth_prediction = rbf_matrix(validation, train, data.truth) * arma::solve(system, train_targets);
    CHECK(reported_truth_loss(*objective) ==
          doctest::Approx(arma::mean(arma::square(validation_targets - truth_prediction))).epsilon(1e-3));
}

TEST_CASE("gp-lengthscales: a batch of b points equals b single-point evaluations") {
    auto objective = gp_lengthscales(kSmall);
    const arma::mat points = {{0.3, 2.0, 4.5}, {1.0, 1.0, 1.0}, {4.9, 0.15, 2.2}, {0.8, 3.3, 0.6}};
    const dpbo::Evaluations batch = evaluate(*objective, points);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const dpbo::Evaluations single = evaluate(*objective, arma::mat(points.row(i)));
        CAPTURE(i);
        // The same computation on the same inputs: only rounding could differ.
        CHECK(single.values(0) == doctest::Approx(batch.values(i)).epsilon(1e-12));
        CHECK(arma::approx_equal(single.per_record.row(0), batch.per_record.row(i), "reldiff", 1e-12));
    }
}

TEST_CASE("gp-lengthscales: per-record gradients agree with central finite differences") {
    auto objective = gp_lengthscales(kSmall);
    const arma::rowvec point = {0.6, 1.7, 3.1};
    const arma::mat gradients = dpbo::test::record_gradients(*objective, point);
    REQUIRE(gradients.n_rows == dpbo::record_count(*objective));
    REQUIRE(gradients.n_cols == 3);
    // Central differences with relative step h = 1e-5: truncation error ~h²·|∂³L| ≈ 1e-10 and
    // rounding ~1e-16 · cond(K + σ²I) (≤ 2.5e3 here) / h ≈ 3e-8, so 1e-6 of the largest gradient
    // entry is far above both yet far below any error in the formula.
    const double scale = std::max(1.0, arma::abs(gradients).max());
    for (arma::uword k = 0; k < 3; ++k) {
        const double step = 1e-5 * point(k);
        arma::mat shifted(2, 3);
        shifted.row(0) = point;
        shifted.row(1) = point;
        shifted(0, k) += step;
        shifted(1, k) -= step;
        const arma::mat losses = evaluate(*objective, shifted).per_record;
        const arma::vec difference = ((losses.row(0) - losses.row(1)) / (2.0 * step)).t();
        CAPTURE(k);
        CHECK(arma::abs(difference - gradients.col(k)).max() < 1e-6 * scale);
    }
    // The gradients are not trivially zero at this point.
    CHECK(arma::abs(gradients).max() > 1e-3);
}

TEST_CASE("gp-lengthscales: observation noise shifts a point's value and all its records alike") {
    // One point repeated m = 400 times: the shifts are i.i.d. N(0, s²). Their mean lies within
    // 4 standard errors s/√m, and their sample standard deviation within 4 of its standard errors
    // s/√(2(m − 1)) of s (each fails by chance with probability below 1e-4).
    const double s = 0.05;
    const std::size_t m = 400;
    auto exact = gp_lengthscales(kSmall);
    auto noisy = gp_lengthscales(with(kSmall, {{"noise_stddev", "0.05"}}));
    const arma::rowvec point = {0.9, 2.0, 1.4};
    const arma::mat points = arma::repmat(point, m, 1);
    dpbo::ExperimentRng rng(21);
    const dpbo::Evaluations observed = evaluate(*noisy, points, true, &rng);
    const dpbo::Evaluations clean = evaluate(*exact, arma::mat(point));

    CHECK(arma::approx_equal(arma::vec(arma::mean(observed.per_record, 1)), observed.values, "absdiff", 1e-12));
    arma::mat record_shifts = observed.per_record;
    record_shifts.each_row() -= clean.per_record.row(0);
    arma::mat expected_shifts(m, record_shifts.n_cols);
    expected_shifts.each_col() = observed.values - clean.values(0);
    CHECK(arma::approx_equal(record_shifts, expected_shifts, "absdiff", 1e-12));

    const arma::vec shifts = observed.values - clean.values(0);
    CHECK(std::abs(arma::mean(shifts)) < 4.0 * s / std::sqrt(static_cast<double>(m)));
    CHECK(std::abs(arma::stddev(shifts) - s) < 4.0 * s / std::sqrt(2.0 * (m - 1.0)));

    CHECK_THROWS_AS(evaluate(*noisy, arma::mat(point), true, nullptr), dpbo::RunError);

    // An exact request (an algorithm's evaluation-only f(θ_T)) gets the rows without the noise.
    dpbo::EvaluationRequest exact_request;
    exact_request.per_record = true;
    exact_request.rng = &rng;
    exact_request.exact = true;
    const dpbo::Evaluations judged = noisy->evaluate(arma::mat(point), exact_request);
    CHECK(judged.values(0) == clean.values(0));
    CHECK(arma::approx_equal(judged.per_record, clean.per_record, "absdiff", 0.0));
}

TEST_CASE("gp-lengthscales: bad parameters are refused naming the key") {
    CHECK(mentions(refusal({{"dim", "0"}}), "dim"));
    CHECK(mentions(refusal({{"records", "3"}}), "records"));
    CHECK(mentions(refusal({{"records", "20000"}}), "records"));
    CHECK(mentions(refusal({{"train_fraction", "1"}}), "train_fraction"));
    CHECK(mentions(refusal({{"train_fraction", "0"}}), "train_fraction"));
    // round(0.05 · 8) = 0 training records.
    const std::string empty_split = refusal({{"records", "8"}, {"train_fraction", "0.05"}});
    CHECK(mentions(empty_split, "train_fraction"));
    CHECK(mentions(empty_split, "0 training"));
    const std::string reversed = refusal({{"lengthscale_low", "3"}, {"lengthscale_high", "1"}});
    CHECK(mentions(reversed, "lengthscale_low = 3"));
    CHECK(mentions(reversed, "lengthscale_high = 1"));
    CHECK(mentions(refusal({{"lengthscale_low", "0"}}), "lengthscale_low"));
    CHECK(mentions(refusal({{"space_low", "0"}}), "space_low"));
    CHECK(mentions(refusal({{"space_low", "2"}, {"space_high", "1"}}), "space_low = 2"));
    CHECK(mentions(refusal({{"data_noise", "0"}}), "data_noise"));
    CHECK(mentions(refusal({{"input_range", "0"}}), "input_range"));
    CHECK(mentions(refusal({{"input_range", "-1"}}), "input_range"));
    CHECK(mentions(refusal({{"data_seed", "-1"}}), "data_seed"));
    CHECK(mentions(refusal({{"noise_stddev", "-0.1"}}), "noise_stddev"));
    // Equal ends of the truth range are allowed: every true length-scale is that value.
    CHECK(refusal(with(kSmall, {{"lengthscale_low", "2"}, {"lengthscale_high", "2"}})).empty());
}

TEST_CASE("gp-lengthscales: evaluate refuses non-positive or non-finite length-scales") {
    auto objective = gp_lengthscales(kSmall);
    const std::string zero = run_refusal(*objective, {1.0, 0.0, 2.0});
    CHECK(mentions(zero, "gp-lengthscales"));
    CHECK(mentions(zero, "point 0 (1, 0, 2)"));
    CHECK(mentions(zero, "length-scale 1 = 0"));
    CHECK(mentions(run_refusal(*objective, {-0.5, 1.0, 2.0}), "length-scale 0 = -0.5"));
    CHECK(mentions(run_refusal(*objective, {1.0, 1.0, arma::datum::nan}), "must be positive"));
    CHECK_THROWS_AS(dpbo::test::record_gradients(*objective, arma::rowvec{1.0, -1.0, 1.0}), dpbo::RunError);
    CHECK_THROWS_AS(evaluate(*objective, arma::mat(2, 4, arma::fill::ones)), dpbo::RunError);
}
