/* tsp1_harness.c - run an Arduino sketch's ELF on an emulated AVR (libsimavr) with accel's TSP1
 * device model on its SPI bus, chip select, INTB and WAKE pins; the sketch's UART0 goes to
 * stdout, the harness's own notes to stderr ("harness: ...").
 *
 *   tsp1_harness [options] SKETCH.elf
 *     --mcu NAME          atmega328p (Uno, default) or atmega2560 (Mega)
 *     --cs/--intb/--wake PIN   port letter and bit, e.g. B2 (defaults: Uno B2 D2 D4 = pins
 *                         SS, 2, 4; Mega B0 E4 G5 = pins SS, 2, 4)
 *     --cycles N          budget: a sketch still running after N cycles is hung (exit 2)
 *     --nets N            networks in the model (default 2)
 *     --cmd-cap N, --rsp-cap N   the device's command / response buffer sizes (512 / 256)
 *     --dead              no TSP1 answers: MISO reads 0x00, INTB never asserts
 *     --flip-cmd TEXT     flip bit 5 of the last payload byte of the first ECHO command whose
 *                         payload is TEXT, on its way to the device (MOSI)
 *     --flip-rsp TEXT     the same on the device's DATA response carrying TEXT (MISO)
 *     --ecc-on-echo TEXT  the device raises ASYNC_ERR_ECC when an ECHO with payload TEXT arrives
 *     --ecc-when-full N   the device raises ASYNC_ERR_ECC N times, the first time its response
 *                         buffer has no room for an async message (12 bytes)
 *     --mem-fail-chunk K  the NVM write of the K-th chunk of a secure update fails (once)
 *     --stop-after PREFIX stop (as halted) once the sketch has printed a line starting with
 *                         PREFIX: for sketches whose loop() never ends
 *     --trace             log every fate the model records (commands run, discarded,
 *                         rejected or wiped, async messages)
 *     --pty               UART0 is a pseudo-terminal instead of stdout: the harness prints
 *                         "harness: pty /dev/pts/N" once the sketch has turned its receiver on
 *                         (RXEN0) and a host program opens that path as its serial line (the
 *                         Bridge sketch's host tools). Runs until SIGTERM or SIGINT (or
 *                         --cycles), then reports and exits 0; its "serial line" report tells
 *                         requests the sketch never answered (a byte lost or garbled) from
 *                         resends while an answer was still due (the host's own timeout).
 *     --drop-rx N         with --pty: the N-th byte from the host never reaches the UART (a
 *                         byte lost on the line, to show that the report catches one)
 *     --frames FILE       with --pty: one line per request/response frame pair (frames end at
 *                         0x00, as the accel bridge's COBS frames do): "x T0 T1 T2 IN OUT" =
 *                         cycle the request's first byte started on the wire, cycle its last
 *                         byte was complete, cycle the response's last byte was complete,
 *                         request and response bytes on the wire
 *     --profile FILE      with --pty: program-counter samples (every 101 cycles) taken while a
 *                         response is due, as "ADDRESS COUNT" lines (where the sketch spends
 *                         its time answering)
 * Exit: 0 the sketch halted (cli + sleep) or printed its --stop-after line (or, with --pty, was
 * stopped by a signal), 1 usage/ELF error or crash, 2 cycle budget spent (a hung sketch), 3 a
 * requested fault never fired.
 *
 * The serial line with --pty: each byte from the host goes onto the emulated RX pin one per
 * byte time (10 bits at the baud the sketch set in UBRR0/U2X0), as on a wire; the sketch's
 * bytes are complete one byte time after it writes them to UDR0. simavr 1.6 charges a byte 11
 * bit times (it counts a parity bit that 8N1 does not send): the harness sets the UART's byte
 * time to 10 bits whenever the sketch sets the baud rate (both fixes with --pty only). The host's own time (the pty, the
 * tool) is not emulated: cycles between a response and the next request are not the host's
 * real turnaround, so measurements use the exchange times (T2 - T0).
 *
 * Bus wiring: each byte the MCU shifts out (SPI_IRQ_OUTPUT) is fed to the model as one byte of
 * the current transaction and the model's byte goes back through SPI_IRQ_INPUT; chip select
 * going high ends the model's transaction. The model's clock follows the emulated cycle count
 * (F_CPU / 1000 cycles per millisecond); INTB (active low) follows the model's IRQ output
 * after every byte, edge and millisecond.
 * simavr 1.6 clocks every SPI byte in 100 us whatever the SPI divider, so bus-heavy code runs
 * slower here than on a board at 4 MHz SPI (cycle counts are upper bounds for the bus part).
 * With --pty, where timing is measured, the harness reschedules that completion to 8 SPI
 * clocks at the divider the sketch set in SPCR/SPSR (32 cycles at 4 MHz), as on a board.
 * Build: cc -I. -isystem /usr/include/simavr tests/avr/tsp1_harness.c -lsimavr (libsimavr.so
 * pulls in libelf.so.1 itself; the harness calls no libelf function, so no libelf development
 * files are needed, and simavr's pkg-config file is not used). */
#define _XOPEN_SOURCE 600 /* dup, dup2, posix_openpt, grantpt, unlockpt, ptsname */
#define _DEFAULT_SOURCE   /* cfmakeraw */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_cycle_timers.h>
#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_io.h>

#define H_CMD_MAX 2048u

typedef struct h_pin {
    char port;
    unsigned bit;
} h_pin;

/* A pattern matched on one frame streaming through a bus transaction: the ECHO command (MOSI,
 * buffer write to 0) or DATA response (MISO, buffer read of 1) whose payload is `text`. */
typedef struct h_match {
    const char *text;
    int fired;
} h_match;

static struct {
    avr_t *avr;
    accel_tsp1_model model;
    uint8_t model_mem[3 * H_CMD_MAX + ACCEL_TSP1_MODEL_SLACK + 1024];
    accel_port mp;          /* the model's callbacks */
    avr_irq_t *spi_in, *intb_irq;
    h_pin cs, intb, wake;
    uint32_t freq, cyc_per_ms;
    uint64_t base_cycle;    /* cycle at which the model's clock started */
    uint64_t model_ms;
    int cs_low, wake_level, intb_level;
    int dead, trace;
    FILE *out;              /* the sketch's UART0 */
    const char *stop_after; /* --stop-after */
    char line[128];         /* the UART line being printed */
    size_t line_len;
    int stop;
    /* the transaction in flight: bytes out of and into the MCU */
    uint8_t tx[H_CMD_MAX + 16], rx[H_CMD_MAX + 16];
    size_t xlen;
    h_match flip_cmd, flip_rsp, ecc_on_echo;
    unsigned ecc_when_full;
    int ecc_full_fired;
    uint32_t mem_fail_chunk;
    int mem_fail_reported;
    /* what happened, for the closing report */
    unsigned long spi_bytes, transactions, flips;
    size_t min_rsp_free;
    uint64_t full_at_ms;
    int was_full;
    /* --pty: the serial line */
    int pty, pty_slave;
    FILE *frames;
    avr_irq_t *uart_in;
    avr_uart_t *uart;
    avr_spi_t *spi;
    uint8_t in_buf[8192], out_buf[512];
    uint64_t out_done[512];  /* cycle each byte of out_buf is complete on the wire */
    uint64_t out_last_done;
    size_t in_head, in_len, out_len;
    int rx_running, xoff;
    uint64_t last_in_cycle;  /* when the last byte fed started on the wire */
    /* frame pairing: request bytes in, response bytes out */
    int in_frame, out_frame, awaiting, out_any;
    uint64_t t0, t1, in_n, out_n;
    unsigned long exchanges, unpaired;
    /* where the line's bytes went, to tell a lost byte from a slow answer: request frames put
       on the RX pin and response frames the sketch sent, host bytes taken from the pty, bytes
       put on the RX pin while the sketch's receiver was off (lost there), sketch bytes from
       UDR0 and those handed to the host */
    unsigned long requests, responses;
    unsigned long long host_bytes, rx_off, tx_bytes, tx_passed;
    unsigned long long drop_rx; /* --drop-rx N: the N-th host byte never reaches the UART */
    int announced;              /* the pty's name printed (once the receiver is on) */
    const char *pty_name;
    unsigned long long cpb_fixes, spi_fixes;
    uint32_t *prof;          /* --profile: PC samples while a request is being answered */
} H;

static volatile sig_atomic_t h_signal;
static void h_on_signal(int sig) { h_signal = sig; }

/* ------------------------------------------------------------------ the model's side */
static void h_update_intb(void)
{
    int level = 1; /* active low, pulled up while the device says nothing */
    if (!H.dead && H.mp.wait_irq(H.mp.user, 0, 0) == ACCEL_OK) level = 0;
    if (level != H.intb_level) {
        avr_ioport_external_t ext;
        H.intb_level = level;
        /* as an external drive, so that port writes by the sketch do not override it */
        ext.name = (unsigned)H.intb.port & 0x7Fu;
        ext.mask = (uint8_t)(1u << H.intb.bit) & 0xFFu;
        ext.value = (uint8_t)((unsigned)level << H.intb.bit) & 0xFFu;
        avr_ioctl(H.avr, (uint32_t)AVR_IOCTL_IOPORT_SET_EXTERNAL(H.intb.port), &ext);
        avr_raise_irq(H.intb_irq, (uint32_t)level);
    }
}

static void h_note_fill(void)
{
    size_t free_b = accel_fifo_space(&H.model.rspq);
    if (H.model.power != ACCEL_TSP1_MODEL_READY) return;
    if (free_b < H.min_rsp_free) H.min_rsp_free = free_b;
    if (free_b < ACCEL_TSP1_OVERHEAD) {
        if (!H.was_full) {
            H.was_full = 1;
            H.full_at_ms = H.model_ms;
            fprintf(stderr, "harness: response buffer full at %llu ms (%u of %u bytes used)\n",
                    (unsigned long long)H.model_ms, (unsigned)accel_fifo_count(&H.model.rspq),
                    (unsigned)H.model.rsp_cap);
        }
        if (H.ecc_when_full && !H.ecc_full_fired) {
            unsigned i;
            H.ecc_full_fired = 1;
            for (i = 0; i < H.ecc_when_full; i++)
                if (accel_tsp1_model_raise(&H.model, ACCEL_TSP1_R_ASYNC_ERR_ECC) != ACCEL_OK)
                    H.ecc_full_fired = 0; /* reported as never fired */
            fprintf(stderr, "harness: raised ASYNC_ERR_ECC x%u while the response buffer is full\n",
                    H.ecc_when_full);
        }
    } else {
        H.was_full = 0;
    }
}

/* Bring the model's clock up to the emulated time. */
static void h_sync(void)
{
    uint64_t now_ms = (H.avr->cycle - H.base_cycle) / H.cyc_per_ms;
    while (H.model_ms < now_ms) {
        if (!H.dead) H.mp.delay_ms(H.mp.user, 1);
        H.model_ms++;
        h_note_fill();
    }
    h_update_intb();
}

static avr_cycle_count_t h_tick(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)param;
    h_sync();
    return when + H.cyc_per_ms;
}

/* The model's ground-truth log: with --trace every fate it records; a configured NVM failure
 * is reported when the device answers a command with its ERR_MEM (the model forgets the failure
 * once it has fired, so it happens once and the NVM works again). */
static void h_on_log(void *user, const accel_tsp1_model_event *e)
{
    static const char *const what[] = {"?", "ran", "discarded", "rejected", "wiped",
                                       "response wiped", "write ignored", "async"};
    (void)user;
    if (H.trace)
        fprintf(stderr, "harness: %llu ms: %s tid %u cmd 0x%04X -> 0x%04X\n",
                (unsigned long long)H.model_ms, e->what < 8 ? what[e->what] : what[0], e->tid,
                e->id, e->resp);
    if (e->what == ACCEL_TSP1_MODEL_RAN && e->resp == ACCEL_TSP1_R_ERR_MEM && H.mem_fail_chunk &&
        !H.mem_fail_reported) {
        H.mem_fail_reported = 1;
        fprintf(stderr, "harness: NVM write of chunk %lu failed, reported to tid %u\n",
                (unsigned long)H.mem_fail_chunk, e->tid);
    }
}

/* ------------------------------------------------------------------ frames on the bus */
/* Index of the frame byte at transaction position pos, given where the frame data starts
 * (after op, index and dummy bytes); -1 before it. */
static long h_frame_pos(size_t pos, size_t data0) { return pos < data0 ? -1 : (long)(pos - data0); }

/* The byte at frame offset k of a frame whose bytes so far are f[0..k]: 1 when k is the last
 * payload byte of a frame with id `id` whose payload equals m->text. */
static int h_match_last(const h_match *m, const uint8_t *f, long k, uint16_t id, uint16_t pre)
{
    size_t n;
    if (!m->text || m->fired || k < 8) return 0;
    n = strlen(m->text);
    if ((size_t)k != 8 + n - 1) return 0;
    if (accel_load_u16le(f) != pre || accel_load_u16le(f + 2) != id ||
        accel_load_u16le(f + 4) != n)
        return 0;
    return memcmp(f + 8, m->text, n) == 0;
}

/* The transaction ended: look at what the sketch wrote. */
static void h_transaction_end(void)
{
    const uint8_t *f = H.tx + 2;
    size_t n;
    H.transactions++;
    if (H.xlen < 2 + ACCEL_TSP1_OVERHEAD || H.tx[0] != ACCEL_TSP1_SPI_OP_BUF_WRITE || H.tx[1] != 0)
        return;
    n = accel_load_u16le(f + 4);
    if (H.ecc_on_echo.text && !H.ecc_on_echo.fired && accel_load_u16le(f + 2) == ACCEL_TSP1_ECHO &&
        n == strlen(H.ecc_on_echo.text) && H.xlen >= 2 + 8 + n &&
        memcmp(f + 8, H.ecc_on_echo.text, n) == 0) {
        H.ecc_on_echo.fired = accel_tsp1_model_raise(&H.model, ACCEL_TSP1_R_ASYNC_ERR_ECC) == ACCEL_OK;
        fprintf(stderr, "harness: raised ASYNC_ERR_ECC on ECHO \"%s\"\n", H.ecc_on_echo.text);
    }
}

static void h_spi_out(avr_irq_t *irq, uint32_t value, void *param)
{
    uint8_t in = (uint8_t)value, out = 0;
    (void)irq;
    (void)param;
    h_sync();
    H.spi_bytes++;
    if (H.dead || !H.cs_low) {
        avr_raise_irq(H.spi_in, H.dead ? 0x00u : 0xFFu); /* unpowered chip / deselected */
        return;
    }
    if (H.xlen < sizeof H.tx && H.xlen >= 2 && H.tx[0] == ACCEL_TSP1_SPI_OP_BUF_WRITE && H.tx[1] == 0) {
        long k = h_frame_pos(H.xlen, 2);
        H.tx[H.xlen] = in;
        if (h_match_last(&H.flip_cmd, H.tx + 2, k, ACCEL_TSP1_ECHO, ACCEL_TSP1_CMD_PREAMBLE)) {
            in ^= 0x20u;
            H.flip_cmd.fired = 1;
            H.flips++;
            fprintf(stderr, "harness: flipped bit 5 of ECHO \"%s\" on MOSI\n", H.flip_cmd.text);
        }
    }
    if (H.xlen < sizeof H.tx) H.tx[H.xlen] = (uint8_t)value;
    H.mp.spi_transfer(H.mp.user, 0, &in, &out, 1, ACCEL_SPI_KEEP_CS);
    if (H.xlen < sizeof H.rx && H.xlen >= 3 && H.tx[0] == ACCEL_TSP1_SPI_OP_BUF_READ && H.tx[1] == 1) {
        long k = h_frame_pos(H.xlen, 2 + ACCEL_TSP1_SPI_DUMMY);
        H.rx[H.xlen] = out;
        /* responses may start anywhere in a read: match from the last preamble seen */
        if (k >= 0 && H.flip_rsp.text && !H.flip_rsp.fired) {
            size_t s, n = strlen(H.flip_rsp.text);
            if (H.xlen >= 2 + ACCEL_TSP1_SPI_DUMMY + 8 + n - 1) {
                s = H.xlen - (8 + n - 1);
                if (s >= 2 + ACCEL_TSP1_SPI_DUMMY &&
                    h_match_last(&H.flip_rsp, H.rx + s, (long)(8 + n - 1), ACCEL_TSP1_R_DATA,
                                 ACCEL_TSP1_RSP_PREAMBLE)) {
                    out ^= 0x20u;
                    H.flip_rsp.fired = 1;
                    H.flips++;
                    fprintf(stderr, "harness: flipped bit 5 of DATA \"%s\" on MISO\n",
                            H.flip_rsp.text);
                }
            }
        }
    }
    H.xlen++;
    avr_raise_irq(H.spi_in, out);
    h_update_intb();
}

static void h_cs(avr_irq_t *irq, uint32_t value, void *param)
{
    int low = (value & 1u) == 0;
    (void)irq;
    (void)param;
    if (low == H.cs_low) return; /* port writes re-announce unchanged pins */
    h_sync();
    H.cs_low = low;
    if (low) {
        H.xlen = 0;
        return;
    }
    if (!H.dead) {
        H.mp.spi_transfer(H.mp.user, 0, NULL, NULL, 0, 0); /* chip select high: end */
        h_transaction_end();
    }
    h_update_intb();
}

static void h_wake(avr_irq_t *irq, uint32_t value, void *param)
{
    int level = (int)(value & 1u);
    (void)irq;
    (void)param;
    if (level == H.wake_level) return;
    h_sync();
    H.wake_level = level;
    if (!H.dead) H.mp.gpio_set(H.mp.user, 1, (unsigned)level);
    h_update_intb();
}

/* ------------------------------------------------------------------ --pty: the serial line */
/* Cycles one byte takes on the wire: 10 bits (8N1) at the baud UBRR0/U2X0 give. */
static avr_cycle_count_t h_byte_cycles(void)
{
    unsigned ubrr, u2x;
    const uint8_t *d = H.avr->data;
    ubrr = (unsigned)d[0xC4] | ((unsigned)(d[0xC5] & 0x0Fu) << 8); /* UBRR0L/H */
    u2x = (d[0xC0] >> 1) & 1u;                                      /* UCSR0A.U2X0 */
    return (avr_cycle_count_t)(ubrr + 1u) * (u2x ? 8u : 16u) * 10u;
}

/* After simavr has taken a UBRR0/UCSR0A write: its byte time, with 10 bits per byte. */
static void h_baud_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)avr;
    (void)addr;
    (void)v;
    (void)param;
    if (H.uart && H.uart->cycles_per_byte != h_byte_cycles()) {
        H.uart->cycles_per_byte = h_byte_cycles();
        H.cpb_fixes++;
    }
}

/* After simavr has taken an SPDR write (and armed its fixed 100 us completion): complete the
 * byte after 8 SPI clocks instead, at the divider SPCR.SPR1:0 / SPSR.SPI2X select. */
static void h_spdr_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    static const unsigned div[4] = {4, 16, 64, 128};
    avr_cycle_timer_slot_p t;
    unsigned d;
    (void)addr;
    (void)v;
    (void)param;
    if (!H.spi) return;
    d = div[avr->data[H.spi->r_spcr] & 3u];
    if (avr->data[H.spi->r_spsr] & 1u) d /= 2u;
    for (t = avr->cycle_timers.timer; t; t = t->next) {
        if (t->param == H.spi) {
            avr_cycle_timer_t fn = t->timer;
            avr_cycle_timer_cancel(avr, fn, H.spi);
            avr_cycle_timer_register(avr, 8u * d, fn, H.spi);
            H.spi_fixes++;
            break;
        }
    }
}

/* Hand the host the bytes that are complete on the wire by now (all of them: every one). */
static void h_flush_out(int every)
{
    size_t off = 0, n = 0;
    while (n < H.out_len && (every || H.out_done[n] <= H.avr->cycle)) n++;
    while (off < n) {
        ssize_t w = write(H.pty, H.out_buf + off, n - off);
        if (w > 0) {
            off += (size_t)w;
            H.tx_passed += (unsigned long long)w;
        } else if (w < 0 && errno != EINTR && errno != EAGAIN) {
            break; /* nobody reads: the bytes are lost, as on an unplugged line */
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd p = {H.pty, POLLOUT, 0};
            (void)poll(&p, 1, 100);
        }
    }
    memmove(H.out_buf, H.out_buf + n, H.out_len - n);
    memmove(H.out_done, H.out_done + n, (H.out_len - n) * sizeof H.out_done[0]);
    H.out_len -= n;
}

static avr_cycle_count_t h_out_due(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)when;
    (void)param;
    h_flush_out(0);
    return 0;
}

/* One byte onto the RX pin per byte time, while the UART can take it. */
static avr_cycle_count_t h_rx_tick(avr_t *avr, avr_cycle_count_t when, void *param)
{
    uint8_t b;
    (void)avr;
    (void)param;
    if (!H.in_len || H.xoff) {
        H.rx_running = 0;
        return 0;
    }
    b = H.in_buf[H.in_head];
    H.in_head = (H.in_head + 1u) % sizeof H.in_buf;
    H.in_len--;
    H.last_in_cycle = when;
    /* frames: a request starts at its first byte, ends at the 0x00 after its body */
    if (!H.in_frame && !H.t0) {
        H.t0 = when;
        H.in_n = 0;
    }
    H.in_n++;
    if (b) {
        H.in_frame = 1;
    } else if (H.in_frame) {
        H.in_frame = 0;
        H.t1 = when + h_byte_cycles();
        H.requests++;
        if (H.awaiting) H.unpaired++; /* a second request before an answer (a retry) */
        H.awaiting = 1;
        H.out_n = 0;
    }
    if (++H.host_bytes == H.drop_rx) return when + h_byte_cycles(); /* --drop-rx: lost */
    if (!(H.avr->data[0xC1] & 0x10u)) H.rx_off++; /* UCSR0B.RXEN0 clear: simavr drops it */
    avr_raise_irq(H.uart_in, b);
    return when + h_byte_cycles();
}

static void h_rx_start(void)
{
    if (H.rx_running || !H.in_len || H.xoff) return;
    H.rx_running = 1;
    {
        /* keep the byte spacing of the wire after the last byte */
        avr_cycle_count_t now = H.avr->cycle, next = H.last_in_cycle + h_byte_cycles();
        avr_cycle_timer_register(H.avr, next > now ? next - now : 1, h_rx_tick, NULL);
    }
}

static void h_xon(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value) {
        H.xoff = 0;
        h_rx_start();
    }
}

static void h_xoff(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value) H.xoff = 1;
}

static void h_pty_out(uint8_t b)
{
    /* a byte written to UDR0 is on the wire one byte time after the line is free */
    uint64_t start = H.avr->cycle > H.out_last_done ? H.avr->cycle : H.out_last_done;
    H.out_last_done = start + h_byte_cycles();
    if (H.out_len == sizeof H.out_buf) h_flush_out(1);
    H.out_done[H.out_len] = H.out_last_done;
    H.out_buf[H.out_len++] = b;
    H.tx_bytes++;
    if (b) {
        H.out_any = 1;
    } else if (H.out_any) {
        H.out_any = 0;
        H.responses++;
    }
    if (H.awaiting) {
        H.out_n++;
        if (b) {
            H.out_frame = 1;
        } else if (H.out_frame) {
            /* the response reaches the host when its last byte is complete */
            uint64_t t2 = H.out_last_done;
            H.out_frame = 0;
            H.awaiting = 0;
            H.exchanges++;
            if (H.frames)
                fprintf(H.frames, "x %llu %llu %llu %llu %llu\n", (unsigned long long)H.t0,
                        (unsigned long long)H.t1, (unsigned long long)t2,
                        (unsigned long long)H.in_n, (unsigned long long)H.out_n);
            H.t0 = 0;
            avr_cycle_timer_register(H.avr, t2 - H.avr->cycle, h_out_due, NULL);
        }
    }
}

/* --profile: sample the program counter every 101 cycles while an answer is due. */
static avr_cycle_count_t h_prof_tick(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)param;
    if (H.awaiting && avr->pc < 0x40000u) H.prof[avr->pc / 2u]++;
    return when + 101u;
}

/* Take what the host wrote. Between exchanges (nothing to feed, no answer due) wait up to
 * 1 ms of host time, so an idle sketch does not spin a host core. */
static avr_cycle_count_t h_pty_poll(avr_t *avr, avr_cycle_count_t when, void *param)
{
    struct pollfd p;
    int idle = !H.in_len && !H.awaiting && !H.in_frame;
    (void)avr;
    (void)param;
    if (H.out_len) h_flush_out(0);
    if (!H.announced) {
        /* the name goes out once the sketch's receiver is on (UCSR0B.RXEN0), as a host waits
           for a board to boot: a request written earlier would reach a UART that drops it */
        if (!(H.avr->data[0xC1] & 0x10u)) return when + H.cyc_per_ms / 10u;
        fprintf(stderr, "harness: pty %s\n", H.pty_name);
        fflush(stderr);
        H.announced = 1;
    }
    p.fd = H.pty;
    p.events = POLLIN;
    p.revents = 0;
    if (poll(&p, 1, idle ? 1 : 0) > 0 && (p.revents & POLLIN)) {
        while (H.in_len < sizeof H.in_buf) {
            size_t tail = (H.in_head + H.in_len) % sizeof H.in_buf;
            size_t room = tail >= H.in_head ? sizeof H.in_buf - tail : H.in_head - tail;
            ssize_t r;
            if (room > sizeof H.in_buf - H.in_len) room = sizeof H.in_buf - H.in_len;
            r = read(H.pty, H.in_buf + tail, room);
            if (r <= 0) break;
            H.in_len += (size_t)r;
        }
        h_rx_start();
    }
    return when + H.cyc_per_ms / 10u; /* every 100 us of emulated time */
}

static int h_pty_open(void)
{
    struct termios t;
    const char *name;
    H.pty = posix_openpt(O_RDWR | O_NOCTTY);
    if (H.pty < 0 || grantpt(H.pty) != 0 || unlockpt(H.pty) != 0 || !(name = ptsname(H.pty)))
        return 0;
    /* the harness keeps the line open itself (a host that closes it does not end it) and
       raw, so that nothing is echoed or translated before a host sets its own mode */
    H.pty_slave = open(name, O_RDWR | O_NOCTTY);
    if (H.pty_slave < 0 || tcgetattr(H.pty_slave, &t) != 0) return 0;
    cfmakeraw(&t);
    if (tcsetattr(H.pty_slave, TCSANOW, &t) != 0) return 0;
    if (fcntl(H.pty, F_SETFL, fcntl(H.pty, F_GETFL) | O_NONBLOCK) != 0) return 0;
    H.pty_name = name; /* announced by h_pty_poll once the sketch can receive */
    return 1;
}

static void h_uart(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    char c = (char)(value & 0xFFu);
    if (H.pty >= 0) {
        h_pty_out((uint8_t)value);
        return;
    }
    if (c == '\r') return;
    fputc(c, H.out);
    if (c != '\n') {
        if (H.line_len + 1 < sizeof H.line) H.line[H.line_len++] = c;
        return;
    }
    H.line[H.line_len] = 0;
    H.line_len = 0;
    if (H.stop_after && strncmp(H.line, H.stop_after, strlen(H.stop_after)) == 0) H.stop = 1;
}

/* ------------------------------------------------------------------ setup */
static int h_pin_arg(const char *s, h_pin *p)
{
    if (!s || strlen(s) != 2 || s[0] < 'A' || s[0] > 'L' || s[1] < '0' || s[1] > '7') return 0;
    p->port = s[0];
    p->bit = (unsigned)(s[1] - '0');
    return 1;
}

static avr_irq_t *h_pin_irq(h_pin p)
{
    return avr_io_getirq(H.avr, (uint32_t)AVR_IOCTL_IOPORT_GETIRQ(p.port), (int)p.bit);
}

static int usage(void)
{
    fprintf(stderr, "usage: tsp1_harness [--mcu atmega328p|atmega2560] [--cs P --intb P --wake P]"
                    " [--cycles N] [--nets N] [--cmd-cap N] [--rsp-cap N] [--dead]"
                    " [--flip-cmd TEXT] [--flip-rsp TEXT] [--ecc-on-echo TEXT]"
                    " [--ecc-when-full N] [--mem-fail-chunk K] [--stop-after PREFIX] [--trace]"
                    " [--pty [--frames FILE] [--drop-rx N]] SKETCH.elf\n");
    return 1;
}

int main(int argc, char **argv)
{
    const char *mcu = "atmega328p", *elf = NULL;
    const char *pin_arg[3] = {NULL, NULL, NULL};
    unsigned long long budget = 400000000ULL;
    unsigned long nets = 2, cmd_cap = 512, rsp_cap = 256;
    elf_firmware_t fw;
    avr_irq_t *irq;
    uint32_t flags = 0;
    int i, state;
    unsigned sp, sp_min = 0xFFFFu; /* the stack's deepest point: RAM the sketch really used */
    int use_pty = 0;
    const char *frames = NULL, *profile = NULL;
    memset(&H, 0, sizeof H);
    H.pty = -1;
    H.pty_slave = -1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--dead")) { H.dead = 1; continue; }
        if (!strcmp(a, "--trace")) { H.trace = 1; continue; }
        if (!strcmp(a, "--pty")) { use_pty = 1; continue; }
        if (a[0] != '-') { elf = a; continue; }
        if (!v) return usage();
        i++;
        if (!strcmp(a, "--mcu")) mcu = v;
        else if (!strcmp(a, "--cs")) pin_arg[0] = v;
        else if (!strcmp(a, "--intb")) pin_arg[1] = v;
        else if (!strcmp(a, "--wake")) pin_arg[2] = v;
        else if (!strcmp(a, "--cycles")) budget = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--nets")) nets = strtoul(v, NULL, 0);
        else if (!strcmp(a, "--cmd-cap")) cmd_cap = strtoul(v, NULL, 0);
        else if (!strcmp(a, "--rsp-cap")) rsp_cap = strtoul(v, NULL, 0);
        else if (!strcmp(a, "--flip-cmd")) H.flip_cmd.text = v;
        else if (!strcmp(a, "--flip-rsp")) H.flip_rsp.text = v;
        else if (!strcmp(a, "--ecc-on-echo")) H.ecc_on_echo.text = v;
        else if (!strcmp(a, "--ecc-when-full")) H.ecc_when_full = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--mem-fail-chunk")) H.mem_fail_chunk = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--stop-after")) H.stop_after = v;
        else if (!strcmp(a, "--frames")) frames = v;
        else if (!strcmp(a, "--profile")) profile = v;
        else if (!strcmp(a, "--drop-rx")) H.drop_rx = strtoull(v, NULL, 0);
        else return usage();
    }
    if (!elf || nets > ACCEL_TSP1_MAX_NETS || cmd_cap > H_CMD_MAX || rsp_cap > 1024 ||
        ((frames || H.drop_rx) && !use_pty))
        return usage();
    if (use_pty) {
        if (frames && !(H.frames = fopen(frames, "w"))) {
            perror(frames);
            return 1;
        }
        if (H.frames) setvbuf(H.frames, NULL, _IOLBF, 0);
        if (!h_pty_open()) {
            perror("harness: pty");
            return 1;
        }
        signal(SIGTERM, h_on_signal);
        signal(SIGINT, h_on_signal);
        signal(SIGPIPE, SIG_IGN);
        if (budget == 400000000ULL) budget = ~0ULL; /* until a signal */
    }
    if (!strcmp(mcu, "atmega2560")) {
        h_pin_arg("B0", &H.cs);
        h_pin_arg("E4", &H.intb);
        h_pin_arg("G5", &H.wake);
    } else {
        h_pin_arg("B2", &H.cs);
        h_pin_arg("D2", &H.intb);
        h_pin_arg("D4", &H.wake);
    }
    if ((pin_arg[0] && !h_pin_arg(pin_arg[0], &H.cs)) || (pin_arg[1] && !h_pin_arg(pin_arg[1], &H.intb)) ||
        (pin_arg[2] && !h_pin_arg(pin_arg[2], &H.wake)))
        return usage();

    if (accel_tsp1_model_init(&H.model, H.model_mem, sizeof H.model_mem, (uint16_t)cmd_cap,
                              (uint16_t)rsp_cap, (uint8_t)nets) != ACCEL_OK) {
        fprintf(stderr, "harness: bad model sizes\n");
        return 1;
    }
    H.model.wake_line = 1;
    H.model.on_log = h_on_log;
    H.model.mem_fail_chunk = H.mem_fail_chunk;
    accel_tsp1_model_port(&H.model, &H.mp);
    H.min_rsp_free = rsp_cap;

    memset(&fw, 0, sizeof fw);
    /* stdout belongs to the sketch; simavr prints its own notes there: move them to stderr */
    H.out = fdopen(dup(1), "w");
    if (!H.out || dup2(2, 1) < 0) return 1;
    setvbuf(H.out, NULL, _IOLBF, 0);
    if (elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "harness: cannot read %s\n", elf);
        return 1;
    }
    H.avr = avr_make_mcu_by_name(mcu);
    if (!H.avr) {
        fprintf(stderr, "harness: unknown mcu %s\n", mcu);
        return 1;
    }
    avr_init(H.avr);
    H.avr->log = 0;
    H.freq = fw.frequency ? fw.frequency : 16000000u;
    H.avr->frequency = H.freq;
    avr_load_firmware(H.avr, &fw);
    H.avr->frequency = H.freq;
    H.cyc_per_ms = H.freq / 1000u;
    H.base_cycle = H.avr->cycle;

    /* UART0 to stdout, not through simavr's own console */
    avr_ioctl(H.avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(H.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    irq = avr_io_getirq(H.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT);
    avr_irq_register_notify(irq, h_uart, NULL);
    /* SPI */
    irq = avr_io_getirq(H.avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT);
    avr_irq_register_notify(irq, h_spi_out, NULL);
    H.spi_in = avr_io_getirq(H.avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    /* pins */
    avr_irq_register_notify(h_pin_irq(H.cs), h_cs, NULL);
    avr_irq_register_notify(h_pin_irq(H.wake), h_wake, NULL);
    H.intb_irq = h_pin_irq(H.intb);
    H.intb_level = -1;
    h_update_intb();
    avr_cycle_timer_register(H.avr, H.cyc_per_ms, h_tick, NULL);
    if (use_pty) {
        /* simavr's timing fixes (see the head comment; with --pty, where the timing is
           measured): find its SPI and UART0 */
        avr_io_t *io;
        for (io = H.avr->io_port; io; io = io->next) {
            if (!strcmp(io->kind, "spi") && !H.spi) H.spi = (avr_spi_t *)io;
            if (!strcmp(io->kind, "uart") && ((avr_uart_t *)io)->name == '0') H.uart = (avr_uart_t *)io;
        }
        if (H.spi) avr_register_io_write(H.avr, H.spi->r_spdr, h_spdr_write, NULL);
        if (H.uart) {
            avr_register_io_write(H.avr, 0xC4, h_baud_write, NULL); /* UBRR0L */
            avr_register_io_write(H.avr, 0xC5, h_baud_write, NULL); /* UBRR0H */
            avr_register_io_write(H.avr, 0xC0, h_baud_write, NULL); /* UCSR0A (U2X0) */
        }
    }
    if (use_pty) {
        H.uart_in = avr_io_getirq(H.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
        avr_irq_register_notify(avr_io_getirq(H.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                                h_xon, NULL);
        avr_irq_register_notify(avr_io_getirq(H.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                                h_xoff, NULL);
        avr_cycle_timer_register(H.avr, H.cyc_per_ms / 10u, h_pty_poll, NULL);
        if (profile && (H.prof = (uint32_t *)calloc(0x20000u, sizeof *H.prof)) != NULL)
            avr_cycle_timer_register(H.avr, 101u, h_prof_tick, NULL);
    }

    for (;;) {
        state = avr_run(H.avr);
        sp = (unsigned)H.avr->data[R_SPL] | ((unsigned)H.avr->data[R_SPH] << 8);
        if (sp < sp_min) sp_min = sp;
        if (H.stop || h_signal) state = cpu_Done;
        if (state == cpu_Done || state == cpu_Crashed) break;
        if (H.avr->cycle - H.base_cycle >= budget) break;
    }
    fflush(H.out);
    fprintf(stderr, "harness: %s after %llu cycles (%.3f s emulated); %lu SPI bytes in %lu transactions;"
                    " model: %lu executed, %lu discarded, %lu errors, %lu async; rsp min free %u;"
                    " firmware version %lu%s; lowest SP 0x%04X\n",
            state == cpu_Done ? (H.stop ? "stopped after its line" : h_signal ? "stopped by a signal" : "halted")
            : state == cpu_Crashed ? "CRASHED" : "CYCLE BUDGET SPENT",
            (unsigned long long)(H.avr->cycle - H.base_cycle),
            (double)(H.avr->cycle - H.base_cycle) / (double)H.freq, H.spi_bytes, H.transactions,
            (unsigned long)H.model.executed, (unsigned long)H.model.discarded,
            (unsigned long)H.model.errors, (unsigned long)H.model.async_emitted,
            (unsigned)H.min_rsp_free, (unsigned long)H.model.fw_version,
            H.model.rom ? " (running its ROM bootloader)" : "", sp_min);
    if (use_pty) {
        if (H.out_len) h_flush_out(1);
        const uint8_t *d = H.avr->data;
        /* the sketch answers every request that reaches it intact, so a request it never
           answered lost or garbled a byte on the way; the other early resends came while
           its answer was still on the way (the host's timeout ran out first: host time,
           not a fault of the line) */
        unsigned long lost = H.requests > H.responses ? H.requests - H.responses : 0;
        unsigned long slow = H.unpaired > lost ? H.unpaired - lost : 0;
        fprintf(stderr, "harness: serial line: %lu request/response pairs, %lu requests sent"
                        " again before an answer (%lu requests never answered: a byte lost or"
                        " garbled; %lu resent while the answer was due: the host's timeout);"
                        " host bytes %llu, %llu of them before the receiver was on; sketch bytes"
                        " %llu, %llu passed on; UART byte time set %llu times, SPI bytes"
                        " rescheduled %llu; UBRR0 %u U2X0 %u: %lu baud, byte time %llu cycles\n",
                H.exchanges, H.unpaired, lost, slow, H.host_bytes, H.rx_off, H.tx_bytes,
                H.tx_passed, H.cpb_fixes, H.spi_fixes,
                (unsigned)d[0xC4] | ((unsigned)(d[0xC5] & 0x0Fu) << 8), (d[0xC0] >> 1) & 1u,
                (unsigned long)(H.freq * 10ull / h_byte_cycles()), (unsigned long long)h_byte_cycles());
        if (H.frames) fclose(H.frames);
        if (H.prof) {
            FILE *pf = fopen(profile, "w");
            unsigned long a;
            for (a = 0; pf && a < 0x20000u; a++)
                if (H.prof[a]) fprintf(pf, "%05lx %lu\n", a * 2u, (unsigned long)H.prof[a]);
            if (pf) fclose(pf);
            free(H.prof);
        }
    }
    if ((H.flip_cmd.text && !H.flip_cmd.fired) || (H.flip_rsp.text && !H.flip_rsp.fired) ||
        (H.ecc_on_echo.text && !H.ecc_on_echo.fired) || (H.ecc_when_full && !H.ecc_full_fired) ||
        (H.mem_fail_chunk && !H.mem_fail_reported))
    {
        fprintf(stderr, "harness: a requested fault never fired\n");
        return 3;
    }
    if (state == cpu_Done) return 0;
    return state == cpu_Crashed ? 1 : 2;
}
