# Thin wrapper over CMake: `make` builds build/kiln, `make check` runs every test, `make demo`
# mines the demo block.
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all configure check demo clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

check: all
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

demo: all
	./$(BUILD)/kiln mine --demo

clean:
	rm -rf $(BUILD)
