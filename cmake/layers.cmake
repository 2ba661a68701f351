# layers.cmake — one static library per layer of docs/architecture.md, linking only the layers below.
#
#   base → random → spectrum → rules → problems → theory → sim → check → report → experiments → cli
#
# A layer's sources see the headers of its own layer and of the layers below it, and no
# others: each layer compiles against a view of include/akm/ (build/layer-include/<layer>/akm/)
# that holds links to just those folders. An #include of a higher layer is therefore a
# compile error ("No such file"), and a call into a higher layer without its header cannot be
# written either: the build enforces the picture. Consumers (tests, the program, installed
# packages) see the whole include/ tree through the umbrella target `akm`.
set(AKM_LAYERS "")

# akm_add_layer(<name> SOURCES <files...> [OBJECTS_NATIVE <files...>])
# Links the previous layer (and through it every lower one).
function(akm_add_layer name)
  cmake_parse_arguments(L "" "" "SOURCES" ${ARGN})
  set(view ${CMAKE_BINARY_DIR}/layer-include/${name}/akm)
  file(REMOVE_RECURSE ${CMAKE_BINARY_DIR}/layer-include/${name})
  file(MAKE_DIRECTORY ${view})
  set(visible ${AKM_LAYERS} ${name})
  foreach(l ${visible})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/include/akm/${l} ${view}/${l} SYMBOLIC)
  endforeach()
  add_library(akm_${name} STATIC ${L_SOURCES})
  target_include_directories(akm_${name} PRIVATE ${CMAKE_BINARY_DIR}/layer-include/${name})
  # No build-tree INTERFACE include of include/: a higher layer linking this one must not
  # see the whole tree through it (the umbrella target `akm` publishes include/ to the
  # program and the tests). Installed, every layer finds the headers under include/.
  target_include_directories(akm_${name} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_include_directories(akm_${name} SYSTEM PUBLIC $<BUILD_INTERFACE:${RANDOM123_INCLUDE_DIR}>)
  target_link_libraries(akm_${name} PUBLIC Eigen3::Eigen Spectra::Spectra Boost::headers
    nlohmann_json::nlohmann_json fmt::fmt Threads::Threads)
  list(LENGTH AKM_LAYERS below)
  if(below GREATER 0)
    list(GET AKM_LAYERS -1 previous)
    target_link_libraries(akm_${name} PUBLIC akm_${previous})
  endif()
  set_target_properties(akm_${name} PROPERTIES EXPORT_NAME ${name})
  set(AKM_LAYERS ${visible} PARENT_SCOPE)
endfunction()

# The sources of one layer: src/<layer>/*.cpp (not recursive).
function(akm_layer_sources out layer)
  file(GLOB files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${layer}/*.cpp)
  set(${out} ${files} PARENT_SCOPE)
endfunction()
