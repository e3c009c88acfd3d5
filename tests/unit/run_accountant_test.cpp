// The run's accountant: the algorithm's accountant role, else the one its private releases
// (mechanisms and selections alike) ask for, else gdp — the one rule of dpbo run, dpbo audit and
// the test helpers.
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/runner.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/selection.hpp"
#include "test_support.hpp"

namespace {

using dpbo::ModuleKind;
using dpbo::test::make;

// A selection that asks for the basic accountant; it never selects here.
class FixedSelection : public dpbo::Selection {
public:
    void calibrate(double) override {}
    bool calibrated() const override { return true; }
    dpbo::PrivacyEvent event() const override { return {dpbo::ExponentialEvent{1.0, 1.0}}; }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }
    dpbo::PrivacyStatement guarantee() const override { return {}; }

protected:
    std::size_t choose(const arma::vec&, dpbo::PrivacyNoiseSource&) const override { return 0; }
};

std::shared_ptr<dpbo::Accountant> run_accountant(const std::vector<dpbo::Role>& declared,
                                                 const dpbo::RoleModules& roles) {
    return dpbo::create_run_accountant(dpbo::test::registry(), "algorithm 'under-test'", declared, roles);
}

}  // namespace

TEST_CASE("run accountant: the algorithm's accountant role wins over what its mechanisms ask for") {
    const std::vector<dpbo::Role> declared = {{"release", ModuleKind::Mechanism},
                                              {"accountant", ModuleKind::Accountant}};
    dpbo::RoleModules roles;
    roles.add("release", make<dpbo::Mechanism>("laplace", {{"epsilon", "1"}}));
    const auto mine = make<dpbo::Accountant>("gdp", {{"delta", "1e-6"}});
    roles.add("accountant", mine);
    CHECK(run_accountant(declared, roles) == mine);
}

TEST_CASE("run accountant: without an accountant role, the private releases choose, selections included") {
    const std::vector<dpbo::Role> declared = {{"pick", ModuleKind::Selection}, {"surrogate", ModuleKind::Surrogate}};
    dpbo::RoleModules roles;
    roles.add("pick", std::make_shared<FixedSelection>());
    CHECK(run_accountant(declared, roles)->origin().name == "basic");

    const std::vector<dpbo::Role> gaussian_only = {{"release", ModuleKind::Mechanism}};
    dpbo::RoleModules gaussian;
    gaussian.add("release", make<dpbo::Mechanism>("gaussian", {{"mu", "1"}}));
    CHECK(run_accountant(gaussian_only, gaussian)->origin().name == "gdp");

    // Nothing private among the roles (or a role left empty): gdp.
    CHECK(run_accountant({{"release", ModuleKind::Mechanism}}, {})->origin().name == "gdp");
}

TEST_CASE("run accountant: releases that ask for different accountants are refused, naming both roles") {
    const std::vector<dpbo::Role> declared = {{"gradient", ModuleKind::Mechanism}, {"pick", ModuleKind::Selection}};
    dpbo::RoleModules roles;
    roles.add("gradient", make<dpbo::Mechanism>("gaussian", {{"mu", "1"}}));
    roles.add("pick", std::make_shared<FixedSelection>());
    CHECK_THROWS_WITH_AS(run_accountant(declared, roles),
                         "algorithm 'under-test': the private releases of roles 'gradient' and 'pick' are composed by "
                         "different accountants ('gdp' and 'basic'), and the algorithm declares no accountant role to "
                         "compose both",
                         dpbo::ValidationError);
}
