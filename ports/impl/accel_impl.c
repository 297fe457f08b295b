/* accel_impl.c - accel.h's implementation as a translation unit of its own, for build systems
 * that compile it once into a library and link programs against it (the Makefile's
 * build/libaccel.a, CMake's accel::impl, PlatformIO's library.json). Configuration macros go on
 * the compiler's command line or into the file named by ACCEL_CONFIG_HEADER, the same for every
 * file that includes accel.h. */
/* On Arduino (PlatformIO's library.json puts ports/arduino on the include path), the Arduino
 * library's choices: see that header (on AVR, models in flash and no status strings). */
#ifdef ARDUINO
#include "accel_arduino_config.h"
#endif
/* On AVR constant strings live in RAM, where the status strings would not fit an Uno's 2 KB:
 * accel_status_str() returns "" there (the Arduino port prints the names from flash). */
#if defined(__AVR__) && !defined(ACCEL_NO_STATUS_STRINGS)
#define ACCEL_NO_STATUS_STRINGS
#endif
#define ACCEL_IMPLEMENTATION
#include "accel.h"
