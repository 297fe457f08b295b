/* demo_common - the common pieces at work on the simulator port: CRC-32, a slot ring, a byte
 * FIFO, a register poll with a deadline, and a fault injected into an SPI transfer. */
#include "accel.h"
#include "accel_sim.h"
#include <stdio.h>

/* A toy device: one status register that becomes ready 30 ms after it is written, and an SPI
 * loopback that echoes what it receives. */
typedef struct {
    uint32_t status;
    uint32_t t, ready_at;
} toy;

static accel_status toy_rr(void *u, uint32_t off, uint32_t *v)
{
    toy *d = (toy *)u;
    (void)off;
    *v = d->t >= d->ready_at ? d->status | 1u : d->status;
    return ACCEL_OK;
}
static accel_status toy_rw(void *u, uint32_t off, uint32_t v)
{
    toy *d = (toy *)u;
    (void)off;
    d->status = v & ~1u;
    d->ready_at = d->t + 30;
    return ACCEL_OK;
}
static void toy_time(void *u, uint32_t ms) { ((toy *)u)->t += ms; }
static accel_status toy_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t n,
                            unsigned fl)
{
    size_t i;
    (void)u;
    (void)cs;
    (void)fl;
    for (i = 0; i < n; i++) rx[i] = tx[i];
    return ACCEL_OK;
}

/* Run a step that must succeed; on anything else say which and fail the demo. */
#define TRY(call)                                                                        \
    do {                                                                                 \
        accel_status try_st = (call);                                                    \
        if (try_st != ACCEL_OK) {                                                        \
            printf("%s: %s\n", #call, accel_status_str(try_st));                         \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

int main(void)
{
    uint8_t slots[4 * 4], fifo_buf[8], out[8], rx[9];
    accel_ring ring;
    accel_fifo fifo;
    accel_sim sim;
    accel_port model = {0};
    accel_sim_fault flip = {0};
    toy dev = {0, 0, 0};
    uint32_t v = 0, id;
    size_t got;
    accel_status st;

    printf("CRC-32 of \"123456789\" = 0x%08lX (check value 0xCBF43926)\n",
           (unsigned long)accel_crc32("123456789", 9));

    TRY(accel_ring_init(&ring, slots, sizeof slots, sizeof id));
    for (id = 1; accel_ring_push(&ring, &id) == ACCEL_OK; id++) {
    }
    printf("ring: %u slots filled, next push -> %s\n", (unsigned)accel_ring_count(&ring),
           accel_status_str(accel_ring_push(&ring, &id)));

    TRY(accel_fifo_init(&fifo, fifo_buf, sizeof fifo_buf));
    TRY(accel_fifo_write(&fifo, "hello", 5));
    st = accel_fifo_write(&fifo, "world", 5);
    printf("fifo: 5 bytes stored, 5 more -> %s (all-or-nothing)\n", accel_status_str(st));
    TRY(accel_fifo_read(&fifo, out, sizeof out, &got));
    printf("fifo: read back %u bytes \"%.*s\"\n", (unsigned)got, (int)got, (const char *)out);

    model.user = &dev;
    model.reg_read32 = toy_rr;
    model.reg_write32 = toy_rw;
    model.delay_ms = toy_time;
    model.spi_transfer = toy_spi;
    TRY(accel_sim_init(&sim));
    TRY(accel_sim_attach(&sim, &model));
    TRY(accel_port_reg_write32(&sim.port, 0, 0x10));
    st = accel_port_poll32(&sim.port, 0, 1, 1, 100, 5, &v);
    printf("sim: poll for ready -> %s after %lu ms (value 0x%lX)\n", accel_status_str(st),
           (unsigned long)sim.now, (unsigned long)v);
    TRY(accel_port_reg_write32(&sim.port, 0, 0x10));
    st = accel_port_poll32(&sim.port, 0, 1, 1, 20, 5, &v);
    printf("sim: poll with a 20 ms deadline -> %s\n", accel_status_str(st));

    flip.kind = ACCEL_SIM_FLIP;
    flip.ops = ACCEL_SIM_OP_SPI;
    flip.dir = ACCEL_SIM_FROM_DEVICE;
    flip.at = 2;
    flip.mask = 0x20;
    flip.count = 1;
    TRY(accel_sim_add_fault(&sim, &flip));
    /* a flipped bit is no transfer error: the bus does not know, only a CRC would */
    TRY(accel_port_spi_transfer(&sim.port, 0, (const uint8_t *)"abcdefgh", rx, 8, 0));
    rx[8] = 0;
    printf("sim: SPI loopback with a bit flip injected at byte 2: sent \"abcdefgh\", got \"%s\"\n",
           (const char *)rx);
    TRY(accel_port_spi_transfer(&sim.port, 0, (const uint8_t *)"abcdefgh", rx, 8, 0));
    printf("sim: same transfer again (fault spent): \"%s\", faults fired: %lu\n",
           (const char *)rx, (unsigned long)sim.faults_fired);
    printf("demo_common: ok\n");
    return 0;
}
