# python.cmake — the Python module `akm` (src/python/, pybind11): above the experiments and app layers.
#
# AKM_PYTHON (default ON) builds it where Python 3's development files and pybind11 are found
# (Debian: python3-dev pybind11-dev) and is OFF with a status line otherwise. Built into
# build/python/akm/ (the extension _akm and the package's .py files), so PYTHONPATH=build/python finds
# it; `cmake --install` puts the package where the interpreter looks under the prefix
# (Debian with prefix /usr/local: /usr/local/lib/python3.X/dist-packages).
option(AKM_PYTHON "Build the Python module akm (pybind11)" ON)
set(AKM_WITH_PYTHON OFF)
if(AKM_PYTHON AND AKM_SANITIZE)
  # An ASan-instrumented extension cannot be loaded by an uninstrumented interpreter.
  set(AKM_PYTHON_WHY "AKM_SANITIZE=ON")
elseif(AKM_PYTHON)
  # Debian's interpreter, where Debian's numpy, pandas, pytest and torch live (as for the
  # notebook tests); a pyenv python3 earlier on PATH has none of them.
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    find_package(pybind11 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(AKM_WITH_PYTHON ON)
  elseif(NOT Python3_FOUND)
    set(AKM_PYTHON_WHY "no Python 3 development files (Debian: python3-dev)")
  else()
    set(AKM_PYTHON_WHY "no pybind11 (Debian: pybind11-dev)")
  endif()
endif()
if(NOT AKM_WITH_PYTHON)
  if(AKM_PYTHON)
    message(STATUS "akm: Python module OFF (${AKM_PYTHON_WHY})")
  else()
    message(STATUS "akm: Python module OFF (AKM_PYTHON=OFF)")
  endif()
  return()
endif()

# A Python extension is a shared object: every static layer it links must be PIC. (PIC
# changes addressing only; the numbers are identical — checked on T5's manifest.)
foreach(l ${AKM_LAYERS})
  set_target_properties(akm_${l} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endforeach()

file(GLOB AKM_PYTHON_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/python/*.cpp)
# NO_EXTRAS: no LTO and no strip (one plain link of the library; CI has 2 cores).
pybind11_add_module(akm_python MODULE NO_EXTRAS ${AKM_PYTHON_SOURCES})
set_target_properties(akm_python PROPERTIES OUTPUT_NAME _akm
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/python/akm)
# Experiments register themselves from static initializers: keep every object, as for the
# program (not with the umbrella `akm`, which holds the same archive without the feature).
target_include_directories(akm_python PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(akm_python PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,akm_experiments>" akm_app)
# The pure-Python part of the package (akm/__init__.py, the akm.torch optimizers), copied
# beside the extension.
file(GLOB_RECURSE AKM_PYTHON_FILES CONFIGURE_DEPENDS RELATIVE ${CMAKE_SOURCE_DIR}/src/python
  ${CMAKE_SOURCE_DIR}/src/python/akm/*.py)
foreach(f ${AKM_PYTHON_FILES})
  configure_file(${CMAKE_SOURCE_DIR}/src/python/${f} ${CMAKE_BINARY_DIR}/python/${f} COPYONLY)
endforeach()
# The claims that measure through PyTorch (T22: experiments/python_module.cpp) run this
# interpreter on this package folder, so they measure the akm.torch of the same build.
set_property(SOURCE ${CMAKE_SOURCE_DIR}/experiments/python_module.cpp APPEND PROPERTY COMPILE_DEFINITIONS
  AKM_PYTHON_EXECUTABLE="${Python3_EXECUTABLE}" AKM_PYTHON_PACKAGE_DIR="${CMAKE_BINARY_DIR}/python")

# Install dir relative to the prefix, from the interpreter's own scheme; Debian's default
# scheme (posix_local) puts local installs in lib/python3.X/dist-packages.
if(NOT DEFINED AKM_PYTHON_INSTALL_DIR)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c [=[
import os, sysconfig
s = sysconfig.get_default_scheme()
v = {"base": "/P", "platbase": "/P"}
if s == "posix_local":
    p = sysconfig.get_path("platlib", "posix_prefix", vars=v).replace("site-packages", "dist-packages")
else:
    p = sysconfig.get_path("platlib", s, vars=v)
print(os.path.relpath(p, "/P"))
]=] OUTPUT_VARIABLE akm_py_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE akm_py_rc)
  if(NOT akm_py_rc EQUAL 0 OR akm_py_dir STREQUAL "")
    set(akm_py_dir "lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages")
  endif()
  set(AKM_PYTHON_INSTALL_DIR ${akm_py_dir} CACHE STRING "Python package dir, relative to the install prefix")
endif()
install(TARGETS akm_python LIBRARY DESTINATION ${AKM_PYTHON_INSTALL_DIR}/akm COMPONENT python)
foreach(f ${AKM_PYTHON_FILES})
  get_filename_component(d ${f} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/src/python/${f} DESTINATION ${AKM_PYTHON_INSTALL_DIR}/${d} COMPONENT python)
endforeach()
message(STATUS "akm: Python module ON (Python ${Python3_VERSION}, pybind11 ${pybind11_VERSION}; "
               "installs to <prefix>/${AKM_PYTHON_INSTALL_DIR}/akm)")
