# Thin wrapper over CMake:
#   make                          the library (libkiln.so, libkiln.a) and the CLI, build/kiln
#   make check                    builds the tests and runs them (CTest), all but the label long
#                                 (ctest --test-dir build -L long runs those; docs/DEVELOPMENT.md),
#                                 CHECK_JOBS slots at once: two a core, a CPU-bound test taking two
#                                 (tests/CMakeLists.txt's PROCESSORS), one that mostly waits one
#   make install PREFIX=/opt/kiln installs (default PREFIX /usr/local; DESTDIR honoured)
#   make deb                      the Debian packages of that build, build-deb/{libkiln0,libkiln-dev,kiln}_<version>-1_<arch>.deb
#   make demo                     mines the demo block
# Quiet by default: configure prints a summary only, the build one line per file it compiles (so a
# long CUDA build is never silent) and its warnings and errors; V=1 shows every compiler command. CMAKE_FLAGS passes options to the first configure, e.g.
# CMAKE_FLAGS=-DKILN_CUDA=OFF (docs/PACKAGING.md, "Build options").
BUILD ?= build
DEB_DIR ?= build-deb
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CHECK_JOBS ?= $(shell echo $$((2 * $(JOBS))))
PREFIX ?= /usr/local

ifeq ($(V),1)
  QUIET_CONFIGURE :=
  QUIET_BUILD := --verbose
else
  QUIET_CONFIGURE := -DCMAKE_MESSAGE_LOG_LEVEL=NOTICE
  QUIET_BUILD :=
  MAKEFLAGS += --no-print-directory
endif

.PHONY: all configure check install deb demo clean

all: configure
	cmake --build $(BUILD) -j $(JOBS) $(QUIET_BUILD)

configure:
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(QUIET_CONFIGURE) $(CMAKE_FLAGS)

check: all
	cmake --build $(BUILD) -j $(JOBS) --target kiln_tests $(QUIET_BUILD)
	ctest --test-dir $(BUILD) --output-on-failure -j $(CHECK_JOBS) -LE long

install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# The packages of $(BUILD) itself, not of a build of their own: cmake/deb/make-deb.sh reconfigures
# it for /usr (multiarch library directory, no RPATH; Debian's zsh reads vendor completions from
# share/zsh/vendor-completions, not site-functions) without recompiling anything, runs CPack into
# $(DEB_DIR) and configures it back. CPack writes three packages (cmake/KilnPackage.cmake):
# libkiln0, libkiln-dev and kiln. A build made for packages alone: make deb BUILD=build-release.
deb: all
	@JOBS=$(JOBS) bash cmake/deb/make-deb.sh "$(BUILD)" "$(DEB_DIR)" $(if $(filter 1,$(V)),-v)

demo: all
	./$(BUILD)/kiln mine --demo

clean:
	rm -rf $(BUILD) $(DEB_DIR)
