#pragma once
// `dpbo run` under Open MPI's mpirun: whether this process is one of several ranks, MPI's start and
// end, and rank 0's coordinator of the others. Only `dpbo run` starts MPI, and only when mpirun
// started more than one rank (mpi_loader.hpp, which loads this library then); every other use of
// dpbo never initialises it.
#include <string>

namespace dpbo::cli::mpi {

class Coordinator;

// Initialises MPI, once, and returns this process's rank. On rank 0 it also sets a note for SIGTERM,
// the signal mpirun stops the other ranks with when one of them ends abnormally.
int start();

// After start(): the number of ranks, and rank 0's coordinator of the workers.
int ranks();
Coordinator& coordinator();

// The end of the process, after the command returned `exit_code` and printed any error: rank 0 stops
// every worker and finalises MPI, or, when a worker cannot be stopped (it never answered), says so
// and aborts the whole MPI job; a worker finalises. Returns the code to exit with; without start()
// it returns `exit_code` untouched.
int finish(int exit_code);

}  // namespace dpbo::cli::mpi
