# docs.cmake — the API reference of the public headers (include/akm/**), built by Doxygen.
# Target `docs` (HTML in build/docs/api/html), only when Doxygen is found; the ctest docs_api
# (tests/CMakeLists.txt) runs the same configuration with WARN_AS_ERROR, so an undocumented
# public entity fails the suite. docs/api.md says what is documented and how.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(AKM_DOXYGEN_OUT ${CMAKE_BINARY_DIR}/docs/api)
  set(AKM_DOXYGEN_WARN_AS_ERROR FAIL_ON_WARNINGS)
  configure_file(${CMAKE_SOURCE_DIR}/docs/Doxyfile.in ${CMAKE_BINARY_DIR}/docs/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E make_directory ${AKM_DOXYGEN_OUT}
    COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "akm: API reference → ${AKM_DOXYGEN_OUT}/html/index.html"
    VERBATIM)
  message(STATUS "akm: API reference ON (doxygen ${DOXYGEN_VERSION}; cmake --build build --target docs)")
else()
  message(STATUS "akm: API reference OFF (no doxygen; Debian: doxygen)")
endif()
