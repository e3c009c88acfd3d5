// The promises every private release (mechanism, selection, row release) makes, checked through a
// ledger composed by the accountant the release names:
//   - nothing before calibration, and no calibration to a meaningless sensitivity;
//   - an accountant that exists and composes its event;
//   - the ledger is charged before any noise: a release the budget refuses leaves no charge;
//   - its stated guarantee is implied by its event, as its accountant composes it;
//   - its noise comes from the ledger's source alone: same key, same release; another key, another;
//   - it releases what its kind promises (a vector of the input's size, an index in range, n rows).
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include <armadillo>
#include <fmt/format.h>

#include "checklist.hpp"
#include "conformance_kinds.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "dpbo/selection.hpp"

namespace dpbo::conformance {

namespace {

constexpr double kSensitivity = 1.0;

// One use of the release, through `ledger`: a mechanism releases a vector of 3, a selection picks
// among 5 scores, a row release releases 6 rows of 3 columns. Returns what was released, flattened.
arma::vec use(const PrivateRelease& release, PrivacyLedger& ledger) {
    if (const auto* mechanism = dynamic_cast<const Mechanism*>(&release)) {
        const arma::vec value = {0.25, -1.0, 3.0};
        const arma::vec out = mechanism->release(value, ledger, "conformance release");
        if (out.n_elem != value.n_elem)
            broken("released {} values for a vector of {}; expected one per coordinate", out.n_elem, value.n_elem);
        if (!out.is_finite()) broken("released a non-finite value for a finite vector");
        return out;
    }
    if (const auto* selection = dynamic_cast<const Selection*>(&release)) {
        const arma::vec scores = {0.0, 1.0, 2.0, 0.5, 1.5};
        const std::size_t chosen = selection->select(scores, ledger, "conformance selection");
        if (chosen >= scores.n_elem) broken("selected index {} among {} scores", chosen, scores.n_elem);
        return arma::vec{static_cast<double>(chosen)};
    }
    if (const auto* rows = dynamic_cast<const RowRelease*>(&release)) {
        arma::mat input(6, 3);
        for (arma::uword i = 0; i < input.n_elem; ++i) input(i) = 0.05 * static_cast<double>(i % 7) - 0.1;
        const RowReleaseOutcome outcome = rows->release(input, ledger, "conformance rows");
        const std::size_t columns = rows->released_columns(input.n_cols);
        if (outcome.rows.n_rows != input.n_rows || outcome.rows.n_cols != columns)
            broken("released {} × {} rows for 6 × 3; expected 6 × {} (released_columns(3))", outcome.rows.n_rows,
                   outcome.rows.n_cols, columns);
        if (!outcome.rows.is_finite()) broken("released a non-finite entry");
        return arma::vectorise(outcome.rows);
    }
    broken("is a private release of no known kind");
}

std::shared_ptr<Accountant> accountant_for(PluginRegistry& registry, const PrivateRelease& release) {
    const AccountantChoice choice = release.accountant();
    if (registry.find(ModuleKind::Accountant, choice.name) == nullptr)
        broken("names accountant '{}', which is not among the plugins found", choice.name);
    return registry.create_as<Accountant>(choice.name, choice.parameters);
}

// A ledger over the release's own accountant, noise keyed by `seed`.
struct TestLedger {
    TestLedger(PluginRegistry& registry, const PrivateRelease& release, std::uint64_t seed,
               std::optional<PrivacyBudget> budget = std::nullopt)
        : noise(PrivacyNoiseSource::from_seed(seed)),
          ledger(accountant_for(registry, release), budget, noise, "conformance check") {
        ledger.set_scope("replace one record", "one record");
    }
    PrivacyNoiseSource noise;
    PrivacyLedger ledger;
};

// A budget one use must exceed: half of what its event composes to in its own accountant.
PrivacyBudget half_of_one_use(PluginRegistry& registry, const PrivateRelease& release) {
    auto accountant = accountant_for(registry, release);
    accountant->compose(release.event());
    const PrivacyStatement spent = accountant->total();
    PrivacyBudget budget;
    switch (spent.notion) {
        case PrivacyNotion::GaussianDP:
            budget.mu = spent.mu / 2;
            break;
        case PrivacyNotion::PureDP:
            budget.epsilon = spent.epsilon / 2;
            break;
        case PrivacyNotion::ApproxDP:
            budget.epsilon = spent.epsilon / 2;
            budget.delta = spent.delta;
            break;
        default:
            budget.delta = 1e-6;
            budget.epsilon = accountant->epsilon_for_delta(budget.delta) / 2;
    }
    return budget;
}

// δ(ε) the guarantee allows at `epsilon`, or nullopt where it says nothing below 1.
std::optional<double> allowed_delta(const PrivacyStatement& guarantee, double epsilon) {
    switch (guarantee.notion) {
        case PrivacyNotion::GaussianDP:
            return gdp_delta_upper_bound(guarantee.mu, epsilon);
        case PrivacyNotion::PureDP:
            return epsilon >= guarantee.epsilon ? std::optional(0.0) : std::nullopt;
        case PrivacyNotion::ApproxDP:
            return epsilon >= guarantee.epsilon ? std::optional(guarantee.delta) : std::nullopt;
        default:
            return std::nullopt;
    }
}

}  // namespace

void check_private_release(Checklist& list, PluginRegistry& registry, const std::shared_ptr<PrivateRelease>& release,
                           const std::function<std::shared_ptr<PrivateRelease>()>& fresh) {
    const std::string who = release->describe_origin();
    list.run("refuses to state an event or release before calibration", who, [&] {
        expect_refusal<RunError>("event() before calibrate()", "a RunError", [&] { (void)release->event(); });
        if (release->calibrated()) broken("calibrated() is true before calibrate()");
        TestLedger test(registry, *release, 1);
        expect_refusal<RunError>("a release before calibrate()", "a RunError",
                                 [&] { (void)use(*release, test.ledger); });
        if (test.ledger.charges() != 0)
            broken("the refused release charged the ledger {} time(s)", test.ledger.charges());
    });
    list.run("refuses to calibrate to a sensitivity that is not finite and > 0", who, [&] {
        auto probe = fresh();
        for (const double bad :
             {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()})
            expect_refusal<ValidationError>(fmt::format("calibrate({})", bad), "a ValidationError",
                                            [&] { probe->calibrate(bad); });
    });
    if (!list.run("calibrates to a sensitivity of 1", who, [&] {
            release->calibrate(kSensitivity);
            if (!release->calibrated()) broken("calibrated() is false after calibrate(1)");
            release->event().validate();
        }))
        return;
    list.run("names an accountant that composes its event", who, [&] {
        const auto accountant = accountant_for(registry, *release);
        const PrivacyEvent event = release->event();
        if (!accountant->accepts(event))
            broken("its accountant '{}' does not accept its event: {}", release->accountant().name,
                   accountant->refusal(event));
    });
    list.run("charges the ledger before any noise: a use the budget refuses leaves no charge", who, [&] {
        const PrivacyBudget budget = half_of_one_use(registry, *release);
        TestLedger test(registry, *release, 2, budget);
        expect_refusal<BudgetExceeded>(fmt::format("a use beyond the budget {}", budget.describe()), "BudgetExceeded",
                                       [&] { (void)use(*release, test.ledger); });
        if (test.ledger.charges() != 0 || !test.ledger.log().empty())
            broken("the refused use left {} charge(s) and {} log entr(ies)", test.ledger.charges(),
                   test.ledger.log().size());
    });
    list.run("any guarantee it states is implied by its event", who, [&] {
        const PrivacyStatement guarantee = release->guarantee();
        // A release may claim nothing (a published algorithm whose claim is refuted): then nothing
        // is to be implied, and its statement says why.
        if (guarantee.notion == PrivacyNotion::NotPrivate) return;
        auto accountant = accountant_for(registry, *release);
        accountant->compose(release->event());
        for (const double epsilon : {0.05, 0.3, 1.0, 2.0, 5.0, 10.0}) {
            const auto allowed = allowed_delta(guarantee, epsilon);
            if (!allowed) continue;
            const double composed = accountant->delta_for_epsilon(epsilon);
            if (composed > *allowed * (1 + 1e-9) + 1e-15)
                broken("at ε = {}: its event composes to δ = {:.6g}, above the δ = {:.6g} its guarantee '{}' allows",
                       epsilon, composed, *allowed, guarantee.headline());
        }
    });
    list.run("draws its noise from the ledger's source alone", who, [&] {
        TestLedger first(registry, *release, 7), again(registry, *release, 7), other(registry, *release, 8);
        const arma::vec a = use(*release, first.ledger);
        const arma::vec b = use(*release, again.ledger);
        if (!arma::approx_equal(a, b, "absdiff", 0.0))
            broken("two ledgers keyed alike gave different releases: its randomness is not (only) the ledger's");
        // A selection may pick the same index under another key; a value release must differ.
        if (dynamic_cast<const Selection*>(release.get()) == nullptr) {
            const arma::vec c = use(*release, other.ledger);
            if (arma::approx_equal(a, c, "absdiff", 0.0))
                broken("ledgers keyed differently gave the same release: no noise was added");
        }
    });
    list.run("logs each use in the ledger with its event", who, [&] {
        TestLedger test(registry, *release, 3);
        const arma::vec out = use(*release, test.ledger);
        if (test.ledger.charges() != 1) broken("one use made {} charge(s)", test.ledger.charges());
        if (test.ledger.log().size() != 1) broken("one use made {} log entr(ies)", test.ledger.log().size());
        if (test.ledger.log().front().event.kind() != release->event().kind())
            broken("the logged event is '{}', its event() is '{}'", test.ledger.log().front().event.kind(),
                   release->event().kind());
    });
}

}  // namespace dpbo::conformance
