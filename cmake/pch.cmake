# pch.cmake — precompiled third-party headers, to cut compile time (a cold CI build compiles
# every translation unit twice: Release, and the sanitizer build that the fuzz targets share).
#
# Only third-party and standard headers are precompiled: akm's own headers stay textual, so a
# layer's include view (cmake/layers.cmake) still decides what a source may include. CLI11 is
# the costly one (about 15 s of a sanitizer build per file that includes it); Eigen, nlohmann
# json, fmt and GoogleTest cost 1–2 s each per file. A PCH is force-included: it changes no
# code, only when the headers are parsed. The fast engine's native-ISA sources skip it (their
# flags differ, and they must not see Eigen: see CMakeLists.txt).
#
# Off by default: GCC 12 reports libstdc++-internal false positives (-Wstringop-overflow,
# -Warray-bounds inside std::string, the family of GCC bug 105329) once the headers come
# through a PCH, because their system-header status is not kept; the Release build, which
# holds the zero-warning line, parses them as system headers. The sanitizer and fuzz builds
# of CI turn it on (.ci/test, tests/fuzz/run.sh), where CLI11 alone costs ~15 s per file.
option(AKM_PCH "Precompile the third-party headers (faster cold builds)" OFF)

set(AKM_PCH_LIBRARY <vector> <string> <map> <memory> <functional> <cmath> <stdexcept>
    <Eigen/Dense> <nlohmann/json.hpp> <fmt/format.h>)

# akm_pch(<target> <headers...>): precompile these headers for the target (when AKM_PCH).
function(akm_pch target)
  if(AKM_PCH)
    set(headers)
    foreach(h ${ARGN})
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${h}>")  # C++ only (not the .cu files)
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
  endif()
endfunction()

# akm_pch_reuse(<target> <from>): the target uses <from>'s PCH (identical flags required: the
# test executables share one).
function(akm_pch_reuse target from)
  if(AKM_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
