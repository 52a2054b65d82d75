# cmake --install build --prefix P: the plugin, the runtime and its header,
# the drivers, idiom-funil, idiom-report (tools/report/), the built-in specs (for reference: the plugin
# embeds them), a CMake package (find_package(Idiom)) and idiom.pc.
include(CMakePackageConfigHelpers)

set(IDIOM_INSTALL_SPECDIR ${CMAKE_INSTALL_DATADIR}/idiom/specs)
set(IDIOM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Idiom)
set(IDIOM_INSTALL_PCDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set_target_properties(idiomrt PROPERTIES EXPORT_NAME runtime)
install(TARGETS idiomrt EXPORT IdiomTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/runtime/include/idiomrt.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS Idiom LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS idiom-cc idiom-c++ idiom-funil
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
file(GLOB IDIOM_INSTALL_SPECS ${PROJECT_SOURCE_DIR}/constraints/specs/*.idl)
install(FILES ${IDIOM_INSTALL_SPECS} DESTINATION ${IDIOM_INSTALL_SPECDIR})

install(EXPORT IdiomTargets NAMESPACE Idiom::
  DESTINATION ${IDIOM_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/IdiomConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/IdiomConfig.cmake
  INSTALL_DESTINATION ${IDIOM_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR IDIOM_INSTALL_SPECDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/IdiomConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/IdiomConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/IdiomConfigVersion.cmake
  DESTINATION ${IDIOM_INSTALL_CMAKEDIR})

# idiom.pc finds its prefix from its own directory (${pcfiledir}).
file(RELATIVE_PATH IDIOM_PC_PREFIX_FROM_PCDIR
  /prefix/${IDIOM_INSTALL_PCDIR} /prefix)
string(REGEX REPLACE "/$" "" IDIOM_PC_PREFIX_FROM_PCDIR "${IDIOM_PC_PREFIX_FROM_PCDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/idiom.pc.in
  ${PROJECT_BINARY_DIR}/cmake/idiom.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/idiom.pc DESTINATION ${IDIOM_INSTALL_PCDIR})

# A Debian package (cpack -G DEB in the build directory).
set(CPACK_PACKAGE_NAME idiom)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Idiom developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Offloads idioms of sequential C to OpenCL: clang 19 pass plugin, runtime, drivers")
# dpkg-shlibdeps adds the shared libraries (libz3-4, libstdc++6, libc6).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-19")
# idiom-report needs python3 and python3-yaml.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1, pocl-opencl-icd, python3, python3-yaml")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
