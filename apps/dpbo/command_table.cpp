// The table of `dpbo`'s commands (commands.hpp). A new command: its command_NAME.cpp defining
// `int command_NAME(const std::vector<std::string>&)`, its declaration and its row below.
#include <algorithm>

#include "commands.hpp"

namespace dpbo::cli {

// Each defined in its command_NAME.cpp.
int command_list(const std::vector<std::string>& arguments);
int command_info(const std::vector<std::string>& arguments);
int command_run(const std::vector<std::string>& arguments);
int command_account(const std::vector<std::string>& arguments);
int command_plan(const std::vector<std::string>& arguments);
int command_summary(const std::vector<std::string>& arguments);
int command_report(const std::vector<std::string>& arguments);
int command_audit(const std::vector<std::string>& arguments);
std::span<const Command> curator_subcommands();
std::span<const Command> study_subcommands();
std::span<const Command> ledger_subcommands();
int command_ask(const std::vector<std::string>& arguments);
int command_tell(const std::vector<std::string>& arguments);
int command_check(const std::vector<std::string>& arguments);

namespace {

constexpr Command kCommands[] = {
    {.name = "list",
     .summary = "every module found, grouped by kind, and every file refused with its reason",
     .run = &command_list},
    {.name = "info", .summary = "what a module is, the paper it implements and its parameters", .run = &command_info},
    {.name = "run",
     .summary = "combine an algorithm, an objective and components into a run (no options: the default job)",
     .run = &command_run},
    {.name = "account",
     .summary = "privacy calculator over the accountant plugins (GDP: mu -> (epsilon, delta))",
     .run = &command_account},
    {.name = "plan",
     .summary = "budget-first tuning: the trial's noise (or steps) meeting a target (epsilon, delta) under private "
                "selection among K trials, and the trade-off across K's distributions",
     .run = &command_plan},
    {.name = "summary",
     .summary = "medians and ranges of a finished job's released and evaluation-only values over its repeats",
     .run = &command_summary},
    {.name = "report",
     .summary = "a self-contained HTML page of figures for one or several result folders",
     .run = &command_report},
    {.name = "audit",
     .summary = "try to refute a mechanism's or an algorithm's privacy claim from its releases on neighbouring data",
     .run = &command_audit},
    {.name = "curator",
     .summary = "PO-GP-UCB's curator: release a dataset's rows privately, answer a modeler's row queries",
     .subcommands = &curator_subcommands},
    {.name = "study",
     .summary = "create or show an ask/tell study (a run whose objective its clients evaluate)",
     .subcommands = &study_subcommands},
    {.name = "ledger",
     .summary = "a dataset's lifetime ledger: create it with its budget, show or verify what runs and studies charged",
     .subcommands = &ledger_subcommands},
    {.name = "ask", .summary = "the next trial(s) of a study, as JSON", .run = &command_ask},
    {.name = "tell", .summary = "a trial's values (or its failure) to a study", .run = &command_tell},
    {.name = "check",
     .summary = "run the conformance checks of their kind on every module in plugin files",
     .run = &command_check},
};
DPBO_CHECK_COMMAND_TABLE(kCommands);

}  // namespace

std::span<const Command> commands() { return kCommands; }

const Command* find_command(std::span<const Command> table, std::string_view name) {
    const auto found = std::find_if(table.begin(), table.end(), [&](const Command& c) { return c.name == name; });
    return found == table.end() ? nullptr : &*found;
}

}  // namespace dpbo::cli
