# `cmake --install <build> --prefix P` lays out the same tree the build uses, plus the SDK:
#   P/bin/dpbo                       the host's launcher (loads P/lib/libdpbo-cli.so, the commands)
#   P/lib/libdpbo-cli.so             the commands (finds its libraries through $ORIGIN)
#   P/lib/libdpbo-mpi.so             dpbo run under mpirun, loaded only there (apps/dpbo/mpi_loader.hpp)
#   P/lib/libdpbo.so*                the plugin contract and its soname links
#   P/lib/libdpbo-bo.so*             the BO toolkit, with its own version (dpbo/bo/version.hpp)
#   P/lib/libdpbo-host.so            the host's library: run-time only, no headers, not exported
#   P/lib/dpbo/plugins/*.so          in-tree plugins (each installs itself in dpbo_add_plugin)
#   P/lib/dpbo/dpbo-probe            reads plugin manifests in a child process (core/CMakeLists.txt)
#   P/include/dpbo/*.hpp             the contract's headers, and dpbo/bo, dpbo/gp the toolkit's
#   P/lib/cmake/dpbo/                find_package(dpbo): config, version, targets (dpbo::dpbo,
#                                    dpbo::bo), dpbo_add_plugin
include(CMakePackageConfigHelpers)

set(DPBO_INSTALL_INCLUDEDIR include)
set(DPBO_INSTALL_CMAKEDIR ${DPBO_INSTALL_LIBDIR}/cmake/dpbo)

# dpbo_armadillo is exported with the library because dpbo links it PUBLIC: a plugin that includes
# <dpbo/mechanism.hpp> includes <armadillo> and must link the same Armadillo. No INCLUDES
# DESTINATION: dpbo's own $<INSTALL_INTERFACE:include> already names the headers, and the option
# would add them a second time, to dpbo_armadillo as well.
install(TARGETS dpbo dpbo_bo dpbo_armadillo
  EXPORT dpboTargets
  LIBRARY DESTINATION ${DPBO_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${DPBO_INSTALL_LIBDIR}
  RUNTIME DESTINATION bin)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/contract/include/dpbo ${PROJECT_SOURCE_DIR}/core/bo/include/dpbo
  DESTINATION ${DPBO_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")

# The host's library is what bin/dpbo and the probe run on, nothing a plugin may link: no headers,
# no exported target.
install(TARGETS dpbo_host_library LIBRARY DESTINATION ${DPBO_INSTALL_LIBDIR})

if(TARGET dpbo_cli)
  install(TARGETS dpbo_cli RUNTIME DESTINATION bin)
  install(TARGETS dpbo_cli_library dpbo_mpi LIBRARY DESTINATION ${DPBO_INSTALL_LIBDIR})
endif()

install(EXPORT dpboTargets
  NAMESPACE dpbo::
  FILE dpboTargets.cmake
  DESTINATION ${DPBO_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/sdk/cmake/dpboConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sdk/dpboConfig.cmake
  INSTALL_DESTINATION ${DPBO_INSTALL_CMAKEDIR})

# SameMajorVersion: a new major version may change the plugin ABI (kAbiVersion), and the host
# refuses a plugin built against another ABI; refusing at configure time says so earlier.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/sdk/dpboConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)

install(FILES
  ${PROJECT_BINARY_DIR}/sdk/dpboConfig.cmake
  ${PROJECT_BINARY_DIR}/sdk/dpboConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/sdk/cmake/dpboPlugin.cmake
  DESTINATION ${DPBO_INSTALL_CMAKEDIR})
