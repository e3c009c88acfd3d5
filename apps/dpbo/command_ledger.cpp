// dpbo ledger create|show|verify: a dataset's lifetime ledger (dpbo/host/lifetime_ledger.hpp), the
// file every run and study on the dataset given --ledger FILE charges its releases to.
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "commands.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/lifetime_ledger.hpp"

namespace dpbo::cli {

namespace {

constexpr const char* kAbout =
    "A dataset's lifetime ledger: one file per dataset, charged by every 'dpbo run --ledger FILE' and "
    "'dpbo study create --ledger FILE' before each release's noise is drawn, under a privacy filter fixed by "
    "its budget (mu=M: the fully adaptive GDP filter; epsilon=E,delta=D: Rényi filters at fixed orders; "
    "epsilon=E: basic composition). Entries are hash-chained (SHA-256); 'show' and 'verify' check the chain "
    "and the running sums. See docs/lifetime-ledger.md.";

// Parses FILE and the options; nothing when --help was answered.
std::optional<std::string> parse_ledger_command(const std::vector<std::string>& arguments,
                                                po::options_description& described, CommonOptions& common,
                                                const char* synopsis, const char* about, po::variables_map& given) {
    std::string file;
    described.add_options()("file", po::value(&file), "the ledger file");
    described.add(common_options(common));
    po::positional_options_description positional;
    positional.add("file", 1);
    given = parse_command(arguments, described, &positional);
    if (common.help) {
        print_help(synopsis, described, about);
        return std::nullopt;
    }
    if (!given.count("file") || file.empty())
        throw ValidationError(fmt::format("{}: name the ledger file",
                                          std::string(synopsis).substr(5, std::string(synopsis).find(" FILE") - 5)));
    return file;
}

std::string hex(const std::string& bytes) {
    std::string out;
    for (const unsigned char c : bytes) out += fmt::format("{:02x}", c);
    return out;
}

json numbers_json(const std::vector<double>& values) {
    json out = json::array();
    for (const double v : values) out.push_back(v);
    return out;
}

int ledger_create(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string budget_text;
    po::options_description described("options");
    described.add_options()("budget", po::value(&budget_text),
                            "the dataset's lifetime budget: mu=M (mu-GDP), epsilon=E,delta=D or epsilon=E");
    po::variables_map given;
    const auto file =
        parse_ledger_command(arguments, described, common, "dpbo ledger create FILE --budget BUDGET", kAbout, given);
    if (!file) return kSuccess;
    if (!given.count("budget") || budget_text.empty())
        throw ValidationError(
            "ledger create needs --budget: mu=M (mu-GDP), epsilon=E,delta=D or epsilon=E, the dataset's whole budget");
    const PrivacyBudget budget = PrivacyBudget::parse(budget_text);
    LifetimeLedger::create(*file, budget);
    const std::unique_ptr<LifetimeLedger> ledger = LifetimeLedger::open(*file);
    if (common.json) {
        print_json({{"ledger", *file},
                    {"budget", budget.text()},
                    {"describes", budget.describe()},
                    {"filter", ledger->filter().name()},
                    {"rule", ledger->filter().rule()}});
    } else {
        std::cout << fmt::format("lifetime ledger {} created: budget {} ({}); {}\n", *file, budget.text(),
                                 budget.describe(), ledger->filter().rule());
    }
    return kSuccess;
}

int ledger_show(const std::vector<std::string>& arguments) {
    CommonOptions common;
    po::options_description described("options");
    po::variables_map given;
    const auto file =
        parse_ledger_command(arguments, described, common, "dpbo ledger show FILE [--json]",
                             "The ledger's budget and filter, each run and study with the releases it charged, what "
                             "was spent and what is left; the hash chain and the running sums are verified first "
                             "(a changed entry is named, exit 2).",
                             given);
    if (!file) return kSuccess;
    const std::unique_ptr<LifetimeLedger> ledger = LifetimeLedger::open(*file);
    const LedgerContents contents = ledger->verify();
    const PrivacyFilter& filter = ledger->filter();

    // Runs in the order of their first charge.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const LifetimeCharge*>> by_run;
    for (const LifetimeCharge& c : contents.charges) {
        if (!by_run.count(c.run)) order.push_back(c.run);
        by_run[c.run].push_back(&c);
    }
    if (common.json) {
        json runs = json::array();
        for (const std::string& run : order) {
            json charges = json::array();
            for (const LifetimeCharge* c : by_run[run])
                charges.push_back({{"entry", c->sequence},
                                   {"charge", c->charge + 1},
                                   {"event", c->event},
                                   {"accountant", c->accountant},
                                   {"cost", numbers_json(c->cost)},
                                   {"charged_at", c->charged_at}});
            runs.push_back({{"run", run}, {"source", by_run[run].front()->source}, {"charges", charges}});
        }
        print_json({{"ledger", *file},
                    {"budget", filter.budget().text()},
                    {"describes", filter.budget().describe()},
                    {"filter", filter.name()},
                    {"rule", filter.rule()},
                    {"orders", numbers_json(filter.orders())},
                    {"limits", numbers_json(filter.limits())},
                    {"created_at", contents.created_at},
                    {"entries", contents.charges.size()},
                    {"sums", numbers_json(contents.sums)},
                    {"spent",
                     {{"share", contents.charges.empty() ? 0.0 : filter.used(contents.sums)},
                      {"describes", filter.describe_spend(contents.sums)}}},
                    {"left", filter.describe_left(contents.sums)},
                    {"runs", runs},
                    {"chain", {{"verified", true}, {"last_hash", hex(contents.last_hash)}}}});
        return kSuccess;
    }
    std::cout << fmt::format("lifetime ledger {}\n", *file);
    std::cout << fmt::format("  budget: {} ({}), created {}\n", filter.budget().text(), filter.budget().describe(),
                             contents.created_at);
    std::cout << fmt::format("  filter: {}\n", filter.rule());
    std::cout << fmt::format("  spent: {}\n  left: {}\n", filter.describe_spend(contents.sums),
                             filter.describe_left(contents.sums));
    std::cout << fmt::format("  {} run(s) and studies, {} charge(s)\n", order.size(), contents.charges.size());
    for (const std::string& run : order) {
        std::cout << fmt::format("  {} (token {}): {} charge(s)\n", by_run[run].front()->source, run,
                                 by_run[run].size());
        for (const LifetimeCharge* c : by_run[run])
            std::cout << fmt::format("    {}. {}  [entry {}, {}]\n", c->charge + 1, c->event, c->sequence,
                                     c->charged_at);
    }
    std::cout << fmt::format("  hash chain and running sums verified; last hash {}\n", hex(contents.last_hash));
    return kSuccess;
}

int ledger_verify(const std::vector<std::string>& arguments) {
    CommonOptions common;
    po::options_description described("options");
    po::variables_map given;
    const auto file = parse_ledger_command(
        arguments, described, common, "dpbo ledger verify FILE [--json]",
        "Recomputes the hash chain from the ledger's header through every entry and the running sums from the "
        "entries' costs; exit 0 when both match what the file stores, 2 naming the first entry that does not.",
        given);
    if (!file) return kSuccess;
    const LedgerContents contents = LifetimeLedger::open(*file)->verify();
    if (common.json) {
        print_json({{"ledger", *file},
                    {"verified", true},
                    {"entries", contents.charges.size()},
                    {"last_hash", hex(contents.last_hash)}});
    } else {
        std::cout << fmt::format("lifetime ledger {}: {} entries; hash chain and running sums verified; last hash {}\n",
                                 *file, contents.charges.size(), hex(contents.last_hash));
    }
    return kSuccess;
}

constexpr Command kLedgerSubcommands[] = {
    {.name = "create",
     .summary = "a new lifetime ledger for a dataset (mode 0600, never overwriting): --budget mu=M, epsilon=E,delta=D "
                "or epsilon=E",
     .run = &ledger_create},
    {.name = "show",
     .summary = "the ledger's runs and studies, their charges, what was spent and what is left (verified first)",
     .run = &ledger_show},
    {.name = "verify",
     .summary = "check the ledger's hash chain and running sums; names the first entry changed",
     .run = &ledger_verify},
};
DPBO_CHECK_COMMAND_TABLE(kLedgerSubcommands);

}  // namespace

std::span<const Command> ledger_subcommands() { return kLedgerSubcommands; }

}  // namespace dpbo::cli
