// dpbo: lists, describes and combines the modules it finds at run time.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "captured_command.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
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
    return mpi::finish(run_reporting_errors(std::vector<std::string>(argv + 1, argv + argc)));
}
