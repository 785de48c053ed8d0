# Installs the static library, its public headers and a namespaced CMake package, so that a
# consumer does find_package(rigid2d CONFIG REQUIRED) and links rigid2d::rigid2d.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(installed_targets rigid2d)
if(RIGID2D_BUILD_THREADS)
  list(APPEND installed_targets rigid2d-threads)
endif()
install(TARGETS ${installed_targets} EXPORT rigid2dTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/rigid2d DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT rigid2dTargets NAMESPACE rigid2d::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rigid2d)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/rigid2dConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rigid2dConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rigid2d)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rigid2dConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rigid2dConfig.cmake ${PROJECT_BINARY_DIR}/rigid2dConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rigid2d)
