# Every dependency is a Debian package (see cmake/setup.sh for the package names).
find_package(Armadillo REQUIRED)         # CMake's FindArmadillo; BLAS/LAPACK via OpenBLAS
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)  # DLL is header-only
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(doctest REQUIRED)
find_package(NLopt 2.7 REQUIRED)          # local optimisation (marginal likelihood, acquisitions)

# One imported target for Armadillo so consumers (and the exported SDK targets) name it the same way.
if(NOT TARGET dpbo_armadillo)
  add_library(dpbo_armadillo INTERFACE)
  target_include_directories(dpbo_armadillo SYSTEM INTERFACE ${ARMADILLO_INCLUDE_DIRS})
  target_link_libraries(dpbo_armadillo INTERFACE ${ARMADILLO_LIBRARIES})
endif()
