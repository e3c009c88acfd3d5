# Every dependency is a Debian package (see cmake/setup.sh for the package names).
find_package(Armadillo REQUIRED)         # CMake's FindArmadillo; BLAS/LAPACK via OpenBLAS
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)  # DLL is header-only
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(doctest REQUIRED)
find_package(NLopt 2.7 REQUIRED)          # local optimisation (marginal likelihood, acquisitions)
find_package(ZLIB REQUIRED)               # gzip-compressed data files (CMake's FindZLIB)
find_package(SQLite3 REQUIRED)            # run journals and ask/tell studies (CMake's FindSQLite3)
# Distributed evaluation (dpbo run under mpirun): Open MPI's C API, linked into lib/libdpbo-mpi.so
# only, never into libdpbo, the commands or a plugin: the commands load that library (and MPI) only
# when Open MPI's mpirun started the process as one of several ranks (apps/dpbo/mpi_loader.hpp).
# The CXX component, since the project enables no C compiler; without the deprecated C++ bindings.
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI REQUIRED COMPONENTS CXX)
# Exact arithmetic (GMP, with its C++ interface) and the ChaCha20 keystream (libsodium) for the
# secure samplers, MPFR for privacy bounds where doubles cancel (and the tests' correctly rounded
# references). They ship pkg-config files, not CMake packages; IMPORTED_TARGET makes each one target (PkgConfig::…). libdpbo links GMP, MPFR and
# libsodium privately: no installed header names them, so plugins need neither.
find_package(PkgConfig REQUIRED)
pkg_check_modules(DPBO_GMP REQUIRED IMPORTED_TARGET gmp gmpxx)
pkg_check_modules(DPBO_MPFR REQUIRED IMPORTED_TARGET mpfr)
pkg_check_modules(DPBO_SODIUM REQUIRED IMPORTED_TARGET libsodium)
# FFTW: the pld accountant composes privacy-loss distributions by FFT convolution (plugin-private).
pkg_check_modules(DPBO_FFTW REQUIRED IMPORTED_TARGET fftw3)
# libsvm (SVR for the svr-tuning objective) ships no CMake package: one imported target, found here
# so that a missing libsvm-dev stops the configure step, not the build.
find_path(LIBSVM_INCLUDE_DIR libsvm/svm.h REQUIRED)
find_library(LIBSVM_LIBRARY svm REQUIRED)
if(NOT TARGET dpbo_libsvm)
  add_library(dpbo_libsvm INTERFACE)
  target_include_directories(dpbo_libsvm SYSTEM INTERFACE ${LIBSVM_INCLUDE_DIR})
  target_link_libraries(dpbo_libsvm INTERFACE ${LIBSVM_LIBRARY})
endif()
# The GP likelihood gradient calls BLAS/LAPACK routines Armadillo does not wrap (trmm, symm, lauum).
# The generic names are Debian's alternatives, the very libblas.so.3 / liblapack.so.3 that Armadillo
# links, so one OpenBLAS serves both.
if(NOT DEFINED BLA_VENDOR)
  set(BLA_VENDOR Generic)
endif()
find_package(LAPACK REQUIRED)

# One imported target for Armadillo so consumers (and the exported SDK targets) name it the same way.
if(NOT TARGET dpbo_armadillo)
  add_library(dpbo_armadillo INTERFACE)
  target_include_directories(dpbo_armadillo SYSTEM INTERFACE ${ARMADILLO_INCLUDE_DIRS})
  target_link_libraries(dpbo_armadillo INTERFACE ${ARMADILLO_LIBRARIES})
endif()

