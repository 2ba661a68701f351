# install.cmake — `cmake --install` lays out a CMake package:
#   bin/akm                                   the program
#   include/akm/<layer>/*.hpp                 the public headers, one folder per layer
#   lib/libakm_<layer>.a                      one library per layer (cmake/layers.cmake)
#   lib/cmake/akm/akmConfig.cmake (+ Version, Targets)   find_package(akm CONFIG)
# Consumers: find_package(akm CONFIG REQUIRED) and target_link_libraries(app akm::akm);
# akm::<layer> names one layer (akm::experiments holds the self-registering experiments).
include(CMakePackageConfigHelpers)

set(AKM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/akm CACHE STRING
    "where akmConfig.cmake is installed, relative to the prefix")

set_target_properties(akm PROPERTIES EXPORT_NAME akm)
list(TRANSFORM AKM_LAYERS PREPEND akm_ OUTPUT_VARIABLE AKM_LAYER_TARGETS)
install(TARGETS akm ${AKM_LAYER_TARGETS} EXPORT akmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS akm_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/akm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(EXPORT akmTargets NAMESPACE akm:: DESTINATION ${AKM_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/akmConfig.cmake.in
  ${CMAKE_BINARY_DIR}/generated/akmConfig.cmake
  INSTALL_DESTINATION ${AKM_INSTALL_CMAKEDIR})
# 0.x: only the same minor version is compatible (the API may still change between minors).
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/akmConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/akmConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/akmConfigVersion.cmake
        DESTINATION ${AKM_INSTALL_CMAKEDIR})
