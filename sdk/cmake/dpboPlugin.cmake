# dpbo_add_plugin(<target> SOURCES <files...> [LIBRARIES <libs...>] [OUTPUT_DIRECTORY <dir>]
#                 [NO_INSTALL])
#
# Builds a loadable dpbo plugin: a MODULE library with no "lib" prefix, hidden visibility (only the
# entry symbol exported by DPBO_PLUGIN is visible), linked to dpbo::dpbo, installed into
# lib/dpbo/plugins under CMAKE_INSTALL_PREFIX, where `dpbo` looks for it when installed in the same
# prefix. Used in-tree and by third parties alike (after find_package(dpbo)).
#
# Run-time lookup of libdpbo: $ORIGIN/../.. leads from P/lib/dpbo/plugins to P/lib (and in dpbo's own
# build tree, which has the same layout); a third party's plugin also names the directory of the
# libdpbo it linked, for its own build tree. Inside the `dpbo` process libdpbo is already loaded either
# way. An installed plugin is built with that path already (BUILD_WITH_INSTALL_RPATH): the build-tree
# path CMake would otherwise link ends in an empty entry, which the loader reads as the working folder.
function(dpbo_add_plugin target)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "dpbo_add_plugin(${target}): SOURCES is required")
  endif()
  if(NOT TARGET dpbo::dpbo)
    message(FATAL_ERROR "dpbo_add_plugin(${target}): the target dpbo::dpbo is not defined; "
                        "call find_package(dpbo REQUIRED) first")
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE dpbo::dpbo ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_20)
  # Schema options are designated initialisers that leave the other fields at their defaults.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-missing-field-initializers)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    INSTALL_RPATH "$ORIGIN/../..")
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  elseif(DEFINED DPBO_PLUGIN_BUILD_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${DPBO_PLUGIN_BUILD_DIR})
  endif()
  if(NOT ARG_NO_INSTALL)
    if(NOT PROJECT_NAME STREQUAL "dpbo")
      get_target_property(_dpbo_library dpbo::dpbo LOCATION)
      get_filename_component(_dpbo_library_dir "${_dpbo_library}" DIRECTORY)
      set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${_dpbo_library_dir}")
    endif()
    set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON)
    install(TARGETS ${target} LIBRARY DESTINATION lib/dpbo/plugins)
    set_property(GLOBAL APPEND PROPERTY DPBO_PLUGIN_TARGETS ${target})
  endif()
endfunction()
