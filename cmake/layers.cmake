# layers.cmake — one static library per layer of docs/architecture.md, linking only the
# layers it depends on.
#
# Each layer names the layers its own sources include (DEPENDS, the edges of the graph in
# docs/architecture.md; the ctest docs_layers holds the two and the sources' #includes
# together). A layer's sources see the headers of its own layer and of the layers it reaches
# through DEPENDS, and no others: each layer compiles against a view of include/akm/
# (build/layer-include/<layer>/akm/) that holds links to just those folders. An #include of
# any other layer — above it, or beside it like problems from theory — is therefore a
# compile error ("No such file"), and a call into it without its header cannot be written
# either: the build enforces the graph (the ctests layers_* try it). Consumers (tests, the
# program, installed packages) see the whole include/ tree through the umbrella target `akm`.
set(AKM_LAYERS "")

# Settings every layer's sources compile with: the layer's view of include/akm/ and the
# third-party packages. Also used by the probes of tests/layers/ (akm_layer_probe).
function(akm_layer_compile_settings target layer)
  target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR}/layer-include/${layer})
  target_include_directories(${target} SYSTEM PUBLIC $<BUILD_INTERFACE:${RANDOM123_INCLUDE_DIR}>)
  target_link_libraries(${target} PUBLIC Eigen3::Eigen Spectra::Spectra Boost::headers
    nlohmann_json::nlohmann_json fmt::fmt Threads::Threads)
endfunction()

# akm_add_layer(<name> [DEPENDS <layers...>] [SOURCES <files...>])
# The library akm_<name> of src/<name>/*.cpp and SOURCES, linking the DEPENDS layers (each
# defined before). Its view holds <name> and every layer reachable through DEPENDS.
function(akm_add_layer name)
  cmake_parse_arguments(L "" "" "DEPENDS;SOURCES" ${ARGN})
  set(visible ${name})
  foreach(d ${L_DEPENDS})
    if(NOT d IN_LIST AKM_LAYERS)
      message(FATAL_ERROR "akm_add_layer(${name}): DEPENDS ${d}, which is not a layer defined before it")
    endif()
    list(APPEND visible ${AKM_LAYER_VISIBLE_${d}})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set(view ${CMAKE_BINARY_DIR}/layer-include/${name}/akm)
  file(REMOVE_RECURSE ${CMAKE_BINARY_DIR}/layer-include/${name})
  file(MAKE_DIRECTORY ${view})
  foreach(l ${visible})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/include/akm/${l} ${view}/${l} SYMBOLIC)
  endforeach()
  akm_layer_sources(sources ${name})
  list(APPEND sources ${L_SOURCES})
  list(REMOVE_DUPLICATES sources)
  add_library(akm_${name} STATIC ${sources})
  akm_layer_compile_settings(akm_${name} ${name})
  akm_pch(akm_${name} ${AKM_PCH_LIBRARY})
  akm_unity(akm_${name})
  # No build-tree INTERFACE include of include/: a higher layer linking this one must not
  # see the whole tree through it (the umbrella target `akm` publishes include/ to the
  # program and the tests). Installed, every layer finds the headers under include/.
  target_include_directories(akm_${name} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(d ${L_DEPENDS})
    target_link_libraries(akm_${name} PUBLIC akm_${d})
  endforeach()
  set_target_properties(akm_${name} PROPERTIES EXPORT_NAME ${name})
  set(AKM_LAYER_VISIBLE_${name} ${visible} PARENT_SCOPE)
  set(AKM_LAYER_SOURCES_${name} ${sources} PARENT_SCOPE)
  set(AKM_LAYERS ${AKM_LAYERS} ${name} PARENT_SCOPE)
endfunction()

# The sources of one layer: src/<layer>/*.cpp (not recursive).
function(akm_layer_sources out layer)
  file(GLOB files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${layer}/*.cpp)
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# akm_layer_probe(<target> <layer> <source>): an object library (not built by default) that
# compiles `source` as a source file of `layer` would be compiled, against the layer's view.
# tests/layers/ builds one per case: an include the layer may see compiles, one it may not
# fails with "No such file".
function(akm_layer_probe target layer source)
  add_library(${target} OBJECT EXCLUDE_FROM_ALL ${source})
  akm_layer_compile_settings(${target} ${layer})
endfunction()
