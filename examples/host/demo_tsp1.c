/* demo_tsp1 - a TSP1 session on the simulator port: boot, ECHO, network info, pipelined
 * commands with one failing (the device discards the rest until CLEAR_ERROR), a bit flipped on
 * the SPI bus (the device answers ERR_CHECKSUM, which names no command for sure: the outcome is
 * unknown; then recovery), a coalesced async message, and a secure update. */
#include "accel.h"
#include "accel_sim.h"
#include <stdio.h>
#include <string.h>

static accel_sim sim;
static accel_tsp1_model model;
static uint8_t model_mem[4096];
static accel_tsp1 s;
/* the driver's memory: 8 commands in flight, payloads up to 576 bytes out and 588 in */
static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(8, 576, 588) + 3) / 4];

static const char *name(uint16_t id)
{
    switch (id) {
    case ACCEL_TSP1_ECHO: return "ECHO";
    case ACCEL_TSP1_NN_START: return "NN_START";
    case ACCEL_TSP1_NN_STOP: return "NN_STOP";
    case ACCEL_TSP1_NN_INFO: return "NN_INFO";
    case ACCEL_TSP1_SECURE_UPDATE: return "SECURE_UPDATE";
    case ACCEL_TSP1_SECURE_UPDATE_CANCEL: return "SECURE_UPDATE_CANCEL";
    case ACCEL_TSP1_SECURE_UPDATE_FINISH: return "SECURE_UPDATE_FINISH";
    case ACCEL_TSP1_REBOOT: return "REBOOT";
    default: return "?";
    }
}

static void on_outcome(void *u, const accel_tsp1_outcome *o)
{
    (void)u;
    printf("  tid %3u %-22s -> %s\n", o->tid, name(o->cmd), accel_status_str(o->status));
}

static void on_async(void *u, const accel_tsp1_frame *f)
{
    (void)u;
    printf("  async 0x%04X tid %u\n", f->id, f->tid);
}

/* Print a step's status and hand it back (the demo shows every status, whatever it is). */
static accel_status show(const char *what, accel_status st)
{
    printf("  %s: %s\n", what, accel_status_str(st));
    return st;
}

static uint8_t image[144 * 5];
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    memcpy(dst, image + off, n);
    return ACCEL_OK;
}

int main(void)
{
    accel_port mp;
    accel_tsp1_config c;
    accel_sim_fault f;
    accel_tsp1_update up;
    uint8_t out[32], m1[4] = {1, 0, 0, 0}, m9[4] = {9, 0, 0, 0};
    size_t len;
    uint8_t n;
    accel_status st;

    accel_sim_init(&sim);
    st = accel_tsp1_model_init(&model, model_mem, sizeof model_mem, 512, 256, 2);
    if (st != ACCEL_OK) return show("model", st) != ACCEL_OK;
    accel_tsp1_model_port(&model, &mp);
    accel_sim_attach(&sim, &mp);
    memset(&c, 0, sizeof c);
    c.bus.port = &sim.port;
    c.mem = mem;
    c.mem_len = sizeof mem;
    c.depth = 8;
    c.cmd_payload = 576;
    c.rsp_payload = 588;
    c.timeout_ms = 200;
    c.auto_clear = 1;
    c.on_outcome = on_outcome;
    c.on_async = on_async;
    st = accel_tsp1_init(&s, &c);
    if (st != ACCEL_OK) return show("init", st) != ACCEL_OK;

    printf("boot:\n");
    st = accel_tsp1_wait_ready(&s, 100);
    printf("  ready: %s\n", accel_status_str(st));
    printf("echo:\n");
    if (show("call", accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100)) ==
        ACCEL_OK)
        printf("  got \"%.*s\"\n", (int)len, (const char *)out);
    printf("network scan:\n");
    n = 0;
    (void)show("scan", accel_tsp1_nn_scan(&s, &n, 100));
    printf("  %u networks, mask 0x%lx\n", n, (unsigned long)s.known_mask);

    printf("pipelined: START(net 0), START(bad mask 9), ECHO, STOP(net 0):\n");
    (void)show("submit START", accel_tsp1_submit(&s, ACCEL_TSP1_NN_START, m1, 4, NULL));
    (void)show("submit START", accel_tsp1_submit(&s, ACCEL_TSP1_NN_START, m9, 4, NULL));
    (void)show("submit ECHO", accel_tsp1_submit(&s, ACCEL_TSP1_ECHO, "x", 1, NULL));
    (void)show("submit STOP", accel_tsp1_submit(&s, ACCEL_TSP1_NN_STOP, m1, 4, NULL));
    accel_sim_advance(&sim, 10);
    (void)show("poll", accel_tsp1_poll(&s));
    printf("  (CLEAR_ERROR sent automatically; net 0 is %s)\n",
           model.state[0] == ACCEL_TSP1_NN_RUNNING ? "still running" : "stopped");
    (void)show("stop net 0", accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_STOP, 1, 100));

    printf("fault: one bit flipped in the next command on the SPI bus:\n");
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FLIP;
    f.ops = ACCEL_SIM_OP_SPI;
    f.dir = ACCEL_SIM_TO_DEVICE;
    f.skip = 3; /* level read (2 calls), write header, then the frame */
    f.count = 1;
    f.at = 9;
    f.mask = 0x20;
    accel_sim_add_fault(&sim, &f);
    st = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100);
    printf("  call: %s\n", accel_status_str(st));
    st = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100);
    printf("  retry: %s, got \"%.*s\"\n", accel_status_str(st), (int)len, (const char *)out);

    printf("async: ECC raised twice while the host is busy (coalesced on the device):\n");
    (void)show("raise ECC", accel_tsp1_model_raise(&model, ACCEL_TSP1_R_ASYNC_ERR_ECC));
    (void)show("raise ECC", accel_tsp1_model_raise(&model, ACCEL_TSP1_R_ASYNC_ERR_ECC));
    accel_sim_advance(&sim, 2);
    (void)show("poll", accel_tsp1_poll(&s));
    printf("  TID gaps reported: %lu\n", (unsigned long)s.async_gaps);

    printf("secure update, 5 chunks, 2 per command:\n");
    /* the simulated device checks an image as its stand-in for a signature: the last 4 bytes
       are the CRC-32 (little-endian) of the rest */
    accel_store_u32le(image + sizeof image - 4, accel_crc32(image, sizeof image - 4));
    memset(&up, 0, sizeof up);
    up.read = img_read;
    up.total = sizeof image;
    up.chunks = 2;
    st = accel_tsp1_update_run(&s, &up, 200);
    printf("  update: %s, firmware version now %lu\n", accel_status_str(st),
           (unsigned long)model.fw_version);
    printf("decoder: %lu frames, %lu bytes dropped\n", (unsigned long)s.dec.frames,
           (unsigned long)(s.dec.dropped[0] + s.dec.dropped[1] + s.dec.dropped[2] + s.dec.dropped[3]));
    printf(st == ACCEL_OK ? "demo_tsp1: ok\n" : "demo_tsp1: FAILED\n");
    return st == ACCEL_OK ? 0 : 1;
}
