/* accel_zephyr_config.h - accel.h's configuration from Kconfig. The module's CMakeLists.txt names
 * this file in ACCEL_CONFIG_HEADER for every file of the build, so the library, the port and the
 * application all see one configuration (Zephyr passes autoconf.h's CONFIG_ values to every
 * file). Each Kconfig option of ports/zephyr/Kconfig maps to one accel.h macro here. */
#ifndef ACCEL_ZEPHYR_CONFIG_H
#define ACCEL_ZEPHYR_CONFIG_H

/* sections: an option left off removes its section */
#ifndef CONFIG_ACCEL_TSP1
#define ACCEL_NO_TSP1
#endif
#ifndef CONFIG_ACCEL_EDGETPU
#define ACCEL_NO_EDGETPU
#endif
#ifndef CONFIG_ACCEL_REFSI
#define ACCEL_NO_REFSI
#endif
#ifndef CONFIG_ACCEL_ANE
#define ACCEL_NO_ANE
#endif
#ifndef CONFIG_ACCEL_MAC
#define ACCEL_NO_MAC
#endif

#ifndef CONFIG_ACCEL_STATUS_STRINGS
#define ACCEL_NO_STATUS_STRINGS
#endif

/* CRC-32 variant (the ACCEL_CRC32_* values are defined by accel.h, after this file: the macro
 * is only expanded where accel.h uses it) */
#if defined(CONFIG_ACCEL_CRC32_BITWISE)
#define ACCEL_CRC32_IMPL ACCEL_CRC32_BITWISE
#elif defined(CONFIG_ACCEL_CRC32_TABLE256)
#define ACCEL_CRC32_IMPL ACCEL_CRC32_TABLE256
#elif defined(CONFIG_ACCEL_CRC32_SLICE8)
#define ACCEL_CRC32_IMPL ACCEL_CRC32_SLICE8
#else /* CONFIG_ACCEL_CRC32_NIBBLE, the choice's default */
#define ACCEL_CRC32_IMPL ACCEL_CRC32_NIBBLE
#endif

/* tsp1 */
#ifdef CONFIG_ACCEL_TSP1_READ_CHUNK
#define ACCEL_TSP1_READ_CHUNK ((unsigned)CONFIG_ACCEL_TSP1_READ_CHUNK)
#endif
#ifndef CONFIG_ACCEL_TSP1_MODEL
#define ACCEL_TSP1_NO_MODEL
#endif

/* edgetpu */
#ifndef CONFIG_ACCEL_EDGETPU_DISASM
#define ACCEL_EDGETPU_NO_DISASM
#endif
#if !defined(CONFIG_ACCEL_EDGETPU_MODEL) && !defined(CONFIG_ACCEL_EDGETPU_DEVMODEL) /* old name */
#define ACCEL_EDGETPU_NO_MODEL
#endif

/* refsi, ane: the device models serve tests, not targets */
#ifndef CONFIG_ACCEL_REFSI_MODEL
#define ACCEL_REFSI_NO_MODEL
#endif
#ifndef CONFIG_ACCEL_ANE_MODEL
#define ACCEL_ANE_NO_MODEL
#endif

/* mac */
#ifndef CONFIG_ACCEL_MAC_FLOAT
#define ACCEL_MAC_NO_FLOAT
#endif
#ifdef CONFIG_ACCEL_MAC_FAST
#define ACCEL_MAC_FAST 1
#else
#define ACCEL_MAC_FAST 0
#endif

#endif
