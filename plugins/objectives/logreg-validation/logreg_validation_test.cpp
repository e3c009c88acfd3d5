// The logreg-validation objective: its LIBSVM reader refuses malformed data by file and line, its
// f_V(λ) is a function (deterministic training), the declared Assumption-2 constants hold on the
// per-record gains it returns, and its neighbour switch replaces exactly one validation record.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// Small prefixes of the shipped a9a splits, for speed.
const Parameters kSmall = {{"training_records", "2000"}, {"validation_records", "400"}};

Parameters with(Parameters parameters, const Parameters& changes) {
    for (const auto& [key, value] : changes) parameters[key] = value;
    return parameters;
}

std::shared_ptr<dpbo::Objective> objective(const Parameters& parameters) {
    return dpbo::test::make<dpbo::Objective>("logreg-validation", parameters);
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A LIBSVM file with `text` in the test's temporary folder.
std::string write_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("dpbo-logreg-" + name);
    std::ofstream(path) << text;
    return path.string();
}

const arma::mat kLambdas = arma::mat{1e-4, 1e-3, 3e-2, 1.0}.t();

}  // namespace

TEST_CASE("logreg-validation: the reader refuses malformed LIBSVM data, naming the file and line") {
    const std::string good = "+1 1:1 5:1 9:1\n-1 2:1 3:1\n";
    const struct {
        const char* name;
        std::string text;
        std::string message;
    } cases[] = {
        {"label", good + "2 1:1\n", "line 3: label '2' is not +1 or -1"},
        {"no-label", good + "\n", "line 3: no label"},
        {"index-zero", good + "+1 0:1\n", "line 3: entry '0:1' has an index outside 1..123"},
        {"index-high", good + "+1 124:1\n", "line 3: entry '124:1' has an index outside 1..123"},
        {"order", good + "+1 5:1 3:1\n", "line 3: entry '3:1' has an index not above the previous one (5)"},
        {"repeat", good + "+1 5:1 5:1\n", "index not above the previous one"},
        {"nan", good + "+1 4:nan\n", "line 3: entry '4:nan' has a value that is not a finite number"},
        {"text", good + "+1 4:x\n", "entry '4:x' has a value that is not a finite number"},
        {"colon", good + "+1 4\n", "line 3: entry '4' is not idx:value"},
        {"long", "+1" + std::string(70000, ' ') + "1:1\n", "line 1 is longer than 65536 bytes"},
        {"norm", "+1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1 10:1 11:1 12:1 13:1 14:1 15:1\n" + good,
         "line 1 has squared norm above the public bound 14"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        const std::string path = write_file(c.name, c.text);
        try {
            objective({{"training_records", "1"}, {"validation_records", "3"}, {"validation_file", path}});
            FAIL("malformed data was accepted");
        } catch (const dpbo::RunError& e) {
            CHECK(c.name != std::string("long"));
            CHECK(mentions(e.what(), path));
            CHECK(mentions(e.what(), c.message));
        } catch (const dpbo::ValidationError& e) {
            // A line beyond the cap is refused as input that is not this format at all, as every
            // data reader does (exit 2).
            CHECK(c.name == std::string("long"));
            CHECK(mentions(e.what(), path));
            CHECK(mentions(e.what(), c.message));
        }
        std::filesystem::remove(path);
    }
    const std::string short_file = write_file("short", good);
    CHECK_THROWS_WITH_AS(
        objective({{"training_records", "1"}, {"validation_records", "3"}, {"validation_file", short_file}}),
        doctest::Contains(("validation_records = 3 is not allowed; " + short_file + " has only 2 rows").c_str()),
        dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective({{"training_records", "40000"}}), doctest::Contains("training_records = 40000"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective({{"training_file", "/nonexistent/a9a"}}), doctest::Contains("/nonexistent/a9a"),
                         dpbo::RunError);
    std::filesystem::remove(short_file);
}

TEST_CASE("logreg-validation: f_V(lambda) is a function of lambda, and the shipped data read as documented") {
    auto first = objective(kSmall);
    auto second = objective(kSmall);
    const auto a = dpbo::test::evaluate(*first, kLambdas);
    const auto again = dpbo::test::evaluate(*first, kLambdas);  // memoised
    const auto b = dpbo::test::evaluate(*second, kLambdas);     // trained afresh
    CHECK(arma::all(arma::vectorise(a.values == b.values)));
    CHECK(arma::all(arma::vectorise(a.per_record == again.per_record)));
    CHECK(arma::all(arma::vectorise(a.per_record == b.per_record)));
    CHECK(first->sense() == dpbo::Sense::Maximise);
    CHECK(dpbo::record_count(*first) == 400);
    CHECK(first->space().dimensions()[0].scale == dpbo::Scale::Log);
    // Accuracy falls from the well-fitted model's to the majority class's as λ grows: at λ = 1 the
    // model is all but w = 0 on the √14-scaled rows.
    CHECK(a.values(0) > 0.8);
    CHECK(a.values(0) > a.values(3));
    CHECK(mentions(dpbo::data_description(*first), "a9a"));
    // The evaluation-only reference is the best over a grid that includes the box's ends.
    const auto reference = dpbo::reference_values(*first);
    REQUIRE(reference.size() == 2);
    CHECK(reference[0].value(0, 0) >= a.values(0));
    CHECK(reference[0].value(0, 0) >= a.values(3));
}

TEST_CASE("logreg-validation: declared constants hold on the returned gains") {
    for (const std::string gain : {"ramp", "sigmoid", "accuracy"}) {
        CAPTURE(gain);
        auto lr = objective(with(kSmall, {{"gain", gain}, {"lambda_min", "1e-3"}, {"lambda_max", "5"}}));
        const auto l = dpbo::test::declared_constant(*lr, "lipschitz");
        CHECK(dpbo::test::declared_constant(*lr, "gain_bound") == 1.0);
        CHECK(dpbo::test::declared_constant(*lr, "validation_records") == 400.0);
        CHECK(dpbo::test::declared_constant(*lr, "lambda_min") == 1e-3);
        CHECK(dpbo::test::declared_constant(*lr, "lambda_max") == 5.0);
        if (gain == "accuracy") {
            CHECK_FALSE(l.has_value());  // a 0/1 gain is not Lipschitz in w
        } else {
            REQUIRE(l.has_value());
            CHECK(*l == (gain == "ramp" ? 1.0 : 0.25));
        }
        const double g_star = *dpbo::test::declared_constant(*lr, "gain_bound");
        const arma::mat gains = dpbo::test::evaluate(*lr, arma::mat{1e-3, 1e-2, 0.1, 5.0}.t()).per_record;
        CHECK(arma::abs(gains).max() <= g_star);
        if (gain != "accuracy") CHECK(gains.max() <= 0.0);  // negated losses
        // One record replaced: every mean gain moves by at most g*/m.
        auto neighbour = objective(
            with(kSmall, {{"gain", gain}, {"lambda_min", "1e-3"}, {"lambda_max", "5"}, {"neighbour_record", "7"}}));
        const auto before = dpbo::test::evaluate(*lr, arma::mat{1e-3, 1e-2, 0.1, 5.0}.t());
        const auto after = dpbo::test::evaluate(*neighbour, arma::mat{1e-3, 1e-2, 0.1, 5.0}.t());
        CHECK(arma::abs(before.values - after.values).max() <= g_star / 400.0 * (1.0 + 1e-12));
    }
}

TEST_CASE("logreg-validation: the Lipschitz constant bounds the gain's change between two models") {
    // |g(w₁, x, y) − g(w₂, x, y)| ≤ L‖w₁ − w₂‖ follows from |g(z₁) − g(z₂)| ≤ L|z₁ − z₂| with
    // z = y·w·x and |z₁ − z₂| ≤ ‖w₁ − w₂‖‖x‖ ≤ ‖w₁ − w₂‖. Checked on the gains the objective returns:
    // two λ close together give two models, and each record's gain may change by at most L times its
    // margin's change, which the sigmoid gain lets us recover: z = log(−1/g − 1).
    auto sigmoid = objective(with(kSmall, {{"gain", "sigmoid"}}));
    auto ramp = objective(with(kSmall, {{"gain", "ramp"}}));
    const arma::mat lambdas = arma::mat{2e-3, 2.2e-3}.t();
    const arma::mat s = dpbo::test::evaluate(*sigmoid, lambdas).per_record;
    const arma::mat r = dpbo::test::evaluate(*ramp, lambdas).per_record;
    const arma::rowvec z1 = arma::log(-1.0 / s.row(0) - 1.0);
    const arma::rowvec z2 = arma::log(-1.0 / s.row(1) - 1.0);
    const arma::rowvec margin_change = arma::abs(z1 - z2);
    REQUIRE(margin_change.max() > 0.0);
    // Record by record, with a tolerance for recovering z from g in doubles.
    CHECK(arma::all(arma::abs(s.row(0) - s.row(1)) <= 0.25 * margin_change + 1e-12));
    CHECK(arma::all(arma::abs(r.row(0) - r.row(1)) <= 1.0 * margin_change + 1e-12));
    // The sigmoid bound is attained near z = 0 (|g′(0)| = 1/4): it is not loose by a factor.
    const arma::uword flattest = arma::index_min(arma::abs(z1));
    CHECK(std::fabs(s(0, flattest) - s(1, flattest)) >= 0.2 * std::fabs(z1(flattest) - z2(flattest)));
}

TEST_CASE("logreg-validation: the neighbour switch flips or sets one validation record's label") {
    auto drawn = objective(with(kSmall, {{"gain", "sigmoid"}}));
    auto flipped = objective(with(kSmall, {{"gain", "sigmoid"}, {"neighbour_record", "3"}}));
    const arma::mat gains = dpbo::test::evaluate(*drawn, kLambdas).per_record;
    const arma::mat neighbour = dpbo::test::evaluate(*flipped, kLambdas).per_record;
    for (arma::uword i = 0; i < gains.n_cols; ++i) {
        CAPTURE(i);
        if (i == 3) {
            // 1/(1 + e^{−z}) = 1 − 1/(1 + e^{z}): the flipped record's gain is −1 minus the original's.
            CHECK(arma::approx_equal(neighbour.col(i), -1.0 - gains.col(i), "absdiff", 1e-12));
        } else {
            CHECK(arma::all(neighbour.col(i) == gains.col(i)));  // bit-identical
        }
    }
    CHECK(mentions(dpbo::data_description(*flipped), "record 3 replaced"));
    CHECK_FALSE(mentions(dpbo::data_description(*drawn), "replaced"));
    // a9a.t's record 0 is labelled −1: setting its label to −1 changes nothing, to +1 flips it.
    auto same = objective(with(kSmall, {{"neighbour_record", "0"}, {"neighbour_value", "-1"}}));
    auto plus = objective(with(kSmall, {{"neighbour_record", "0"}, {"neighbour_value", "1"}}));
    auto accuracy = objective(kSmall);
    const arma::mat base = dpbo::test::evaluate(*accuracy, kLambdas).per_record;
    CHECK(arma::all(arma::vectorise(dpbo::test::evaluate(*same, kLambdas).per_record == base)));
    CHECK(arma::all(dpbo::test::evaluate(*plus, kLambdas).per_record.col(0) == 1.0 - base.col(0)));
}

TEST_CASE("logreg-validation: bad parameters are refused by name") {
    CHECK_THROWS_WITH_AS(objective(with(kSmall, {{"lambda_min", "1"}, {"lambda_max", "1"}})),
                         doctest::Contains("lambda_min = 1 and lambda_max = 1"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective(with(kSmall, {{"lambda_min", "0"}})), doctest::Contains("lambda_min"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective(with(kSmall, {{"gain", "hinge"}})), doctest::Contains("gain"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective(with(kSmall, {{"neighbour_record", "400"}})),
                         doctest::Contains("neighbour_record = 400"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective(with(kSmall, {{"neighbour_record", "1"}, {"neighbour_value", "0.5"}})),
                         doctest::Contains("neighbour_value = 0.5"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective({{"validation_records", "20000"}}), doctest::Contains("validation_records = 20000"),
                         dpbo::ValidationError);
    auto lr = objective(kSmall);
    CHECK_THROWS_WITH_AS(dpbo::test::evaluate(*lr, arma::mat{-1.0}), doctest::Contains("lambda = -1"),
                         dpbo::ValidationError);
}
