# version.cmake — run at every build (target akm_version): writes generated/version.cpp with
# the current commit, touching the file only when the text changes, so the version written
# into every result is the commit that was built, not the one CMake was configured at.
#   cmake -DSOURCE_DIR=… -DBINARY_DIR=… -DPROJECT_VERSION=… -P cmake/version.cmake
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE AKM_GIT_REV
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT AKM_GIT_REV)
  set(AKM_GIT_REV "unknown")
endif()
configure_file(${SOURCE_DIR}/cmake/version.cpp.in ${BINARY_DIR}/generated/version.cpp @ONLY)
