# Thin wrapper over CMake:
#   make                          the library (libkiln.so, libkiln.a) and the CLI, build/kiln
#   make check                    builds the tests and runs every one (CTest)
#   make install PREFIX=/opt/kiln installs (default PREFIX /usr/local; DESTDIR honoured)
#   make deb                      the Debian packages, build-deb/{libkiln0,libkiln-dev,kiln}_<version>-1_<arch>.deb
#   make demo                     mines the demo block
# Quiet by default: configure prints a summary only and the build its warnings and errors; V=1
# shows every step and compiler command. CMAKE_FLAGS passes options to the first configure, e.g.
# CMAKE_FLAGS=-DKILN_CUDA=OFF (README, "Build options").
BUILD ?= build
DEB_BUILD ?= build-deb
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local

ifeq ($(V),1)
  QUIET_CONFIGURE :=
  QUIET_BUILD := --verbose
else
  QUIET_CONFIGURE := -DCMAKE_MESSAGE_LOG_LEVEL=NOTICE -DCMAKE_RULE_MESSAGES=OFF
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
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# A build of its own, configured for /usr (multiarch library directory, no RPATH) without the tests;
# Debian's zsh reads vendor completions from share/zsh/vendor-completions, not site-functions.
# CPack writes three packages (cmake/KilnPackage.cmake): libkiln0, libkiln-dev and kiln.
deb:
	@test -f $(DEB_BUILD)/CMakeCache.txt || cmake -S . -B $(DEB_BUILD) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_INSTALL_PREFIX=/usr -DKILN_TESTS=OFF -DKILN_ZSH_COMPLETION_DIR=share/zsh/vendor-completions \
	    $(QUIET_CONFIGURE) $(CMAKE_FLAGS)
	cmake --build $(DEB_BUILD) -j $(JOBS) $(QUIET_BUILD)
	rm -f $(DEB_BUILD)/*.deb
	cd $(DEB_BUILD) && cpack -G DEB $(if $(filter 1,$(V)),,>/dev/null)
	@ls -1 $(DEB_BUILD)/*.deb

demo: all
	./$(BUILD)/kiln mine --demo

clean:
	rm -rf $(BUILD) $(DEB_BUILD)
