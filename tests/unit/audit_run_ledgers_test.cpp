// The audit's ledgers (apps/dpbo/audit/run_ledgers.hpp): every run starts a ledger with nothing
// charged, so one run's statement is one release's claim however many runs came before, and runs
// draw different noise from the world's source.
#include <doctest/doctest.h>

#include <memory>

#include "audit/run_ledgers.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

TEST_CASE("audit run ledgers: each run composes only its own release, past 1/δ runs") {
    const std::shared_ptr<const dpbo::Accountant> basic = dpbo::test::make<dpbo::Accountant>("basic");
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(3);
    dpbo::audit::RunLedgers ledgers(basic, noise, "test", "x and x + 1", "one answer");
    const dpbo::PrivacyEvent one{dpbo::ApproxDpEvent{1.0, 0.3}, 1, "one release"};
    // Four runs at δ = 0.3: composed in one ledger they would pass δ = 1, which basic composition refuses.
    for (int run = 0; run < 4; ++run) {
        dpbo::PrivacyLedger& ledger = ledgers.next_run();
        CHECK(ledger.charges() == 0);
        ledger.charge(one);
        const dpbo::PrivacyStatement spent = ledger.spent();
        CHECK(spent.epsilon == 1.0);
        CHECK(spent.delta == 0.3);
    }
}

TEST_CASE("audit run ledgers: successive runs release different noise") {
    const auto mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1"}});
    mechanism->calibrate(1.0);
    const std::shared_ptr<const dpbo::Accountant> gdp = dpbo::test::make<dpbo::Accountant>("gdp");
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(4);
    dpbo::audit::RunLedgers ledgers(gdp, noise, "test", "x and x + 1", "one answer");
    const double first = mechanism->release(arma::vec{0.0}, ledgers.next_run(), "run 1")(0);
    const double second = mechanism->release(arma::vec{0.0}, ledgers.next_run(), "run 2")(0);
    // Two draws of N(0, 1) rounded to a fine grid coincide with probability far below 1e-9.
    CHECK(first != second);
}
