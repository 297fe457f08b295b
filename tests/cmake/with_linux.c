/* with_linux.c - a consumer of accel::linux: the port fills an accel_port and closes cleanly
 * with no device opened (every bus callback then answers ACCEL_E_CLOSED). */
#include "accel.h"
#include "accel_linux.h"
#include <stdio.h>

int main(void)
{
    accel_linux lx;
    accel_port port;
    uint8_t b = 0;
    accel_status st = accel_linux_init(&lx);
    if (st == ACCEL_OK) st = accel_linux_port(&lx, &port);
    if (st == ACCEL_OK) st = accel_port_spi_transfer(&port, 0, &b, &b, 1, 0);
    accel_linux_close(&lx);
    printf("linux: spi on a closed port -> %s\n", accel_status_str(st));
    return st != ACCEL_E_CLOSED;
}
