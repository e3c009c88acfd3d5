#!/usr/bin/env bash
# Sets up dpbo on Debian 12: installs the Debian packages it needs (only the missing ones, with
# sudo when not root), configures and builds into build/. Safe to run again: it does only what is
# left to do.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${DPBO_BUILD_DIR:-$source_dir/build}

packages=(
  g++ cmake ninja-build pkg-config python3
  python3-numpy                               # the sdk examples that train their own models; the Python package
  python3-dev pybind11-dev                    # the Python package (import dpbo)
  python3-optuna                              # the peer the ask/tell overhead benchmark measures beside dpbo
  libboost-dev libboost-program-options-dev   # Boost.DLL (headers) and Program_options
  libarmadillo-dev libopenblas-dev            # linear algebra over OpenBLAS
  libfmt-dev nlohmann-json3-dev doctest-dev   # formatting, result files, tests
  libnlopt-dev                                # local optimisation
  libsvm-dev zlib1g-dev                       # SVR (svr-tuning objective), gzip data files
  libgmp-dev libmpfr-dev libsodium-dev        # exact noise sampling, exact privacy bounds, ChaCha20
  libfftw3-dev                                # FFT convolution of privacy-loss distributions (pld accountant)
  libsqlite3-dev                              # run journals (crash-safe resume) and ask/tell studies
  libopenmpi-dev openmpi-bin                  # distributed evaluation: mpirun -np K dpbo run
  gnuplot-nox                                 # dpbo report draws its figures with gnuplot's svg terminal
  chromium                                    # the report's first screen checked in headless Chromium (tests/cli)
  clang-format                                # the tree's one formatting (.clang-format), checked by a test
  jq                                          # the docs' experiment scripts read result.json with it
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "dpbo setup: installing ${missing[*]}"
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "dpbo setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# CI builds with warnings as errors; elsewhere a new compiler's new warning must not stop a user.
werror=OFF
[[ "${CI:-}" == true ]] && werror=ON
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPBO_WERROR=$werror >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
