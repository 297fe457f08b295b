/* accel_impl.c - accel.h's implementation as a translation unit of its own, for build systems
 * that compile it once into a library and link programs against it (the Makefile's
 * build/libaccel.a, CMake's accel::impl, PlatformIO). Configuration macros go on the compiler's
 * command line or into the file named by ACCEL_CONFIG_HEADER, the same for every file that
 * includes accel.h. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
