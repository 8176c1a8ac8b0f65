# Sourced by the OpenCL CLI tests after KILN and TMP are set: the device they run on (OCLDEV:
# KILN_TEST_OPENCL_DEVICE, default opencl:0; the GPU host lists PoCL before the GPU), kiln's program
# cache off (as tests/CMakeLists.txt has it: the driver's cache keeps the builds, and on PoCL a
# binary for kiln's cache compiles every kernel of a program; a test of that cache names its own),
# and the skip (77) on a build or machine without OpenCL, or the failure where KILN_REQUIRE_OPENCL
# asks for a device (CI installs PoCL).
OCLDEV=${KILN_TEST_OPENCL_DEVICE:-opencl:0}
export KILN_OPENCL_CACHE=off
if ! "$KILN" version | grep -q '^opencl: on'; then
    echo "kiln built without OpenCL: skipped"
    exit 77
fi
if ! "$KILN" devices | grep -q "^$OCLDEV "; then
    [ -n "${KILN_REQUIRE_OPENCL:-}" ] && { echo "FAIL: no OpenCL device (KILN_REQUIRE_OPENCL)"; exit 1; }
    echo "no OpenCL device: skipped"
    exit 77
fi
