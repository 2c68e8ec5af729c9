#===-- KevinPrecompiledHeaders.cmake - third-party precompiled headers ---===#
#
# <ATen/ATen.h> and Clang's AST headers are a quarter of a million
# preprocessed lines; the heavy files of lib/Exec, lib/Bench and lib/Check
# spend most of their compile time parsing them again and again. A target
# parses them once into a precompiled header and its files that include them
# start from there. Only third-party headers are precompiled: seeing them
# early changes no file's meaning (no kevin macro or declaration is involved).
# KEVIN_PRECOMPILED_HEADERS=OFF turns all of it off.
#
# Loading one is not free (2-3 s of CPU for these, 10 s with pybind11/embed.h
# and torch's Python headers, whose definitions every file then compiles), so
# only the files that include the headers themselves get it, and pybind11
# stays out. GCC loads a precompiled header only into files compiled with the
# same options and command-line macros (-fPIC or not, -D...), so each target
# makes its own rather than reusing another's.
#
#===----------------------------------------------------------------------===#

option(KEVIN_PRECOMPILED_HEADERS
  "Precompile <ATen/ATen.h> and Clang's AST headers for the files that include them" ON)

# kevin_precompile_headers(target HEADERS <header>... SOURCES <src>...)
# precompiles the HEADERS, system-style names (ATen/ATen.h), for the SOURCES
# of target (as its own source list names them, in the calling directory);
# its other sources compile as before.
function(kevin_precompile_headers target)
  if(NOT KEVIN_PRECOMPILED_HEADERS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "HEADERS;SOURCES" ${ARGN})
  list(TRANSFORM ARG_HEADERS PREPEND "<")
  list(TRANSFORM ARG_HEADERS APPEND ">")
  target_precompile_headers(${target} PRIVATE ${ARG_HEADERS})
  get_target_property(others ${target} SOURCES)
  list(REMOVE_ITEM others ${ARG_SOURCES})
  if(others)
    set_source_files_properties(${others} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()
