#!/usr/bin/env bash
# The fixture the OpenCL tests wait for (tests/CMakeLists.txt): compiles kiln's OpenCL program once
# on the test device, into the caches every test shares (XDG_CACHE_HOME, POCL_CACHE_DIR: the build
# tree's Testing/cache). kiln's kernels are one program, which PoCL takes one to two CPU minutes to
# compile on a CI core; without this, OpenCL tests started side by side each compiled it. Nothing
# to do (exit 0) in a build without OpenCL or on a machine without a device: the tests say so.
# Usage: opencl_program_cache.sh KILN
set -u
dev=${KILN_TEST_OPENCL_DEVICE:-opencl:0}
if ! "$1" version | grep -q '^opencl: on' || ! "$1" devices | grep -q "^$dev "; then
    echo "no OpenCL device $dev: nothing to compile"
    exit 0
fi
# one launch on the device builds the whole program (or loads it from the cache): a search of the
# genesis block's own nonce. It warms a cache and tests nothing: in the sanitizer build its exit
# skips LeakSanitizer, whose stop-the-world crashed there (signal 11 in its tracer) among PoCL's
# compiler threads after the program was built; the OpenCL tests themselves keep it.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$1" mine --device "$dev" --quiet --start 2083236893 --count 1 --header \
    0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d00000000 ||
    exit 1
