// dpbo: lists, describes and combines the modules it finds at run time.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/util/blas_threads.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "mpi/mpi_session.hpp"

namespace {

constexpr const char* kUsage = R"(usage: dpbo <command> [options]

commands:
  list      every module found, grouped by kind, and every file refused with its reason
  info      what a module is, the paper it implements and its parameters
  run       combine an algorithm, an objective and components into a run (no options: the default job)
  account   privacy calculator over the accountant plugins (GDP: mu -> (epsilon, delta))
  summary   medians and ranges of a finished job's released and evaluation-only values over its repeats
  report    a self-contained HTML page of figures for one or several result folders
  audit     try to refute a mechanism's or an algorithm's privacy claim from its releases on neighbouring data
  curator   PO-GP-UCB's curator: release a dataset's rows privately, answer a modeler's row queries
  study     create or show an ask/tell study (a run whose objective its clients evaluate)
  ask       the next trial(s) of a study, as JSON
  tell      a trial's values (or its failure) to a study
  check     run the conformance checks of their kind on every module in plugin files

'dpbo <command> --help' describes a command's options.
exit codes: 0 success, 1 failure while running, 2 usage or validation error, 3 (audit) claim refuted.
)";

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
    using namespace dpbo::cli;
    if (command == "list") return command_list(rest);
    if (command == "info") return command_info(rest);
    if (command == "run") return command_run(rest);
    if (command == "account") return command_account(rest);
    if (command == "summary") return command_summary(rest);
    if (command == "report") return command_report(rest);
    if (command == "audit") return command_audit(rest);
    if (command == "curator") return command_curator(rest);
    if (command == "study") return command_study(rest);
    if (command == "ask") return command_ask(rest);
    if (command == "tell") return command_tell(rest);
    if (command == "check") return command_check(rest);
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return kSuccess;
    }
    if (command == "--version") {
        std::cout << "dpbo " << DPBO_VERSION << "\n";
        return kSuccess;
    }
    const auto near = dpbo::closest_match(command, {"list", "info", "run", "account", "summary", "report", "audit",
                                                                "curator", "study", "ask", "tell", "check"});
    throw dpbo::ValidationError(fmt::format("unknown command '{}'{}; commands: list, info, run, account, summary, report, audit, curator, study, ask, tell, check", command,
                                            near ? fmt::format(" (did you mean '{}'?)", *near) : ""));
}

}  // namespace

// OpenBLAS starts its worker threads when it is loaded, before main runs, and they spin for a while
// even when told afterwards to stay idle, doubling the CPU time of short runs. Setting the variable
// it reads at load time and re-executing once avoids that; if exec fails, the runtime pin remains.
void pin_blas_threads_before_load(char** argv) {
    if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return;
    const char* wanted = std::getenv("DPBO_BLAS_THREADS");
    setenv("OPENBLAS_NUM_THREADS", wanted != nullptr && *wanted != '\0' ? wanted : "1", 1);
    execv("/proc/self/exe", argv);
}

namespace {

int run_command(int argc, char** argv) {
    using namespace dpbo::cli;
    const std::vector<std::string> rest(argv + 2, argv + argc);
    try {
        dpbo::limit_blas_threads();
        return dispatch(argv[1], rest);
    } catch (const dpbo::ValidationError& e) {
        std::cerr << "dpbo: error: " << e.what() << "\n";
        return kUsageError;
    } catch (const po::error& e) {
        std::cerr << "dpbo " << argv[1] << ": error: " << e.what() << "\n";
        return kUsageError;
    } catch (const std::exception& e) {
        std::cerr << "dpbo: failed: " << e.what() << "\n";
        return kRunFailure;
    } catch (...) {
        // Calls into modules translate their exceptions; this is the net under whatever is left.
        std::cerr << "dpbo: failed: " << dpbo::describe_current_exception() << "\n";
        return kRunFailure;
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace dpbo::cli;
    // `dpbo list` and `dpbo tell` do no linear algebra, and `dpbo ask` is a client's every step, whose
    // start-up would double (see the ask/tell benchmark): no re-execution; the runtime pin holds.
    const std::string command = argc < 2 ? "" : argv[1];
    if (command != "list" && command != "tell" && command != "ask") pin_blas_threads_before_load(argv);
    if (argc < 2) {
        std::cerr << kUsage;
        return kUsageError;
    }
    // Under mpirun, after the command printed its error if any: the other ranks are stopped.
    return mpi::finish(run_command(argc, argv));
}
