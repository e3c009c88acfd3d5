#pragma once
// `dpbo run` under Open MPI's mpirun, as the commands see it: whether this process is one of several
// ranks (read from the environment), and MPI's module (mpi/mpi_module.hpp), loaded from
// libdpbo-mpi.so the first time it is asked for. A process that never asks never loads Open MPI.
namespace dpbo::cli::mpi {

class Module;

// Whether Open MPI's mpirun started this process as one of several ranks (OMPI_COMM_WORLD_SIZE > 1).
bool launched();

// libdpbo-mpi.so's module, loaded from the folder of the libdpbo-host.so this process runs (the
// build tree's lib/ or the installation's), never from a search path. RunError naming the file when
// it cannot be loaded.
Module& module();

// The end of the process, after the command returned `exit_code`: the module's finish when it was
// loaded (the other ranks are stopped, MPI finalised), else `exit_code` untouched.
int finish_if_loaded(int exit_code);

}  // namespace dpbo::cli::mpi
