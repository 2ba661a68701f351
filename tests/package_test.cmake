# ctest `package_consumer`: install akm into a fresh prefix, then configure, build and run
# tests/consumer against it with find_package(akm CONFIG REQUIRED).
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX, GENERATOR, LAUNCHER (ccache or empty).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "package test: `${cmd}` failed (${rc})")
  endif()
endfunction()

step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f bin/akm include/akm/theory/theory.hpp lib/cmake/akm/akmConfig.cmake
          lib/cmake/akm/akmConfigVersion.cmake lib/cmake/akm/akmTargets.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package test: ${f} was not installed")
  endif()
endforeach()
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}"
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
step(${WORK_DIR}/build/ak_buffer)
step(${WORK_DIR}/build/list_experiments)
step(${prefix}/bin/akm --version)
