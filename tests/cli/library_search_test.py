#!/usr/bin/env python3
"""Where dpbo's libraries come from.

1. Never from the working folder: dpbo started in a folder that holds a valid shared object under the
   name of every library it, its command library, its plugins and its probe need runs as it does
   anywhere else. (A run-time path with an empty entry makes the loader search the working folder
   first; CMake's build-tree paths ended in one, and a file called libfmt.so.9 there was loaded.)
2. The launcher bin/dpbo loads lib/libdpbo-cli.so from beside its own folder, and says which file it
   could not load when that is missing, with exit status 1.
3. `dpbo run` under mpirun loads lib/libdpbo-mpi.so from beside libdpbo-host.so (no other command
   loads it), and names that file when it is missing, with exit status 1.

    library_search_test.py BUILD/bin/dpbo
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def needed_libraries(objects):
    """{name: resolved path} of every library the objects load (ldd lists the transitive ones)."""
    found = {}
    for path in objects:
        listing = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] == "=>" and parts[2].startswith("/"):
                found[parts[0]] = parts[2]
    return found


def run(dpbo, arguments, folder, environment):
    return subprocess.run([dpbo, *arguments], cwd=folder, env=environment, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)


def main(dpbo):
    dpbo = os.path.abspath(dpbo)
    build = os.path.dirname(os.path.dirname(dpbo))
    objects = [dpbo, *glob.glob(os.path.join(build, "lib", "*.so")), os.path.join(build, "lib", "dpbo", "dpbo-probe"),
               *glob.glob(os.path.join(build, "lib", "dpbo", "plugins", "*.so"))]
    libraries = needed_libraries(objects)
    if "libfmt.so.9" not in libraries and not any(name.startswith("libfmt") for name in libraries):
        print(f"expected libfmt among dpbo's libraries; ldd found: {sorted(libraries)}")
        return 1
    # The decoys: a real, loadable library under every other library's name, so that a search of the
    # working folder finds something it would load (a broken file would only be skipped or refused).
    by_size = sorted(set(libraries.values()), key=os.path.getsize)
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("OPENBLAS_NUM_THREADS", "LD_LIBRARY_PATH", "DPBO_PLUGIN_PATH")}
    failures = []
    with tempfile.TemporaryDirectory(prefix="dpbo-library-search-") as folder:
        for name, path in libraries.items():
            decoy = by_size[0] if by_size[0] != path else by_size[1]
            shutil.copyfile(decoy, os.path.join(folder, name))
        environment["XDG_CACHE_HOME"] = os.path.join(folder, "cache")
        for arguments, expected in ((["--version"], "dpbo"),
                                    (["list"], "random-search"),
                                    (["run", "--algorithm", "random-search", "--objective", "branin", "--set",
                                      "algorithm.budget=2", "--seed", "1", "--out", "run"], "released")):
            result = run(dpbo, arguments, folder, environment)
            if result.returncode != 0 or expected not in result.stdout:
                failures.append(f"dpbo {' '.join(arguments)} in a folder of decoy libraries: exit "
                                f"{result.returncode}, expected 0 and {expected!r} in its output; stderr: "
                                f"{result.stderr.strip()[:400]}")

        # A launcher without its command library: a copy of bin/dpbo in a tree with no lib/.
        lonely = os.path.join(folder, "tree", "bin")
        os.makedirs(lonely)
        shutil.copy2(dpbo, lonely)
        result = run(os.path.join(lonely, "dpbo"), ["--version"], folder, environment)
        wanted = os.path.join(folder, "tree", "lib", "libdpbo-cli.so")
        if result.returncode != 1 or wanted not in result.stderr or "cannot load the command library" not in \
                result.stderr:
            failures.append(f"a launcher with no lib/ beside it: exit {result.returncode}, expected 1 and an error "
                            f"naming {wanted}; stderr: {result.stderr.strip()[:400]}")

        # A tree without the MPI library, run as if mpirun had started it as one of two ranks (the
        # library is looked for before MPI is started, so no mpirun is needed to see the error).
        tree = os.path.join(folder, "no-mpi")
        os.makedirs(os.path.join(tree, "bin"))
        shutil.copy2(dpbo, os.path.join(tree, "bin"))
        shutil.copytree(os.path.join(build, "lib"), os.path.join(tree, "lib"), symlinks=True,
                        ignore=shutil.ignore_patterns("libdpbo-mpi.so*", "python"))
        result = run(os.path.join(tree, "bin", "dpbo"), ["run", "--algorithm", "random-search", "--objective", "branin",
                                                        "--seed", "1", "--out", "mpi-run"], folder,
                     dict(environment, OMPI_COMM_WORLD_SIZE="2"))
        wanted = os.path.join(tree, "lib", "libdpbo-mpi.so")
        if result.returncode != 1 or wanted not in result.stderr or "cannot be loaded" not in result.stderr:
            failures.append(f"dpbo run as one of 2 MPI ranks without libdpbo-mpi.so: exit {result.returncode}, expected "
                            f"1 and an error naming {wanted}; stderr: {result.stderr.strip()[:400]}")
    for failure in failures:
        print(failure)
    if not failures:
        print(f"dpbo ran with decoys of {len(libraries)} libraries in its working folder; the launcher names "
              f"a missing command library, and a run under mpirun a missing MPI library")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
