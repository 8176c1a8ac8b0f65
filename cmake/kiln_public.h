/* Force-included into every C file of libkiln (src/CMakeLists.txt). The library is compiled with
 * -fvisibility=hidden; declaring include/kiln.h's functions here, under default visibility, makes
 * exactly the public API visible, since a function keeps the visibility of its first declaration.
 * kiln.h's include guard makes its later #includes no-ops. */
#pragma GCC visibility push(default)
#include "kiln.h"
#pragma GCC visibility pop
