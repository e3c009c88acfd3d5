// The `dpbo` command's entry point in the command library (libdpbo-cli.so), which the launcher
// (main.cpp) loads once it has pinned OpenBLAS's threads.
#include <string>
#include <vector>

#include "captured_command.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "mpi_loader.hpp"

extern "C" __attribute__((visibility("default"))) int dpbo_cli_main(int argc, char** argv) {
    using namespace dpbo::cli;
    // Before any module call guard, which reports the module and passes a fatal signal on to it: a
    // plugin's crash ends the run with exit status 1, its journal kept for the next run.
    dpbo::install_fatal_signal_exit();
    // Under mpirun, after the command printed its error if any: the other ranks are stopped.
    return mpi::finish_if_loaded(run_reporting_errors(std::vector<std::string>(argv + 1, argv + argc)));
}
