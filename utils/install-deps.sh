#!/usr/bin/env bash
#===-- install-deps.sh - install the Debian packages kevin builds against --===#
#
# Idempotent: asks dpkg which of the packages below are missing, installs only
# those (one apt-get call), and says what it installs. Exits 0 with one line
# when everything is present. Needs root (or sudo) only when something is
# missing. Set KEVIN_DEPS_DRY_RUN=1 to print the plan without installing.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

# Each package and the reason kevin needs it.
PACKAGES=(
  build-essential         # g++ and make
  cmake                   # the build system
  ninja-build             # the CMake generator used by the Makefile
  pkg-config              # locating libcurl
  llvm-14-dev             # LLVM CMake config (lib/Check)
  libclang-14-dev         # Clang libTooling headers and CMake config (lib/Check)
  libclang-cpp14-dev      # libclang-cpp.so that libTooling links
  clang-14                # the clang resource headers kevin-check parses with
  llvm-14-tools           # lit, FileCheck, not, count, split-file for the test suite
  python3                 # Debian's /usr/bin/python3, the one that sees python3-torch
  python3-dev             # Python.h and libpython3.11.so for the embedded interpreter
  python3-torch           # PyTorch 1.13 for /usr/bin/python3
  libtorch-dev            # LibTorch C++ headers and CMake config
  pybind11-dev            # pybind11 headers: candidate extensions and the embedded worker
  libcli11-dev            # command-line parsing
  libtomlplusplus-dev     # TOML configuration files
  nlohmann-json3-dev      # JSON Lines records
  libcurl4-openssl-dev    # the OpenAI-compatible policy client
  libcpp-httplib-dev      # kevin serve's HTTP server
  libssl-dev              # SHA-256 for content-addressed cache keys
  libgtest-dev            # unit tests
  chromium                # headless browser: the lit test that renders kevin report's HTML page
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}"
if [[ "${KEVIN_DEPS_DRY_RUN:-0}" == 1 ]]; then
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then
    SUDO=sudo
  else
    echo "install-deps: error: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
    exit 2
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
