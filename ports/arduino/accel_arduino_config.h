/* accel_arduino_config.h - the choices the Arduino library compiles accel.h's implementation
 * with (its src/accel_impl.c includes this first) and that sketches see through
 * accel_arduino.h. Plain C: the implementation is a C file. An Arduino library cannot take -D
 * flags from a sketch, so to change a choice pass the macro to the whole build (the C and the
 * C++ compiler alike: a platform.local.txt beside the core's platform.txt with
 * compiler.c.extra_flags=... and compiler.cpp.extra_flags=..., arduino-cli's
 * --build-property, PlatformIO's build_flags), or edit this file in the installed library.
 *
 * On AVR only (other boards read flash as memory and keep accel's defaults):
 * - ACCEL_NO_STATUS_STRINGS: constant strings live in RAM there, where the status strings would
 *   not fit an Uno's 2 KB; accel_arduino_print_status() prints the names from flash.
 * - Models in flash: the tflite section reads every model it is given (its header, tensors and
 *   weights) through memcpy_P, so EVERY MODEL GIVEN TO accel_tflite_open MUST BE IN PROGMEM
 *   (a model in RAM reads as whatever flash holds at that address). A model of a few KB fits
 *   no AVR's RAM beside the runner anyway. On a Mega, memcpy_P reaches the first 64 KB of
 *   flash, where PROGMEM data goes. What accel.h does with it (ACCEL_FB_COPY): the edgetpu
 *   section leaves the build (its package reader reads memory directly), and an operator whose
 *   constant input only RAM can feed (SVDF and LSTM weights, a constant ADD/MUL operand) is
 *   refused with ACCEL_E_UNSUPPORTED. ACCEL_ARDUINO_MODEL_IN_RAM turns this off (models in
 *   RAM, as on every other board); ACCEL_ARDUINO_MODEL_PROGMEM tells a sketch which way it is
 *   (1: in flash).
 * - Operators: on parts with 64 KB of flash or less (Uno, Nano, Leonardo) the tflite section
 *   keeps only FULLY_CONNECTED (about 23 KB of the Uno's 32; every operator takes some 70 KB),
 *   and a model with another operator is refused at init with ACCEL_E_UNSUPPORTED (the
 *   operator's code in accel_tflite.bad_code). Define ACCEL_TFLITE_OPS (an OR of
 *   ACCEL_TFLITE_K_*) for another set. Larger parts (Mega) keep every operator. */
#ifndef ACCEL_ARDUINO_CONFIG_H
#define ACCEL_ARDUINO_CONFIG_H
#ifdef __AVR__
#include <avr/io.h>
#include <avr/pgmspace.h>
#ifndef ACCEL_NO_STATUS_STRINGS
#define ACCEL_NO_STATUS_STRINGS
#endif
#if !defined(ACCEL_ARDUINO_MODEL_IN_RAM) && !defined(ACCEL_FB_COPY)
#define ACCEL_FB_COPY(dst, src, n) memcpy_P((dst), (src), (n))
#endif
#if !defined(ACCEL_ARDUINO_MODEL_IN_RAM)
#define ACCEL_ARDUINO_MODEL_PROGMEM 1
#endif
#if !defined(ACCEL_TFLITE_OPS) && FLASHEND <= 0xFFFF
#define ACCEL_TFLITE_OPS 0x0001UL /* ACCEL_TFLITE_K_FULLY_CONNECTED */
#endif
#endif
#ifndef ACCEL_ARDUINO_MODEL_PROGMEM
#define ACCEL_ARDUINO_MODEL_PROGMEM 0
#endif
#endif
