/* accel_impl_part.c - one part of accel.h's implementation, for a library compiled as one
 * object per part, in parallel, where a change recompiles only its part (the Makefile's
 * build/libaccel.a). Compiled once per part with ACCEL_PART_COMMON, ACCEL_PART_TSP1,
 * ACCEL_PART_EDGETPU, ACCEL_PART_REFSI, ACCEL_PART_ANE, ACCEL_PART_MAC or ACCEL_PART_TFLITE:
 * every unit declares everything, and compiles its own part's code only (the head comment of
 * accel.h's implementation, @config, says how). The objects of all seven parts together are
 * what ports/impl/accel_impl.c is as one; configuration macros go on the command line (or into
 * ACCEL_CONFIG_HEADER) the same for every part. */
#include "accel.h" /* every declaration */
#ifdef ACCEL_PART_COMMON
/* common alone: every section left out of this unit's implementation */
#ifndef ACCEL_NO_TSP1
#define ACCEL_NO_TSP1
#endif
#ifndef ACCEL_NO_EDGETPU
#define ACCEL_NO_EDGETPU
#endif
#ifndef ACCEL_NO_REFSI
#define ACCEL_NO_REFSI
#endif
#ifndef ACCEL_NO_ANE
#define ACCEL_NO_ANE
#endif
#ifndef ACCEL_NO_MAC
#define ACCEL_NO_MAC
#endif
#ifndef ACCEL_NO_TFLITE
#define ACCEL_NO_TFLITE
#endif
#else
/* one section: common's external definitions are the common part's */
#define ACCEL_IMPL_NO_COMMON
#if !defined(ACCEL_PART_TSP1) && !defined(ACCEL_NO_TSP1)
#define ACCEL_NO_TSP1
#endif
#if !defined(ACCEL_PART_EDGETPU) && !defined(ACCEL_NO_EDGETPU)
#define ACCEL_NO_EDGETPU
#endif
#if !defined(ACCEL_PART_REFSI) && !defined(ACCEL_NO_REFSI)
#define ACCEL_NO_REFSI
#endif
#if !defined(ACCEL_PART_ANE) && !defined(ACCEL_NO_ANE)
#define ACCEL_NO_ANE
#endif
#if !defined(ACCEL_PART_MAC) && !defined(ACCEL_NO_MAC)
#define ACCEL_NO_MAC
#endif
#if !defined(ACCEL_PART_TFLITE) && !defined(ACCEL_NO_TFLITE)
#define ACCEL_NO_TFLITE
#endif
#endif
#define ACCEL_IMPLEMENTATION
#include "accel.h"
