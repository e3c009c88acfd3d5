#include "mpi/mpi_session.hpp"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>
#include <mpi.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "dpbo/module_call_guard.hpp"
#include "mpi/mpi_channel.hpp"
#include "mpi/mpi_coordinator.hpp"

namespace dpbo::cli::mpi {

namespace {

struct Session {
    int rank = 0;
    int ranks = 1;
    std::unique_ptr<Coordinator> coordinator;  // rank 0 only
};

std::optional<Session> session;

// mpirun ends the other ranks with SIGTERM when one exits abnormally (killed, crashed): rank 0 says
// what that means for the run before it goes, since mpirun's own message comes after and names only
// the rank that failed.
constexpr char kTerminatedNote[] =
    "dpbo: rank 0 was told to stop (SIGTERM): under mpirun this means another rank ended abnormally (mpirun's "
    "message names it) or the job was interrupted. Finished repeats stay in the output folder; running the same "
    "command again keeps them and runs the rest.\n";

void on_terminate(int signal_number) {
    const ssize_t written = write(STDERR_FILENO, kTerminatedNote, sizeof kTerminatedNote - 1);
    (void)written;
    // SA_RESETHAND restored the default action: the signal, re-raised, ends the process as mpirun expects.
    raise(signal_number);
}

}  // namespace

int start() {
    if (session) return session->rank;
    MPI_Init(nullptr, nullptr);
    Session started;
    MPI_Comm_rank(MPI_COMM_WORLD, &started.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &started.ranks);
    // Open MPI installs its own handlers for fatal signals: put dpbo's exit with status 1 back, and the
    // report naming the module that was running in front of it (it passes the signal on).
    install_fatal_signal_exit();
    install_fatal_signal_report();
    if (started.rank == 0) {
        started.coordinator = std::make_unique<Coordinator>(started.ranks);
        struct sigaction action {};
        action.sa_handler = on_terminate;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(SIGTERM, &action, nullptr);
    }
    session = std::move(started);
    return session->rank;
}

int ranks() { return session ? session->ranks : 1; }

Coordinator& coordinator() {
    if (!session || !session->coordinator) throw RunError("the MPI coordinator exists on rank 0 of an MPI job only");
    return *session->coordinator;
}

int finish(int exit_code) {
    if (!session) return exit_code;
    if (session->rank == 0) {
        const std::vector<std::string> unstoppable = session->coordinator->stop_workers();
        if (!unstoppable.empty()) {
            std::string names;
            for (const std::string& name : unstoppable) names += (names.empty() ? "" : ", ") + name;
            std::cerr << fmt::format("dpbo: {} cannot be told to stop (still busy or silent); aborting the MPI job\n",
                                     names);
            std::cerr.flush();
            MPI_Abort(MPI_COMM_WORLD, exit_code != 0 ? exit_code : 1);
        }
    }
    MPI_Finalize();
    session.reset();
    return exit_code;
}

}  // namespace dpbo::cli::mpi
