/* Stand-in for <zephyr/version.h>, which a Zephyr build generates from its VERSION file: the
 * release as one number, and the macro that builds one. The stand-ins follow Zephyr 4.3.0; a
 * check compiles as an older release with -DZEPHYR_VERSION_CODE=... (4.1.0: 0x040100), which
 * also switches the stand-in SPI_DT_SPEC_GET to that release's arity.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_VERSION_H
#define ZEPHYR_STANDIN_VERSION_H

#define ZEPHYR_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#ifndef ZEPHYR_VERSION_CODE
#define ZEPHYR_VERSION_CODE 0x040300 /* 4.3.0 */
#endif

#endif
