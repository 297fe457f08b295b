/* header_only.c - a consumer of accel::accel alone: it compiles the implementation itself. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>

int main(void)
{
    /* the CRC-32 check value of "123456789" (IEEE 802.3 / zlib) is cbf43926 */
    unsigned long crc = (unsigned long)accel_crc32("123456789", 9);
    printf("header-only: accel %s, crc32 %08lx\n", ACCEL_VERSION_STRING, crc);
    return crc != 0xcbf43926UL;
}
