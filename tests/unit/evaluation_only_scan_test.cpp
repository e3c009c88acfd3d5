// Nothing computed from the sensitive data without privatisation may leave evaluation_only. Every
// shipped private algorithm (in each private configuration it has) runs on every shipped objective
// with sensitive data — both lists derived from the registry (private_run_scan.hpp) — and either is
// refused (exit 2 for a user) or passes three scans:
//   1. data against noise: the job on the data (A), on other data with the same seed, so the same
//      noise (B), and on the data with another seed (C). A public field that changes with the data
//      but not with the noise (A ≠ B, A = C) carries the data unprivatised — a privatised value moves
//      with its noise, a constant moves with neither;
//   2. neighbours: the job on D and on D′ (one record or row replaced) with the same seed may differ
//      only in released values and public trace columns — never in the statement, the objective's
//      description, the counts or the stop reason;
//   3. rows: over an objective whose candidate rows are the data (table, loan-roi, property-price),
//      no public number sequence is a row of D or D′ as it is.
// dp-ucb over a dataset's own rows (Λ = the data) and a private search over them are refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dpbo/algorithm.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "private_run_scan.hpp"
#include "test_support.hpp"

namespace scan = dpbo::test::scan;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const scan::PrivateConfig& config(const std::string& label) {
    const auto& all = scan::private_configs();
    const auto found = std::find_if(all.begin(), all.end(), [&](const auto& c) { return c.label == label; });
    REQUIRE_MESSAGE(found != all.end(), "no scan configuration '" << label << "'");
    return *found;
}

// The three scans of one configuration on one objective; returns false when the job was refused.
bool scan_one(const scan::PrivateConfig& private_config, const scan::ScanObjective& objective) {
    const scan::ScanRun a = scan::run(private_config, objective, {}, 11);
    if (a.refused) return false;
    const scan::ScanRun b = scan::run(private_config, objective, objective.other, 11);
    const scan::ScanRun c = scan::run(private_config, objective, {}, 12);
    const scan::ScanRun d_prime =
        objective.other == objective.neighbour ? b : scan::run(private_config, objective, objective.neighbour, 11);
    REQUIRE_MESSAGE(!b.refused, "refused on other data only: " << *b.refused);
    REQUIRE_MESSAGE(!d_prime.refused, "refused on D′ only: " << *d_prime.refused);
    std::vector<std::string> leaks = scan::moves_with_data_not_noise(a.fields, b.fields, c.fields);
    for (const std::string& leak : scan::unreleased_differences(a.fields, d_prime.fields)) leaks.push_back(leak);
    if (objective.rows_are_data) {
        for (const std::string& leak : scan::verbatim_rows(a, scan::sensitive_rows(objective, {})))
            leaks.push_back("D: " + leak);
        for (const std::string& leak :
             scan::verbatim_rows(d_prime, scan::sensitive_rows(objective, objective.neighbour)))
            leaks.push_back("D′: " + leak);
    }
    std::string listed;
    for (const std::string& leak : leaks) listed += "\n    " + leak;
    CHECK_MESSAGE(leaks.empty(), "written outside evaluation_only:" << listed);
    return true;
}

// Scans the configurations of `algorithm` on every scanned objective; each must run on one at least.
void scan_algorithm(const std::string& algorithm) {
    std::size_t configurations = 0;
    for (const scan::PrivateConfig& private_config : scan::private_configs()) {
        if (private_config.algorithm != algorithm) continue;
        ++configurations;
        std::vector<std::string> accepted;
        for (const scan::ScanObjective& objective : scan::scanned_objectives()) {
            const std::string label = private_config.label + " on " + objective.name;
            CAPTURE(label);
            if (scan_one(private_config, objective)) accepted.push_back(objective.name);
        }
        // A configuration refused everywhere scans nothing, except the one that exists to be refused.
        if (!contains(private_config.label, "over the objective's candidates"))
            CHECK_MESSAGE(!accepted.empty(), private_config.label << " ran on no scanned objective");
    }
    CHECK_MESSAGE(configurations > 0, "no scan configuration for algorithm '" << algorithm << "'");
}

std::vector<const scan::ScanObjective*> row_objectives() {
    std::vector<const scan::ScanObjective*> rows;
    for (const auto& objective : scan::scanned_objectives())
        if (objective.rows_are_data) rows.push_back(&objective);
    return rows;
}

}  // namespace

TEST_CASE("evaluation-only scan: every algorithm the registry finds is scanned or declares no privacy role") {
    for (const dpbo::LoadedPlugin& plugin : dpbo::test::registry().plugins()) {
        if (plugin.manifest.kind != dpbo::ModuleKind::Algorithm) continue;
        const std::string& name = plugin.manifest.name;
        CAPTURE(name);
        const bool scanned = std::any_of(scan::private_configs().begin(), scan::private_configs().end(),
                                         [&](const auto& c) { return c.algorithm == name; });
        const bool not_private = scan::not_private_algorithms().count(name) != 0;
        CHECK_MESSAGE(scanned != not_private,
                      "algorithm '" << name << "' must be in exactly one of the scan's private configurations and its "
                                    << "list of algorithms with no privacy role");
        if (!not_private) continue;
        // Not private means no role that could release privately or compose releases.
        for (const dpbo::Role& role : dpbo::test::make<dpbo::Algorithm>(name)->roles()) {
            CAPTURE(role.name);
            CHECK(role.kind != dpbo::ModuleKind::Mechanism);
            CHECK(role.kind != dpbo::ModuleKind::Selection);
            CHECK(role.kind != dpbo::ModuleKind::RowRelease);
            CHECK(role.kind != dpbo::ModuleKind::Accountant);
        }
    }
}

TEST_CASE("evaluation-only scan: every objective with sensitive data is scanned or excluded for a reason") {
    std::vector<std::string> scanned;
    for (const auto& objective : scan::scanned_objectives()) scanned.push_back(objective.name);
    // The record objectives and the row objectives the issue names are found in the registry.
    for (const char* name : {"normal-location", "huber-regression", "gp-lengthscales", "svr-tuning",
                             "logreg-validation", "table", "loan-roi", "property-price"})
        CHECK_MESSAGE(std::count(scanned.begin(), scanned.end(), name) == 1, name << " is not scanned");
    CHECK(row_objectives().size() == 3);
    for (const auto& [name, reason] : scan::not_scanned_objectives()) {
        CAPTURE(name);
        CHECK(dpbo::test::registry().find(dpbo::ModuleKind::Objective, name) != nullptr);
        if (contains(reason, "two outputs")) CHECK(dpbo::test::make<dpbo::Objective>(name)->output_count() > 1);
    }
}

TEST_CASE("evaluation-only scan: dp-gibo") { scan_algorithm("dp-gibo"); }
TEST_CASE("evaluation-only scan: dp-gd") { scan_algorithm("dp-gd"); }
TEST_CASE("evaluation-only scan: random-search with a mechanism") { scan_algorithm("random-search"); }
TEST_CASE("evaluation-only scan: grid-search with a mechanism") { scan_algorithm("grid-search"); }
TEST_CASE("evaluation-only scan: dp-ucb, every variant") { scan_algorithm("dp-ucb"); }
TEST_CASE("evaluation-only scan: po-gp-ucb") { scan_algorithm("po-gp-ucb"); }
TEST_CASE("evaluation-only scan: private-search") { scan_algorithm("private-search"); }

TEST_CASE("evaluation-only scan: po-gp-ucb searches every row objective, its curator releasing the rows first") {
    for (const scan::ScanObjective* objective : row_objectives()) {
        CAPTURE(objective->name);
        CHECK(!scan::run(config("po-gp-ucb + noisy-projection"), *objective, {}, 11).refused);
    }
}

TEST_CASE("evaluation-only scan: dp-ucb with Λ = a dataset's own rows is refused, both variants") {
    for (const std::string label :
         {"dp-ucb noisy over the objective's candidates", "dp-ucb noise-free over the objective's candidates"}) {
        for (const scan::ScanObjective* objective : row_objectives()) {
            CAPTURE(label);
            CAPTURE(objective->name);
            const scan::ScanRun run = scan::run(config(label), *objective, {}, 11);
            REQUIRE(run.refused);
            CAPTURE(*run.refused);
            CHECK(contains(*run.refused, "algorithm.candidates = objective"));
            CHECK(contains(*run.refused, "sensitive data"));
        }
    }
}

TEST_CASE("evaluation-only scan: a private search over a dataset's own rows is refused") {
    // Its best point would be a row of the data, released as it is.
    for (const std::string label : {"random-search + gaussian", "grid-search + laplace"}) {
        for (const scan::ScanObjective* objective : row_objectives()) {
            CAPTURE(label);
            CAPTURE(objective->name);
            const scan::ScanRun run = scan::run(config(label), *objective, {}, 11);
            REQUIRE(run.refused);
            CAPTURE(*run.refused);
            CHECK(contains(*run.refused, "sensitive data"));
            CHECK(contains(*run.refused, "best_point would be one of them"));
        }
    }
}

TEST_CASE("evaluation-only scan: it flags a release of exact values and of a data row") {
    // Grid search without a mechanism releases the exact best value (stated not private): it moves
    // with the data and not with the seed, which is what the first scan must catch; over a table the
    // best point is a row of the data, which the third must catch.
    scan::PrivateConfig exact{"grid-search without a mechanism", "grid-search", {}, {}, {}};
    const scan::ScanObjective location{"normal-location", {{"dim", "2"}, {"records", "20"}}, {}, {}, false};
    const scan::ScanRun a = scan::run(exact, location, {}, 11);
    const scan::ScanRun b = scan::run(exact, location, {{"data_seed", "1"}}, 11);
    const scan::ScanRun c = scan::run(exact, location, {}, 12);
    const std::vector<std::string> leaks = scan::moves_with_data_not_noise(a.fields, b.fields, c.fields);
    CHECK(std::any_of(leaks.begin(), leaks.end(),
                      [](const std::string& leak) { return leak.rfind("/released/best_value", 0) == 0; }));

    const auto rows = row_objectives();
    REQUIRE(!rows.empty());
    const scan::ScanRun table = scan::run(exact, *rows.front(), {}, 11);
    REQUIRE(!table.refused);
    const std::vector<std::string> verbatim = scan::verbatim_rows(table, scan::sensitive_rows(*rows.front(), {}));
    CHECK(std::any_of(verbatim.begin(), verbatim.end(),
                      [](const std::string& leak) { return leak.rfind("/released/best_point", 0) == 0; }));
}
