#===-- KevinDependencies.cmake - find what kevin builds against ----------===#
#
# Always needed (header-only or small): nlohmann-json, toml++, CLI11, OpenSSL.
# Optional components, each AUTO/ON/OFF (see the top-level CMakeLists.txt):
#   Clang 14  -> KEVIN_HAS_CLANG   (find_package(LLVM/Clang) under /usr/lib/llvm-14)
#   LibTorch  -> KEVIN_HAS_TORCH   (the torch seen by KEVIN_PYTHON, plus CPython)
#   nvcc      -> KEVIN_HAS_CUDA
# Test tools: lit.py and FileCheck from llvm-14-tools (KEVIN_LIT, KEVIN_LLVM_TOOLS_DIR).
#
#===----------------------------------------------------------------------===#

find_package(nlohmann_json 3 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(Threads REQUIRED)

# toml++ and CLI11 are header-only; the GPU machine lacks toml++'s CMake
# package, so accept a plain include directory as well (KEVIN_EXTRA_INCLUDE_DIR).
set(KEVIN_EXTRA_INCLUDE_DIR "" CACHE PATH "Extra directory holding toml++/ or CLI/ headers")
find_path(KEVIN_TOMLPP_INCLUDE_DIR toml++/toml.h HINTS ${KEVIN_EXTRA_INCLUDE_DIR})
find_path(KEVIN_CLI11_INCLUDE_DIR CLI/CLI.hpp HINTS ${KEVIN_EXTRA_INCLUDE_DIR})
if(NOT KEVIN_TOMLPP_INCLUDE_DIR OR NOT KEVIN_CLI11_INCLUDE_DIR)
  message(FATAL_ERROR "kevin needs toml++ and CLI11 headers: run utils/install-deps.sh "
                      "(or pass -DKEVIN_EXTRA_INCLUDE_DIR=<dir holding toml++/ and CLI/>)")
endif()
add_library(kevin_tomlplusplus INTERFACE)
target_include_directories(kevin_tomlplusplus SYSTEM INTERFACE ${KEVIN_TOMLPP_INCLUDE_DIR})
# Errors come back as values (toml::parse_result), never as exceptions.
target_compile_definitions(kevin_tomlplusplus INTERFACE TOML_EXCEPTIONS=0)
add_library(kevin_cli11 INTERFACE)
target_include_directories(kevin_cli11 SYSTEM INTERFACE ${KEVIN_CLI11_INCLUDE_DIR})

# The Python interpreter that sees torch: Debian's /usr/bin/python3 first (the
# python3 on a developer's PATH may be a pyenv build without torch), then PATH.
function(kevin_pick_python out)
  find_program(_kevin_path_python NAMES python3 NO_CACHE)
  foreach(candidate /usr/bin/python3 ${_kevin_path_python})
    if(EXISTS ${candidate})
      execute_process(COMMAND ${candidate} -c "import torch"
        RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(${out} ${candidate} PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
  if(EXISTS /usr/bin/python3)
    set(${out} /usr/bin/python3 PARENT_SCOPE)
  else()
    set(${out} ${_kevin_path_python} PARENT_SCOPE)
  endif()
endfunction()
if(NOT KEVIN_PYTHON)
  kevin_pick_python(_kevin_python)
  set(KEVIN_PYTHON ${_kevin_python} CACHE FILEPATH "Python interpreter that imports torch")
endif()

# kevin_component(NAME found-var) turns AUTO/ON/OFF plus a probe into KEVIN_HAS_<NAME>.
macro(kevin_resolve_component name found)
  if(KEVIN_ENABLE_${name} STREQUAL "OFF" OR NOT KEVIN_ENABLE_${name})
    set(KEVIN_HAS_${name} OFF)
  elseif(${found})
    set(KEVIN_HAS_${name} ON)
  elseif(KEVIN_ENABLE_${name} STREQUAL "AUTO")
    message(STATUS "kevin: ${name} not found; its parts are skipped")
    set(KEVIN_HAS_${name} OFF)
  else()
    message(FATAL_ERROR "kevin: KEVIN_ENABLE_${name}=${KEVIN_ENABLE_${name}} but it was not found")
  endif()
endmacro()

#--- Clang/LLVM 14 -----------------------------------------------------------
set(_kevin_clang_found OFF)
if(NOT KEVIN_ENABLE_CLANG STREQUAL "OFF" AND KEVIN_ENABLE_CLANG)
  find_package(LLVM 14 CONFIG QUIET HINTS /usr/lib/llvm-14/lib/cmake/llvm)
  if(LLVM_FOUND)
    find_package(Clang CONFIG QUIET HINTS /usr/lib/llvm-14/lib/cmake/clang)
  endif()
  if(LLVM_FOUND AND Clang_FOUND)
    set(_kevin_clang_found ON)
  endif()
endif()
kevin_resolve_component(CLANG _kevin_clang_found)
if(KEVIN_HAS_CLANG)
  set(KEVIN_CLANG_VERSION ${LLVM_PACKAGE_VERSION})
  set(KEVIN_CLANG_RESOURCE_DIR ${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION})
endif()

#--- LibTorch + CPython ------------------------------------------------------
set(_kevin_torch_found OFF)
if(NOT KEVIN_ENABLE_TORCH STREQUAL "OFF" AND KEVIN_ENABLE_TORCH)
  execute_process(
    COMMAND ${KEVIN_PYTHON} -c "import torch, torch.utils; print(torch.utils.cmake_prefix_path); print(torch.__version__)"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0)
    string(REPLACE "\n" ";" _out "${_out}")
    list(GET _out 0 _torch_prefix)
    list(GET _out 1 KEVIN_TORCH_VERSION)
    list(APPEND CMAKE_PREFIX_PATH ${_torch_prefix})
    set(Python3_EXECUTABLE ${KEVIN_PYTHON})
    find_package(Python3 COMPONENTS Interpreter Development.Embed QUIET)
    find_package(Torch QUIET)
    if(Torch_FOUND AND Python3_Development.Embed_FOUND)
      find_library(KEVIN_TORCH_PYTHON_LIBRARY torch_python HINTS ${TORCH_INSTALL_PREFIX}/lib)
      if(KEVIN_TORCH_PYTHON_LIBRARY)
        set(_kevin_torch_found ON)
      endif()
    endif()
  endif()
endif()
kevin_resolve_component(TORCH _kevin_torch_found)
if(KEVIN_HAS_TORCH)
  # LibTorch plus CPython with torch's Python bindings, for embedding.
  add_library(kevin_torch INTERFACE)
  target_link_libraries(kevin_torch INTERFACE ${TORCH_LIBRARIES}
    ${KEVIN_TORCH_PYTHON_LIBRARY} Python3::Python)
  separate_arguments(_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(kevin_torch INTERFACE ${_torch_flags})
  set(KEVIN_PYTHON_VERSION ${Python3_VERSION})
endif()
if(NOT KEVIN_PYTHON_VERSION)
  execute_process(COMMAND ${KEVIN_PYTHON} -c "import platform; print(platform.python_version())"
    OUTPUT_VARIABLE KEVIN_PYTHON_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()

#--- Embedded CPython (kevin-check's Python parser; no torch needed) ----------
# The torch branch above finds it when torch is there; otherwise find it alone.
if(NOT TARGET Python3::Python)
  set(Python3_EXECUTABLE ${KEVIN_PYTHON})
  find_package(Python3 COMPONENTS Interpreter Development.Embed QUIET)
endif()
if(TARGET Python3::Python)
  set(KEVIN_HAS_PYTHON ON)
else()
  set(KEVIN_HAS_PYTHON OFF)
  message(STATUS "kevin: CPython development files not found; lib/Task and kevin-check are skipped")
endif()

#--- nvcc ----------------------------------------------------------------------
set(_kevin_cuda_found OFF)
if(NOT KEVIN_ENABLE_CUDA STREQUAL "OFF" AND KEVIN_ENABLE_CUDA)
  find_program(KEVIN_NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
  if(KEVIN_NVCC)
    execute_process(COMMAND ${KEVIN_NVCC} --version OUTPUT_VARIABLE _nvcc_out ERROR_QUIET)
    if(_nvcc_out MATCHES "release ([0-9]+\\.[0-9]+)")
      set(KEVIN_NVCC_VERSION ${CMAKE_MATCH_1})
      set(_kevin_cuda_found ON)
    endif()
  endif()
endif()
kevin_resolve_component(CUDA _kevin_cuda_found)

#--- libcurl (the OpenAI-compatible policy client) ---------------------------
find_package(CURL QUIET)
set(KEVIN_HAS_CURL ${CURL_FOUND})

#--- cpp-httplib (kevin serve) ------------------------------------------------
# Debian's libcpp-httplib-dev splits the library into a header of
# declarations and libcpp-httplib.so, built with OpenSSL, zlib and Brotli
# support: the same three definitions must be on every file that includes
# the header. The GPU machine gets both carried (KEVIN_EXTRA_INCLUDE_DIR and
# the library beside it).
find_path(KEVIN_HTTPLIB_INCLUDE_DIR httplib.h HINTS ${KEVIN_EXTRA_INCLUDE_DIR})
find_library(KEVIN_HTTPLIB_LIBRARY NAMES cpp-httplib
  HINTS ${KEVIN_EXTRA_INCLUDE_DIR} ${KEVIN_EXTRA_INCLUDE_DIR}/lib)
if(KEVIN_HTTPLIB_INCLUDE_DIR AND KEVIN_HTTPLIB_LIBRARY)
  set(KEVIN_HAS_HTTPLIB ON)
  add_library(kevin_httplib INTERFACE)
  target_include_directories(kevin_httplib SYSTEM INTERFACE ${KEVIN_HTTPLIB_INCLUDE_DIR})
  target_compile_definitions(kevin_httplib INTERFACE
    CPPHTTPLIB_OPENSSL_SUPPORT CPPHTTPLIB_ZLIB_SUPPORT CPPHTTPLIB_BROTLI_SUPPORT)
  target_link_libraries(kevin_httplib INTERFACE ${KEVIN_HTTPLIB_LIBRARY} Threads::Threads)
  # A carried library's own dependencies (Brotli) lie beside it.
  get_filename_component(_kevin_httplib_dir ${KEVIN_HTTPLIB_LIBRARY} DIRECTORY)
  target_link_options(kevin_httplib INTERFACE "LINKER:-rpath-link,${_kevin_httplib_dir}")
  set(KEVIN_HTTPLIB_LIBRARIES kevin_httplib)
else()
  set(KEVIN_HAS_HTTPLIB OFF)
  message(STATUS "kevin: cpp-httplib not found; kevin serve is skipped (utils/install-deps.sh installs it)")
endif()

#--- Test tools ------------------------------------------------------------------
find_program(KEVIN_LIT NAMES lit.py lit llvm-lit
  HINTS /usr/lib/llvm-14/build/utils/lit /usr/lib/llvm-14/bin)
find_program(KEVIN_FILECHECK FileCheck HINTS /usr/lib/llvm-14/bin)
if(KEVIN_FILECHECK)
  get_filename_component(KEVIN_LLVM_TOOLS_DIR ${KEVIN_FILECHECK} DIRECTORY)
endif()
find_package(GTest QUIET)
