# pch.cmake — precompiled third-party headers, to cut compile time (a cold CI build compiles
# every translation unit twice: Release and the sanitizer build).
#
# Only third-party and standard headers are precompiled: akm's own headers stay textual, so a
# layer's include view (cmake/layers.cmake) still decides what a source may include. CLI11 is
# the costly one (about 15 s of a sanitizer build per file that includes it); Eigen, nlohmann
# json, fmt and GoogleTest cost 1–2 s each per file. A PCH is force-included: it changes no
# code, only when the headers are parsed. The fast engine's native-ISA sources skip it (their
# flags differ, and they must not see Eigen: see CMakeLists.txt).
option(AKM_PCH "Precompile the third-party headers (faster cold builds)" ON)

set(AKM_PCH_LIBRARY <vector> <string> <map> <memory> <functional> <cmath> <stdexcept>
    <Eigen/Dense> <nlohmann/json.hpp> <fmt/format.h>)

# GCC 12 reports a false -Wstringop-overflow inside libstdc++'s std::string operator+ once the
# headers come through a PCH (the same code compiles without it when they are parsed as
# system headers; the family of GCC bug 105329, fixed in GCC 13): off for the PCH targets.
set(AKM_PCH_FLAGS "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  set(AKM_PCH_FLAGS $<$<COMPILE_LANGUAGE:CXX>:-Wno-stringop-overflow>)
endif()

# akm_pch(<target> <headers...>): precompile these headers for the target (when AKM_PCH).
function(akm_pch target)
  if(AKM_PCH)
    set(headers)
    foreach(h ${ARGN})
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${h}>")  # C++ only (not the .cu files)
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
    target_compile_options(${target} PRIVATE ${AKM_PCH_FLAGS})
  endif()
endfunction()

# akm_pch_reuse(<target> <from>): the target uses <from>'s PCH (identical flags required: the
# test executables share one).
function(akm_pch_reuse target from)
  if(AKM_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
    target_compile_options(${target} PRIVATE ${AKM_PCH_FLAGS})
  endif()
endfunction()
