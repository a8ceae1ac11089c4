# Backends of real runtimes are plugins: shared objects the Registry opens only when a case
# needs them (docs/backends.md says why: runtimes that export the same symbols, ONNX Runtime's
# XNNPACK and ExecuTorch's, must never share a process's symbol namespace).
#
#   edgebench_add_backend_plugin(NAME <name>
#                                FACTORY <function> DESCRIBE <function> HEADER <header>
#                                SOURCES <source>...
#                                [LIBRARIES <library or target>...]
#                                [INCLUDE_DIRECTORIES <directory>...])
#
# NAME is the backend's registry name (the `ort` of `ort:cpu`); FACTORY the function in
# namespace edgebench that returns std::unique_ptr<Backend>, and DESCRIBE the one that returns
# its BackendDescription (what the plugin says of itself before the backend is created: the
# backend's one declaration), both declared in HEADER (a path relative to src/, e.g.
# backends/ort/ort_backend.h). LIBRARIES are the runtime's libraries
# (linked to the plugin only; edgebench_core is always linked); INCLUDE_DIRECTORIES extra
# header directories (taken as system headers).
#
# Makes two targets:
#   edgebench_backend_<name>          the plugin, ${EDGEBENCH_BACKEND_PLUGIN_DIR}/
#                                     libedgebench_backend_<name>.so, built with `edgebench`
#   edgebench_backend_<name>_objects  the backend's compiled sources, for tests that call its
#                                     classes directly. A test binary that links these loads
#                                     the runtime without RTLD_DEEPBIND: never link two
#                                     backends whose runtimes clash (ORT and ExecuTorch) into
#                                     one test binary; give such a backend a test binary of its
#                                     own, or test it through the Registry (which opens plugins).
# Call it after add_executable(edgebench).
function(edgebench_add_backend_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;FACTORY;DESCRIBE;HEADER" "SOURCES;LIBRARIES;INCLUDE_DIRECTORIES")
  foreach(required NAME FACTORY DESCRIBE HEADER SOURCES)
    if(NOT ARG_${required})
      message(FATAL_ERROR "edgebench_add_backend_plugin: ${required} is required (see cmake/backend_plugin.cmake)")
    endif()
  endforeach()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "edgebench_add_backend_plugin(${ARG_NAME}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET edgebench)
    message(FATAL_ERROR "edgebench_add_backend_plugin(${ARG_NAME}): call it after add_executable(edgebench)")
  endif()
  set(objects edgebench_backend_${ARG_NAME}_objects)
  set(plugin edgebench_backend_${ARG_NAME})

  # Compiled once, for the plugin and for the tests. Hidden visibility: the plugin exports its
  # entry and nothing else, so none of its symbols can be bound by another library.
  add_library(${objects} OBJECT ${ARG_SOURCES})
  set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${objects} PUBLIC edgebench_core ${ARG_LIBRARIES})
  if(ARG_INCLUDE_DIRECTORIES)
    target_include_directories(${objects} SYSTEM PUBLIC ${ARG_INCLUDE_DIRECTORIES})
  endif()

  set(entry ${CMAKE_CURRENT_BINARY_DIR}/generated/backends/${ARG_NAME}_plugin_entry.cc)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/backend_plugin_entry.cc.in ${entry} @ONLY)
  add_library(${plugin} MODULE ${entry})
  set_target_properties(${plugin} PROPERTIES CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON
                        LIBRARY_OUTPUT_DIRECTORY ${EDGEBENCH_BACKEND_PLUGIN_DIR})
  target_link_libraries(${plugin} PRIVATE ${objects})
  # Every symbol resolved at link time (the core and the runtime are DT_NEEDED, nothing is
  # expected from the executable), except under sanitizers, whose runtime the executable brings.
  if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    target_link_options(${plugin} PRIVATE LINKER:-z,defs)
  endif()
  # `edgebench` (what scripts/demo builds) builds every plugin too.
  add_dependencies(edgebench ${plugin})
endfunction()
