#include "mpi_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/fatal_signal_exit.hpp"
#include "mpi/mpi_module.hpp"

namespace dpbo::cli::mpi {

namespace {

Module* loaded = nullptr;

// libdpbo-host.so's folder, from the path the dynamic loader gave the copy this process runs: the
// command library and the Python extension both link it, and libdpbo-mpi.so is installed beside it.
std::filesystem::path library_file() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&install_fatal_signal_exit), &info) == 0 || info.dli_fname == nullptr)
        throw RunError(
            "dpbo run under mpirun: cannot find the path of libdpbo-host.so, beside which libdpbo-mpi.so "
            "is looked for");
    return std::filesystem::path(info.dli_fname).parent_path() / "libdpbo-mpi.so";
}

}  // namespace

bool launched() {
    const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (size == nullptr) return false;
    char* end = nullptr;
    const long ranks = std::strtol(size, &end, 10);
    return end != size && *end == '\0' && ranks > 1;
}

Module& module() {
    if (loaded != nullptr) return *loaded;
    const std::filesystem::path file = library_file();
    // Global, as the executable's own libraries are: Open MPI loads components of its own that look
    // for its symbols there.
    void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr)
        throw RunError(
            fmt::format("dpbo run under mpirun (OMPI_COMM_WORLD_SIZE={}) needs {}, which cannot be loaded: {}",
                        std::getenv("OMPI_COMM_WORLD_SIZE"), file.string(), dlerror()));
    const auto entry = reinterpret_cast<Module* (*)()>(dlsym(library, "dpbo_mpi_module"));
    if (entry == nullptr) throw RunError(fmt::format("{} has no dpbo_mpi_module: {}", file.string(), dlerror()));
    loaded = entry();
    return *loaded;
}

int finish_if_loaded(int exit_code) { return loaded != nullptr ? loaded->finish(exit_code) : exit_code; }

}  // namespace dpbo::cli::mpi
