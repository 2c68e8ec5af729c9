# kevin — the user's entry point. Two commands matter:
#   make demo    the main job on the bundled defaults
#   make check   build everything and run every test (lit + GoogleTest)
# `make` alone installs missing Debian packages (utils/install-deps.sh) and builds.

BUILD_DIR ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc)

.PHONY: all deps configure build check demo clean

all: build

# Cheap when everything is present: the script asks dpkg and exits.
deps:
	@bash utils/install-deps.sh

$(BUILD_DIR)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS)

configure: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

check: build
	cmake --build $(BUILD_DIR) --target check-kevin

demo: build
	bash utils/demo.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
