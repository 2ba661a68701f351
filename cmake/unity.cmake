# unity.cmake — the unity build of CI's builds (.ci/test: Release and sanitizer; tests/fuzz/run.sh).
#
# With AKM_UNITY, the sources of one folder (a claim's folder under experiments/, a layer's
# src/<layer>/, an op's src/sim/ops/<op>/) are compiled as one translation unit: an
# instrumented compile spends most of its time on the Eigen and standard templates that every
# file of a folder instantiates again, and a folder's files share them. Off by default: the
# Release build that makes the results (.ci/reproduce, a developer's build) compiles every file
# on its own; CI's Release build, which only checks and tests, turns it on.
#
# CMake leaves out of the unity sources any file with its own compile options or
# definitions (src/sim/ops/deployed/entry.cpp); akm_unity leaves out every file kept from the
# precompiled headers (the native-ISA engine, in every build directory). A helper that two files
# of a folder share lives once, in a private header of the folder (src/check/normal.hpp,
# src/rules/layer_inputs.hpp, src/spectrum/random_basis.hpp), and helpers that only share a
# name are named for what they do: a unity build sees each name of a folder once. A file that
# cannot be made so is named in AKM_UNITY_SKIP below and compiles on its own; a new clash
# fails the sanitizer build with "redefinition of". The unit tests, linked as one program
# (AKM_UNIT_ONE_BINARY), compile ten files to a unit (tests/CMakeLists.txt): there every
# file-local name is unique across tests/ and tests/ops/.
option(AKM_UNITY "Compile each source folder as one translation unit (CI's builds)" OFF)

set(AKM_UNITY_SKIP "")

# akm_unity(<target>): with AKM_UNITY, the target's C++ sources compile one folder at a time.
function(akm_unity target)
  if(NOT AKM_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  get_target_property(sources ${target} SOURCES)
  foreach(source ${sources})
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    file(RELATIVE_PATH relative ${CMAKE_SOURCE_DIR} ${source})
    # A file kept from the precompiled headers (the native-ISA engine, which must not see
    # Eigen under its own name) is kept from its neighbours too.
    get_source_file_property(no_pch ${source} TARGET_DIRECTORY ${target} SKIP_PRECOMPILE_HEADERS)
    if(relative IN_LIST AKM_UNITY_SKIP OR no_pch)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES
        SKIP_UNITY_BUILD_INCLUSION ON)
      continue()
    endif()
    get_filename_component(folder ${relative} DIRECTORY)
    string(MAKE_C_IDENTIFIER "${folder}" group)
    set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${group})
  endforeach()
endfunction()
