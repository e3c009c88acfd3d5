// dpbo's executable: a launcher that sets OpenBLAS's thread count, then loads the command library
// (libdpbo-cli.so, cli_main.cpp) into this same process and runs it.
//
// Why a launcher: OpenBLAS reads OPENBLAS_NUM_THREADS once, when it is loaded, and starts its worker
// threads then; told afterwards to stay idle, they still spin for a while and double the CPU time of
// short runs. A program linked to OpenBLAS can only set the variable for itself by executing itself
// again, which loads every library twice. This file links nothing that loads OpenBLAS, so it can set
// the variable before the command library, and OpenBLAS with it, is loaded — once.
//
// It also loads BLAS and LAPACK itself, just before the command library. OpenBLAS resolves some
// 14 000 references to its own functions when it is loaded, each looked up along the loading
// library's search list: loaded as a dependency of the command library, that list holds the 20-odd
// libraries before it (1.5 ms of a 14 ms `dpbo run`); loaded first, OpenBLAS is the fourth. The
// command library then finds them loaded under the same names (DPBO_PRELOAD_LIBRARIES, the sonames
// CMake found) and uses them, so nothing changes but the order. A name that does not load is skipped:
// the command library's own loading then says what is missing.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The command library sits in lib/ beside the bin/ of this executable, in the build tree as in an
// installation (cmake/Install.cmake). Found from this executable's own path, not from a search path:
// a library of that name elsewhere (the working folder, LD_LIBRARY_PATH) is never the one run.
bool command_library_path(char (&path)[PATH_MAX]) {
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) return false;
    path[length] = '\0';
    char* slash = std::strrchr(path, '/');  // .../bin/dpbo -> .../bin
    if (slash == nullptr) return false;
    *slash = '\0';
    slash = std::strrchr(path, '/');  // .../bin -> ...
    if (slash == nullptr) return false;
    *slash = '\0';
    constexpr char kLibrary[] = "/lib/libdpbo-cli.so";
    if (std::strlen(path) + sizeof kLibrary > sizeof path) return false;
    std::strcat(path, kLibrary);
    return true;
}

void preload_blas() {
#ifdef DPBO_PRELOAD_LIBRARIES
    char names[] = DPBO_PRELOAD_LIBRARIES;  // "libblas.so.3:liblapack.so.3"
    char* rest = names;
    while (char* name = strsep(&rest, ":"))
        if (*name != '\0') dlopen(name, RTLD_LAZY | RTLD_LOCAL);  // kept loaded: never closed
#endif
}

}  // namespace

int main(int argc, char** argv) {
    // The user's OPENBLAS_NUM_THREADS wins; otherwise DPBO_BLAS_THREADS, or 1. The command library
    // checks DPBO_BLAS_THREADS and refuses a bad value by name (dpbo::limit_blas_threads).
    if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) {
        const char* wanted = std::getenv("DPBO_BLAS_THREADS");
        setenv("OPENBLAS_NUM_THREADS", wanted != nullptr && *wanted != '\0' ? wanted : "1", 1);
    }
    preload_blas();
    char path[PATH_MAX];
    if (!command_library_path(path)) {
        std::fprintf(stderr, "dpbo: failed: cannot find this executable's own path (/proc/self/exe)\n");
        return 1;
    }
    // As an executable's own libraries are: bound lazily (binding every symbol at once costs more than
    // a short command uses), and visible to what is loaded later (plugins, Open MPI's components).
    void* library = dlopen(path, RTLD_LAZY | RTLD_GLOBAL);
    if (library == nullptr) {
        std::fprintf(stderr, "dpbo: failed: cannot load the command library %s: %s\n", path, dlerror());
        return 1;
    }
    using Main = int (*)(int, char**);
    const auto run = reinterpret_cast<Main>(dlsym(library, "dpbo_cli_main"));
    if (run == nullptr) {
        std::fprintf(stderr, "dpbo: failed: %s has no dpbo_cli_main: %s\n", path, dlerror());
        return 1;
    }
    return run(argc, argv);
}
