/* with_library.c - a consumer of the compiled libraries (accel::impl, accel::sim): no
 * ACCEL_IMPLEMENTATION here. A toy device that is ready 30 ms after start, polled through the
 * simulator every 5 ms with a 100 ms deadline, as in the README's example. */
#include "accel.h"
#include "accel_sim.h"
#include <stdio.h>

static uint32_t t;
static accel_status rd(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    (void)off;
    *v = t >= 30;
    return ACCEL_OK;
}
static void tick(void *u, uint32_t ms)
{
    (void)u;
    t += ms;
}

int main(void)
{
    accel_sim sim;
    accel_port model = {0};
    accel_status st;
    model.reg_read32 = rd;
    model.delay_ms = tick;
    st = accel_sim_init(&sim);
    if (st == ACCEL_OK) st = accel_sim_attach(&sim, &model);
    if (st == ACCEL_OK) st = accel_port_poll32(&sim.port, 0x0, 1, 1, 100, 5, NULL);
    printf("library: poll %s at %u ms, crc32 %08lx\n", accel_status_str(st), (unsigned)t,
           (unsigned long)accel_crc32("123456789", 9));
    return st != ACCEL_OK || t < 30 || accel_crc32("123456789", 9) != 0xcbf43926UL;
}
