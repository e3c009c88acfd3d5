// dpbo: lists, describes and combines the modules it finds at run time.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "command_dispatch.hpp"
#include "commands.hpp"
#include "dpbo/util/blas_threads.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "dpbo/module_call_guard.hpp"
#include "mpi/mpi_session.hpp"

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
    std::string path = "dpbo";  // the command path, once dispatch has read it: "dpbo study create"
    try {
        dpbo::limit_blas_threads();
        return dispatch(std::vector<std::string>(argv + 1, argv + argc), path);
    } catch (const dpbo::ValidationError& e) {
        std::cerr << "dpbo: error: " << e.what() << "\n";
        return kUsageError;
    } catch (const po::error& e) {
        std::cerr << path << ": error: " << e.what() << "\n";
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
    // Each command's row says whether it re-executes (commands.hpp); help, usage errors and unknown
    // commands do, as they always have.
    const Command* command = argc < 2 ? nullptr : find_command(commands(), argv[1]);
    if (command == nullptr || command->blas == BlasStart::Reexec) pin_blas_threads_before_load(argv);
    // Before any module call guard, which reports the module and passes a fatal signal on to it: a
    // plugin's crash ends the run with exit status 1, its journal kept for the next run.
    dpbo::install_fatal_signal_exit();
    // Under mpirun, after the command printed its error if any: the other ranks are stopped.
    return mpi::finish(run_command(argc, argv));
}
