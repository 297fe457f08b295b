/* accel_lib.c - the library's C as the Python package compiles it: accel.h's implementation and
 * the sim port, in the package's one shared library with accel_py.c. */
#include "ports/impl/accel_impl.c"
#include "accel_sim.c"
