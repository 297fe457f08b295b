/* test_tsp1_i2c.c - the invented I2C transaction format, compiled only with ACCEL_TSP1_I2C (the
 * chip speaks SPI only today; test_tsp1_driver.c checks that without the flag bus.i2c is refused).
 * Commands that fit one I2C write work end to end; a longer one is refused unsent; a secure
 * update, whose chunk commands never fit, is refused before anything reaches the bus. */
#define ACCEL_TSP1_I2C 1
/* only the tsp1 section (and common): the other sections are not needed, and their absence
   keeps this sanitized build short */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "tsp1_rig.h"

static unsigned i2c_calls, spi_calls, i2c_longest;
static void count(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op == ACCEL_SIM_OP_I2C) {
        i2c_calls++;
        if (ev->len > i2c_longest) i2c_longest = (unsigned)ev->len;
    }
    if (ev->op == ACCEL_SIM_OP_SPI) spi_calls++;
}

static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    (void)off;
    memset(dst, 0, n);
    return ACCEL_OK;
}

static void test_i2c_session(void)
{
    uint8_t out[8], big[60], mb[4];
    size_t len;
    uint8_t n;
    setup(256, 128, 2, 1, 8, 1);
    R.s.bus.i2c = 1;
    R.s.bus.addr = 0x20;
    accel_sim_set_trace(&R.sim, count, NULL);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "i2c", 3, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK_EQ(len, 3);
    CHECK_MEM(out, "i2c", 3);
    CHECK_ST(accel_tsp1_nn_scan(&R.s, &n, 100), ACCEL_OK);
    CHECK_EQ(n, 2);
    /* NN_START and its marker: 28 bytes, one write */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, mask4(mb, 2), 4, NULL, 0, NULL, 100),
             ACCEL_OK);
    CHECK_EQ(R.m.state[1], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(spi_calls, 0);
    CHECK(i2c_calls > 10);
    CHECK(i2c_longest <= 2 + ACCEL_TSP1_I2C_MAX_WRITE);
    /* an ECHO of 53 bytes is 65 on the bus: more than one write carries; refused unsent */
    memset(big, 7, sizeof big);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, big, 53, NULL), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(accel_ring_count(&R.s.pend), 0);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, big, 52, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, mask4(mb, 2), 4, NULL, 0, NULL, 100),
             ACCEL_OK);
    /* a secure update cannot work over it: refused before anything is sent */
    {
        accel_tsp1_update u;
        unsigned calls = i2c_calls, events = R.n_events[ACCEL_TSP1_MODEL_RAN];
        memset(&u, 0, sizeof u);
        u.read = img_read;
        u.total = 144 * 3;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 100), ACCEL_E_UNSUPPORTED);
        u.chunks = 1;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 100), ACCEL_E_UNSUPPORTED);
        CHECK_EQ(i2c_calls, calls); /* not even the CANCEL a fresh update starts with */
        CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_RAN], events);
        CHECK_EQ(u.position, 0);
        CHECK_EQ(R.m.fw_valid, 1); /* the image is untouched */
    }
    /* the same session over SPI still works */
    R.s.bus.i2c = 0;
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "spi", 3, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK(spi_calls > 0);
    accel_sim_set_trace(&R.sim, NULL, NULL);
}

int main(void)
{
    RUN(test_i2c_session);
    return TEST_END();
}
