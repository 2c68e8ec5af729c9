#===-- AddKevin.cmake - one place for kevin's target conventions ---------===#
#
# kevin_add_library, kevin_add_tool and kevin_add_unittest set the include
# paths, warnings, output directories and the exception policy of a target.
# Exceptions are on by default because CLI11, toml++, nlohmann-json and
# LibTorch throw; code built on LLVM/Clang passes NO_EXCEPTIONS, as LLVM's own
# helpers would (-fno-exceptions). No exception may cross a library API.
#
#===----------------------------------------------------------------------===#

function(kevin_apply_conventions target no_exceptions)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  if(no_exceptions)
    target_compile_options(${target} PRIVATE -fno-exceptions)
  else()
    target_compile_options(${target} PRIVATE -fexceptions)
  endif()
endfunction()

# kevin_add_library(name [NO_EXCEPTIONS] src... LINK_LIBS lib...)
function(kevin_add_library name)
  cmake_parse_arguments(ARG "NO_EXCEPTIONS" "" "LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_include_directories(${name} PUBLIC
    ${KEVIN_SOURCE_DIR}/include ${KEVIN_BINARY_DIR}/include)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  kevin_apply_conventions(${name} "${ARG_NO_EXCEPTIONS}")
endfunction()

# kevin_add_tool(name [NO_EXCEPTIONS] src... LINK_LIBS lib...)
function(kevin_add_tool name)
  cmake_parse_arguments(ARG "NO_EXCEPTIONS" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  kevin_apply_conventions(${name} "${ARG_NO_EXCEPTIONS}")
  set_property(GLOBAL APPEND PROPERTY KEVIN_TOOLS ${name})
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()

# kevin_add_unittest(Area src... LINK_LIBS lib...): builds unittests/<Area>/<Area>Tests,
# which lit's GoogleTest format discovers by the "Tests" suffix.
function(kevin_add_unittest area)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  set(name ${area}Tests)
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} GTest::gtest_main)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${KEVIN_BINARY_DIR}/unittests/${area})
  kevin_apply_conventions(${name} OFF)
  set_property(GLOBAL APPEND PROPERTY KEVIN_UNITTESTS ${name})
endfunction()

# kevin_embed_files(<name>.inc BASE <dir> FILES <path>... [DELIMITER <tag>]
#                   [STRIP_EXTENSION])
# Writes <name>.inc in the current binary directory: one line
# `{"key", R"tag(text)tag"},` per file, its text the file's bytes as they are
# and its key the path relative to BASE (its name without the extension, with
# STRIP_EXTENSION). Editing a file re-runs CMake; the .inc is rewritten only
# when its text changed.
function(kevin_embed_files output)
  cmake_parse_arguments(ARG "STRIP_EXTENSION" "BASE;DELIMITER" "FILES" ${ARGN})
  if(NOT ARG_DELIMITER)
    set(ARG_DELIMITER KEVINH)
  endif()
  set(entries "")
  foreach(path ${ARG_FILES})
    set(absolute ${ARG_BASE}/${path})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${absolute})
    file(READ ${absolute} text)
    set(key ${path})
    if(ARG_STRIP_EXTENSION)
      get_filename_component(key ${path} NAME_WE)
    endif()
    string(APPEND entries
      "{\"${key}\", R\"${ARG_DELIMITER}(${text})${ARG_DELIMITER}\"},\n")
  endforeach()
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${output}.tmp "${entries}")
  configure_file(${CMAKE_CURRENT_BINARY_DIR}/${output}.tmp
    ${CMAKE_CURRENT_BINARY_DIR}/${output} COPYONLY)
endfunction()
