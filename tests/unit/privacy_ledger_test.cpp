// The privacy seam: typed events, the basic and gdp accountants on them, the run's ledger (budget,
// scope, log, statement) and the Selection interface.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"
#include "test_support.hpp"

namespace {

using dpbo::PrivacyBudget;
using dpbo::PrivacyEvent;
using dpbo::PrivacyLedger;

std::shared_ptr<dpbo::Accountant> accountant(const std::string& name) {
    return dpbo::test::make<dpbo::Accountant>(name);
}

PrivacyEvent gdp(double mu, std::string what = "a release") { return {dpbo::GdpEvent{mu}, 1, std::move(what)}; }

PrivacyEvent laplace(double scale, double sensitivity, std::string what = "a release") {
    return {dpbo::LaplaceEvent{scale, sensitivity}, 1, std::move(what)};
}

// A ledger with its scope stated, as an algorithm leaves it before its first release.
std::unique_ptr<PrivacyLedger> scoped_ledger(std::shared_ptr<dpbo::Accountant> composer,
                                             std::optional<PrivacyBudget> budget, dpbo::PrivacyNoiseSource& noise) {
    auto ledger = std::make_unique<PrivacyLedger>(std::move(composer), std::move(budget), noise, "algorithm 'test'");
    ledger->set_scope("replace one record", "one record");
    return ledger;
}

// What a private algorithm returns as the words of its statement.
dpbo::PrivacyStatement private_words() {
    dpbo::PrivacyStatement words = dpbo::PrivacyStatement::gaussian_dp(1.0);
    words.released = {"the noisy values"};
    words.mechanism = "test releases";
    return words;
}

// Picks the best score after adding uniform noise in [0, 1) from one 64-bit draw per score: a
// selection small enough to check the seam, with an exponential-mechanism event as its stated cost.
class NoisyArgmax final : public dpbo::Selection {
public:
    explicit NoisyArgmax(double epsilon) : epsilon_(epsilon) {}
    void calibrate(double quality_sensitivity) override { sensitivity_ = quality_sensitivity; }
    bool calibrated() const override { return sensitivity_ > 0.0; }
    dpbo::PrivacyEvent event() const override {
        if (!calibrated()) throw dpbo::RunError("selection 'noisy-argmax': event() before calibrate()");
        return {dpbo::ExponentialEvent{epsilon_, sensitivity_}};
    }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }
    dpbo::PrivacyStatement guarantee() const override { return dpbo::PrivacyStatement::pure_dp(epsilon_); }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        arma::vec noisy = scores;
        for (double& s : noisy) s += static_cast<double>(noise.next_u64() >> 11) * 0x1p-53;
        return noisy.index_max();
    }

private:
    double epsilon_;
    double sensitivity_ = 0.0;
};

}  // namespace

TEST_CASE("privacy events: each kind validates its fields, naming the kind, the field and the value") {
    struct Bad {
        PrivacyEvent event;
        std::string names;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Appended one by one: g++ 12 warns (falsely) of an uninitialised string when a braced list
    // of variants holding strings is built in one expression.
    std::vector<Bad> bad;
    const auto add = [&bad](PrivacyEvent event, std::string names) {
        bad.push_back({std::move(event), std::move(names)});
    };
    add({dpbo::GaussianEvent{0.0, 1.0}}, "'gaussian': 'sigma' = 0");
    add({dpbo::GaussianEvent{1.0, nan}}, "'gaussian': 'sensitivity' = nan");
    add({dpbo::GdpEvent{-1.0}}, "'gdp': 'mu' = -1");
    add({dpbo::LaplaceEvent{std::numeric_limits<double>::infinity(), 1.0}}, "'laplace': 'scale' = inf");
    add({dpbo::ExponentialEvent{1.0, 0.0}}, "'exponential': 'quality_sensitivity' = 0");
    add({dpbo::SubsampledGaussianEvent{0.0, 1.0, 5}}, "'subsampled-gaussian': 'sampling_rate' = 0");
    add({dpbo::SubsampledGaussianEvent{1.5, 1.0, 5}}, "'subsampled-gaussian': 'sampling_rate' = 1.5");
    add({dpbo::SubsampledGaussianEvent{0.5, 1.0, 0}}, "'subsampled-gaussian': 'steps' = 0");
    add({dpbo::PureDpEvent{0.0}}, "'pure': 'epsilon' = 0");
    add({dpbo::ApproxDpEvent{1.0, 1.0}}, "'approx': 'delta' = 1");
    add({dpbo::ApproxDpEvent{1.0, -1e-9}}, "'approx': 'delta' = -1e-09");
    add({dpbo::GdpEvent{1.0}, 0}, "'gdp': 'repetitions' = 0");
    for (const Bad& b : bad) {
        CAPTURE(b.names);
        CHECK_THROWS_WITH_AS(b.event.validate(), doctest::Contains(b.names.c_str()), dpbo::ValidationError);
    }
    // The edges that are allowed: q = 1 (no subsampling), δ = 0.
    CHECK_NOTHROW(PrivacyEvent{dpbo::SubsampledGaussianEvent{1.0, 1.0, 1}}.validate());
    CHECK_NOTHROW(PrivacyEvent{dpbo::ApproxDpEvent{1.0, 0.0}}.validate());
    const PrivacyEvent described{dpbo::LaplaceEvent{2.0, 0.5}, 3, "value at step 2"};
    CHECK(described.describe() == "laplace (scale b = 2, L1 sensitivity = 0.5) x 3: value at step 2");
    CHECK(described.kind() == dpbo::LaplaceEvent::kind_name);
    CHECK(dpbo::to_string(dpbo::SensitivityNorm::LInf) == "LInf");
}

TEST_CASE("basic accountant: sequential composition and the exact profile of the composed pair") {
    auto basic = accountant("basic");
    basic->compose(laplace(2.0, 1.0));                      // ε = 0.5
    basic->compose({dpbo::ExponentialEvent{0.3, 1.0}, 2});  // 0.6
    basic->compose({dpbo::PureDpEvent{0.1}});               // 0.1
    basic->compose({dpbo::ApproxDpEvent{0.2, 1e-6}});       // 0.2, δ 1e-6
    const double total_epsilon = 0.5 + 0.6 + 0.1 + 0.2;
    const dpbo::PrivacyStatement total = basic->total();
    CHECK(total.notion == dpbo::PrivacyNotion::ApproxDP);
    CHECK(total.epsilon == doctest::Approx(total_epsilon).epsilon(1e-15));
    CHECK(total.delta == 1e-6);
    CHECK(basic->delta_for_epsilon(total_epsilon) == 1e-6);
    CHECK(basic->delta_for_epsilon(5.0) == 1e-6);
    // Below the composed ε: δ + (1 − δ)(e^E − e^ε)/(1 + e^E), the (E, δ) four-output mechanism's profile.
    for (const double epsilon : {0.0, 0.5, 1.0, 1.3}) {
        CAPTURE(epsilon);
        const double expected =
            1e-6 + (1 - 1e-6) * (std::exp(total.epsilon) - std::exp(epsilon)) / (1 + std::exp(total.epsilon));
        CHECK(basic->delta_for_epsilon(epsilon) == doctest::Approx(expected).epsilon(1e-12));
    }
    for (const double delta : {1e-6, 1e-3, 0.1, 0.5}) {
        CAPTURE(delta);
        const double epsilon = basic->epsilon_for_delta(delta);
        CHECK(basic->delta_for_epsilon(epsilon) <= delta);
        if (epsilon > 1e-9) CHECK(basic->delta_for_epsilon(epsilon * (1 - 1e-9)) > delta);
    }
    CHECK_THROWS_WITH_AS(basic->epsilon_for_delta(1e-7), doctest::Contains("1e-07"), dpbo::ValidationError);

    auto pure = accountant("basic");
    pure->compose({dpbo::PureDpEvent{0.25}, 4});
    CHECK(pure->total().notion == dpbo::PrivacyNotion::PureDP);
    CHECK(pure->total().epsilon == 1.0);
    CHECK(pure->delta_for_epsilon(1.0) == 0.0);
    CHECK(pure->delta_for_epsilon(0.999) > 0.0);
}

TEST_CASE("basic accountant: refuses Gaussian, GDP and subsampled events by name, listing what it accepts") {
    auto basic = accountant("basic");
    for (const PrivacyEvent& event : {PrivacyEvent{dpbo::GaussianEvent{1.0, 1.0}}, PrivacyEvent{dpbo::GdpEvent{1.0}},
                                      PrivacyEvent{dpbo::SubsampledGaussianEvent{0.1, 1.0, 10}}}) {
        const std::string kind(event.kind());
        CAPTURE(kind);
        CHECK_THROWS_WITH_AS(basic->compose(event), doctest::Contains(("'" + kind + "'").c_str()),
                             dpbo::ValidationError);
        CHECK_THROWS_WITH_AS(basic->compose(event), doctest::Contains("laplace, exponential, pure, approx"),
                             dpbo::ValidationError);
    }
    CHECK_THROWS_AS(basic->total(), dpbo::RunError);
}

TEST_CASE("gdp accountant: refuses Laplace naming it, composes charges one by one as one group, and clones") {
    auto gdp_accountant = accountant("gdp");
    CHECK_THROWS_WITH_AS(gdp_accountant->compose(laplace(1.0, 1.0)), doctest::Contains("'laplace'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(gdp_accountant->compose(laplace(1.0, 1.0)), doctest::Contains("gaussian, gdp"),
                         dpbo::ValidationError);
    // 25 charges at 1/5 give exactly what one event of 25 repetitions gives.
    auto at_once = accountant("gdp");
    at_once->compose({dpbo::GdpEvent{0.2}, 25});
    for (int t = 0; t < 25; ++t) gdp_accountant->compose(gdp(0.2));
    CHECK(gdp_accountant->total().mu == at_once->total().mu);
    const std::unique_ptr<dpbo::Accountant> copy = gdp_accountant->clone();
    copy->compose(gdp(3.0));
    CHECK(gdp_accountant->total().mu == at_once->total().mu);
    CHECK(copy->total().mu == doctest::Approx(std::sqrt(at_once->total().mu * at_once->total().mu + 9.0)));
}

TEST_CASE("privacy budget: parses mu, epsilon with delta, and pure epsilon, refuses the rest by name") {
    const PrivacyBudget mu = PrivacyBudget::parse("mu=1.5");
    CHECK(mu.mu == 1.5);
    CHECK_FALSE(mu.epsilon.has_value());
    CHECK(mu.describe() == "1.5-GDP");
    const PrivacyBudget approx = PrivacyBudget::parse("epsilon=3,delta=1e-5");
    CHECK(approx.epsilon == 3.0);
    CHECK(approx.delta == 1e-5);
    CHECK(approx.describe() == "(3, 1e-05)-DP");
    const PrivacyBudget pure = PrivacyBudget::parse("epsilon=1");
    CHECK(pure.delta == 0.0);
    CHECK(pure.describe() == "1-DP");
    for (const PrivacyBudget& b : {mu, approx, pure}) {
        const PrivacyBudget again = PrivacyBudget::parse(b.text());
        CHECK(again.text() == b.text());
    }
    const std::vector<std::pair<std::string, std::string>> refusals = {
        {"rho=1", "unknown key 'rho'"},
        {"mu=1,epsilon=2", "cannot be mixed"},
        {"epsilon=1,delta=1", "delta = 1"},
        {"epsilon=1,delta=-0.1", "delta = -0.1"},
        {"mu=0", "mu = 0"},
        {"epsilon=-2", "epsilon = -2"},
        {"delta=1e-5", "delta needs an epsilon"},
        {"mu", "'mu' is not key=value"},
        {"mu=one", "'one' is not a finite number"},
        {"epsilon=1,epsilon=2", "given twice"},
        {"", "is not key=value"},
    };
    for (const auto& [text, message] : refusals) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS(PrivacyBudget::parse(text), doctest::Contains(message.c_str()), dpbo::ValidationError);
    }
}

TEST_CASE("ledger: the release that would exceed the budget is refused before any noise is drawn") {
    // μ = 0.5 per release against a budget of μ = 1: four compose to exactly 1, the fifth to √1.25.
    auto mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "0.5"}});
    mechanism->calibrate(1.0);  // σ = 2
    auto noise = dpbo::PrivacyNoiseSource::from_seed(5);
    auto replay = dpbo::PrivacyNoiseSource::from_seed(5);
    auto ledger = scoped_ledger(accountant("gdp"), PrivacyBudget::parse("mu=1"), noise);
    // Release t draws from stream t − 1 of the key the ledger derived from the source.
    auto key = replay.derive();
    const arma::vec value = {1.0, 2.0, 3.0};
    for (int t = 1; t <= 4; ++t) {
        const arma::vec released = mechanism->release(value, *ledger, "value at step " + std::to_string(t));
        auto stream = key.stream(static_cast<std::uint64_t>(t - 1));
        CHECK(arma::approx_equal(released, dpbo::privacy::gaussian_release(value, 2.0, stream), "absdiff", 0.0));
    }
    CHECK_THROWS_WITH_AS(mechanism->release(value, *ledger, "value at step 5"), doctest::Contains("'value at step 5'"),
                         dpbo::BudgetExceeded);
    try {
        mechanism->release(value, *ledger, "value at step 5");
    } catch (const dpbo::BudgetExceeded& refusal) {
        const std::string message = refusal.what();
        CHECK(message.find("mu=1") != std::string::npos);
        CHECK(message.find("mu = 1.118") != std::string::npos);  // √1.25
        CHECK(message.find("4 earlier release(s)") != std::string::npos);
    }
    // The refused release drew nothing: the fifth stream is untouched, and the run's source moved
    // only by the ledger's key.
    CHECK(noise.next_u64() == replay.next_u64());
    CHECK(ledger->charges() == 4);
    CHECK(ledger->spent().mu == 1.0);
    REQUIRE(ledger->log().size() == 4);
    CHECK(ledger->log()[3].event.what == "value at step 4");
    CHECK(ledger->log()[3].released.n_elem == 3);
}

TEST_CASE("ledger: the statement is the accountant's composition of the logged events, with the algorithm's words") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(8);
    auto ledger = std::make_unique<PrivacyLedger>(dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1e-6"}}),
                                                  std::nullopt, noise, "algorithm 'test'");
    ledger->set_scope("replace one record", "one record");
    auto gaussian = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "0.3"}});
    gaussian->calibrate(0.7);
    for (int t = 0; t < 7; ++t) gaussian->release(arma::vec{0.0, 1.0}, *ledger, "gradient");
    ledger->charge({dpbo::GaussianEvent{2.5, 0.4}, 3, "three stated releases"});
    ledger->charge(gdp(0.05, "one more"));

    const dpbo::PrivacyStatement statement = ledger->statement_for(private_words());
    auto fresh = dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1e-6"}});
    for (const dpbo::LedgerEntry& entry : ledger->log()) fresh->compose(entry.event);
    const dpbo::PrivacyStatement expected = fresh->total();
    CHECK(statement.notion == dpbo::PrivacyNotion::GaussianDP);
    CHECK(statement.mu == expected.mu);
    CHECK(statement.equivalent_epsilon_delta == expected.equivalent_epsilon_delta);
    CHECK(statement.mu == doctest::Approx(std::sqrt(7 * 0.09 + 3 * 0.16 * 0.16 + 0.0025)).epsilon(1e-14));
    CHECK(statement.neighbouring == "replace one record");
    CHECK(statement.protected_unit == "one record");
    CHECK(statement.released == std::vector<std::string>{"the noisy values"});
    CHECK(statement.mechanism.find("test releases; μ-GDP composition of 11 releases") == 0);
    CHECK_NOTHROW(statement.validate());
    // Mechanism releases are logged with what they released.
    REQUIRE(ledger->log().size() == 9);
    CHECK(ledger->log()[0].released.n_elem == 2);
    CHECK(ledger->log()[7].released.is_empty());
}

TEST_CASE("ledger: no claim without a charge, no charge without a scope") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(9);
    PrivacyLedger ledger(accountant("gdp"), std::nullopt, noise, "algorithm 'careless'");
    CHECK_THROWS_WITH_AS(ledger.charge(gdp(1.0)), doctest::Contains("algorithm 'careless'"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(ledger.statement_for(private_words()), doctest::Contains("charged no release"),
                         dpbo::RunError);
    const dpbo::PrivacyStatement nothing = dpbo::PrivacyStatement::not_private({"the exact values"}, "no mechanism");
    CHECK(ledger.statement_for(nothing).notion == dpbo::PrivacyNotion::NotPrivate);
    ledger.set_scope("replace one record", "one record");
    CHECK_NOTHROW(ledger.set_scope("replace one record", "one record"));
    CHECK_THROWS_WITH_AS(ledger.set_scope("add or remove one record", "one record"),
                         doctest::Contains("a run has one scope"), dpbo::RunError);
    // An invalid event is refused before it is composed.
    CHECK_THROWS_WITH_AS(ledger.charge(gdp(-1.0)), doctest::Contains("'mu' = -1"), dpbo::ValidationError);
    CHECK(ledger.charges() == 0);
}

TEST_CASE("ledger: epsilon budgets compare delta_for_epsilon, a mu budget needs a GDP accountant") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(10);
    // (1, 1e-5)-DP against μ = 0.25 releases: the k-th is allowed while δ(1) of √k·0.25 stays ≤ 1e-5.
    auto approx = scoped_ledger(accountant("gdp"), PrivacyBudget::parse("epsilon=1,delta=1e-5"), noise);
    std::size_t allowed = 0;
    while (dpbo::gdp_delta(std::sqrt(static_cast<double>(allowed + 1)) * 0.25, 1.0) <= 1e-5) ++allowed;
    REQUIRE(allowed >= 1);
    for (std::size_t k = 0; k < allowed; ++k) CHECK_NOTHROW(approx->charge(gdp(0.25)));
    CHECK_THROWS_AS(approx->charge(gdp(0.25)), dpbo::BudgetExceeded);
    CHECK(approx->charges() == allowed);

    // Pure ε = 1 against Laplace releases at ε = 0.25 (b = 4, Δ₁ = 1): four pass, then nothing.
    auto pure = scoped_ledger(accountant("basic"), PrivacyBudget::parse("epsilon=1"), noise);
    for (int k = 0; k < 4; ++k) CHECK_NOTHROW(pure->charge(laplace(4.0, 1.0)));
    CHECK_THROWS_AS(pure->charge(laplace(4.0, 1.0)), dpbo::BudgetExceeded);
    auto pure_only = scoped_ledger(accountant("basic"), PrivacyBudget::parse("epsilon=1"), noise);
    CHECK_THROWS_AS(pure_only->charge({dpbo::ApproxDpEvent{0.1, 1e-9}}), dpbo::BudgetExceeded);

    auto mismatch = scoped_ledger(accountant("basic"), PrivacyBudget::parse("mu=1"), noise);
    CHECK_THROWS_WITH_AS(mismatch->charge(laplace(4.0, 1.0)), doctest::Contains("epsilon=E,delta=D"),
                         dpbo::ValidationError);
}

TEST_CASE("ledger: T releases at mu/sqrt(T) all fit a budget of mu despite rounding, a hair more does not") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(11);
    std::size_t rounded_above = 0;
    for (std::size_t steps = 1; steps <= 60; ++steps) {
        CAPTURE(steps);
        auto ledger = scoped_ledger(accountant("gdp"), PrivacyBudget::parse("mu=1.3"), noise);
        const double per_step = 1.3 / std::sqrt(static_cast<double>(steps));
        for (std::size_t t = 0; t < steps; ++t) REQUIRE_NOTHROW(ledger->charge(gdp(per_step)));
        const double spent = ledger->spent().mu;
        CHECK(spent <= 1.3 * (1 + PrivacyBudget::kRelativeTolerance));
        if (spent > 1.3) ++rounded_above;
        auto greedy = scoped_ledger(accountant("gdp"), PrivacyBudget::parse("mu=1.3"), noise);
        const double more = per_step * (1 + 1e-12);
        for (std::size_t t = 0; t + 1 < steps; ++t) greedy->charge(gdp(more));
        CHECK_THROWS_AS(greedy->charge(gdp(more)), dpbo::BudgetExceeded);
    }
    MESSAGE(rounded_above << " of 60 step counts compose to just above mu = 1.3 and are accepted by the tolerance");
}

TEST_CASE("ledger: a discarded log still composes") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(12);
    PrivacyLedger ledger(accountant("gdp"), std::nullopt, noise, "audit", PrivacyLedger::Log::Discard);
    ledger.set_scope("x and x + 1", "one answer");
    auto gaussian = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1"}});
    gaussian->calibrate(1.0);
    for (int i = 0; i < 100; ++i) gaussian->release(arma::vec{0.0}, ledger, "sample");
    CHECK(ledger.log().empty());
    CHECK(ledger.charges() == 100);
    CHECK(ledger.spent().mu == 10.0);
}

TEST_CASE("selection: select charges the ledger first, then chooses with the ledger's noise") {
    CHECK(dpbo::to_string(dpbo::ModuleKind::Selection) == "selection");
    CHECK(dpbo::module_kind_from_string("selection") == dpbo::ModuleKind::Selection);
    NoisyArgmax selection(0.5);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(13);
    auto replay = dpbo::PrivacyNoiseSource::from_seed(13);
    auto ledger = scoped_ledger(accountant("basic"), PrivacyBudget::parse("epsilon=1"), noise);
    const arma::vec scores = {0.1, 5.0, 0.3};
    CHECK_THROWS_AS(selection.select(scores, *ledger, "too early"), dpbo::RunError);
    selection.calibrate(1.0);
    CHECK(selection.select(scores, *ledger, "first pick") == 1);
    CHECK(selection.select(scores, *ledger, "second pick") == 1);
    replay.derive();  // the ledger's key; each pick draws from a stream of it, not from the source
    CHECK_THROWS_WITH_AS(selection.select(scores, *ledger, "third pick"), doctest::Contains("third pick"),
                         dpbo::BudgetExceeded);
    CHECK(noise.next_u64() == replay.next_u64());
    REQUIRE(ledger->log().size() == 2);
    CHECK(ledger->log()[0].event.kind() == dpbo::ExponentialEvent::kind_name);
    CHECK(ledger->log()[1].event.what == "second pick");
    CHECK(ledger->log()[1].released(0) == 1.0);
    CHECK(ledger->spent().epsilon == 1.0);
    CHECK_THROWS_AS(selection.select(arma::vec(), *ledger, "nothing"), dpbo::RunError);
}

namespace {

// A gate that records what it was asked and refuses from a given charge number on.
class RecordingGate final : public dpbo::ChargeGate {
public:
    explicit RecordingGate(std::size_t refuse_from) : refuse_from_(refuse_from) {}
    void admit(std::size_t charge, const PrivacyEvent& event) override {
        if (charge >= refuse_from_) throw dpbo::BudgetExceeded("gate: refused " + event.describe());
        asked.emplace_back(charge, event.what);
    }
    std::vector<std::pair<std::size_t, std::string>> asked;

private:
    std::size_t refuse_from_;
};

}  // namespace

TEST_CASE("ledger: a charge gate is asked every charge by number, after the budget and before anything is composed") {
    for (const bool with_budget : {false, true}) {
        CAPTURE(with_budget);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(3);
        auto ledger = scoped_ledger(accountant("gdp"),
                                    with_budget ? std::optional(PrivacyBudget::parse("mu=1")) : std::nullopt, noise);
        RecordingGate gate(2);
        ledger->set_charge_gate(&gate);
        CHECK(ledger->charge(gdp(0.5, "first")) == 0);
        CHECK(ledger->charge(gdp(0.5, "second")) == 1);
        CHECK(gate.asked == std::vector<std::pair<std::size_t, std::string>>{{0, "first"}, {1, "second"}});
        // The gate refuses the third: nothing is composed, logged or counted.
        CHECK_THROWS_AS(ledger->charge(gdp(0.1, "third")), dpbo::BudgetExceeded);
        CHECK(ledger->charges() == 2);
        CHECK(ledger->log().size() == 2);
        CHECK(ledger->spent().mu == doctest::Approx(std::sqrt(0.5)));
        // An event the accountant refuses never reaches the gate.
        RecordingGate open(100);
        ledger->set_charge_gate(&open);
        CHECK_THROWS_AS(ledger->charge(laplace(1.0, 1.0)), dpbo::ValidationError);
        CHECK(open.asked.empty());
    }
    // With a budget, the release the budget refuses never reaches the gate either.
    auto noise = dpbo::PrivacyNoiseSource::from_seed(4);
    auto ledger = scoped_ledger(accountant("gdp"), PrivacyBudget::parse("mu=0.5"), noise);
    RecordingGate gate(100);
    ledger->set_charge_gate(&gate);
    CHECK_THROWS_AS(ledger->charge(gdp(0.9)), dpbo::BudgetExceeded);
    CHECK(gate.asked.empty());
}
