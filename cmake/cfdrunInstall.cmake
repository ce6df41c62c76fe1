# The installed CMake package (issue #29): `cmake --install` puts the static
# libraries cfdrun_core and cfdrun_physics, their headers and a package
# config into the prefix, so that another project can
#
#   find_package(cfdrun REQUIRED)          # -Dcfdrun_ROOT=<prefix>
#   target_link_libraries(app PRIVATE cfdrun::physics)   # or cfdrun::core
#
# and compile cfdrun's kernels with the same public options (rounding,
# definitions) as cfdrun itself. Included from the top CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(CFDRUN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cfdrun CACHE STRING
    "Where cfdrunConfig.cmake is installed, relative to the prefix")
mark_as_advanced(CFDRUN_INSTALL_CMAKEDIR)

# The exported names, cfdrun::core and cfdrun::physics; the same names as
# aliases here, for a project that adds cfdrun with add_subdirectory.
set_target_properties(cfdrun_core PROPERTIES EXPORT_NAME core)
set_target_properties(cfdrun_physics PROPERTIES EXPORT_NAME physics)
add_library(cfdrun::core ALIAS cfdrun_core)
add_library(cfdrun::physics ALIAS cfdrun_physics)

install(TARGETS cfdrun_core cfdrun_physics EXPORT cfdrunTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The headers keep their paths from the source tree ("core/config.hpp",
# "physics/gas/exact_riemann.hpp") under <prefix>/include/cfdrun.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cfdrun
        FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/physics DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cfdrun
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/generated/core/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cfdrun/core)
install(EXPORT cfdrunTargets NAMESPACE cfdrun:: DESTINATION ${CFDRUN_INSTALL_CMAKEDIR})

# What the config file must find again, as this build found it.
get_filename_component(CFDRUN_KOKKOS_PREFIX "${Kokkos_DIR}/../../.." ABSOLUTE)
set(CFDRUN_CONFIG_YAML_TARGET ${CFDRUN_YAML_TARGET})
# HDF5 as found here, written into the config: CMake's FindHDF5 compiles a C
# test, so finding it again would make every consumer enable C.
set(CFDRUN_CONFIG_HDF5_INCLUDE_DIRS "${HDF5_INCLUDE_DIRS}")
set(CFDRUN_CONFIG_HDF5_LIBRARIES "${HDF5_LIBRARIES}")
string(REPLACE "-D" "" CFDRUN_CONFIG_HDF5_DEFINITIONS "${HDF5_DEFINITIONS}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/cfdrunConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cfdrunConfig.cmake INSTALL_DESTINATION ${CFDRUN_INSTALL_CMAKEDIR})
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cfdrunConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cfdrunConfig.cmake ${PROJECT_BINARY_DIR}/cfdrunConfigVersion.cmake
        DESTINATION ${CFDRUN_INSTALL_CMAKEDIR})
