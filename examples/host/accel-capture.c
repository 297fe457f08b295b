/* accel-capture - print a bridge capture (recorded by a host tool with --capture).
 *
 *   accel-capture dump FILE
 *
 * One line per exchange: its index, the host's clock (ms since the session opened), the request
 * and, after "->", the device's answer: its status, the port's own error code when there is one,
 * and the data. "sent N times" marks a request that needed retries, "no answer" one the host
 * gave up on (the status is then the host's). A last line counts exchanges, retries and link
 * failures. The file is read as one Capture message of ports/bridge/accel_bridge.proto, streamed
 * (any size): `protoc --decode=accel.bridge.Capture accel_bridge.proto < FILE` reads the same.
 * Exit status: 0 ok, 1 not a capture or malformed (where on stderr), 2 usage. */
#include "accel.h"
#include "cli.h"
#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: accel-capture dump FILE   one line per exchange of a capture (--capture of a host "
    "tool)\n"
    "exit status: 0 ok, 1 not a capture or malformed, 2 usage\n";
#define PURPOSE "print a bridge capture that a host tool recorded with --capture"

#ifdef ACCEL_HAVE_BRIDGE
#include "accel_bridge_host.h"
#include <pb_decode.h>

typedef struct dump_state {
    unsigned long n, retried, extra_sends, local;
    long last_exchange_at; /* file offset where the exchange being decoded starts */
} dump_state;

static size_t file_pos;
static pb_istream_t *file_top; /* the stream over the whole file (not a record's substream) */
static int file_end;           /* the file ended inside a read */

/* The end of the file ends the capture only between two records, at the top level: there the
 * stream is marked empty so the decoder takes it as the message's end. Inside a record (a
 * substream, or a tag or length cut short) it is a cut file, and the read fails. */
static bool file_read(pb_istream_t *s, pb_byte_t *buf, size_t n)
{
    FILE *fp = (FILE *)s->state;
    size_t got;
    if (!buf) { /* skip */
        while (n--) {
            if (fgetc(fp) == EOF) {
                file_end = 1;
                return false;
            }
            file_pos++;
        }
        return true;
    }
    got = fread(buf, 1, n, fp);
    file_pos += got;
    if (got != n) {
        file_end = 1;
        if (s == file_top && got == 0) s->bytes_left = 0; /* between records: a clean end */
        return false;
    }
    return true;
}

static void hex(const uint8_t *b, size_t n)
{
    size_t i, show = n > 16 ? 16 : n;
    for (i = 0; i < show; i++) printf(" %02x", b[i]);
    if (n > show) printf(" ... (%lu bytes)", (unsigned long)n);
}

static void print_request(const accel_bridge_Request *q)
{
    switch (q->which_op) {
    case accel_bridge_Request_hello_tag:
        printf("hello version %lu session 0x%08lx max_data %u", (unsigned long)q->op.hello.version,
               (unsigned long)q->op.hello.session, (unsigned)q->op.hello.max_data);
        break;
    case accel_bridge_Request_spi_tag:
        printf("spi cs %u len %u%s%s", q->op.spi.cs, (unsigned)q->op.spi.len,
               q->op.spi.read ? " read" : "", q->op.spi.keep_cs ? " keep_cs" : "");
        if (q->op.spi.tx.size) {
            printf(" tx");
            hex(q->op.spi.tx.bytes, q->op.spi.tx.size);
        }
        break;
    case accel_bridge_Request_i2c_tag:
        printf("i2c addr 0x%02x read %u", (unsigned)q->op.i2c.addr, (unsigned)q->op.i2c.read_len);
        if (q->op.i2c.write.size) {
            printf(" write");
            hex(q->op.i2c.write.bytes, q->op.i2c.write.size);
        }
        break;
    case accel_bridge_Request_gpio_set_tag:
        printf("gpio_set line %u level %u", (unsigned)q->op.gpio_set.line,
               (unsigned)q->op.gpio_set.level);
        break;
    case accel_bridge_Request_wait_irq_tag:
        printf("wait_irq line %u timeout %lu ms", (unsigned)q->op.wait_irq.line,
               (unsigned long)q->op.wait_irq.timeout_ms);
        break;
    case accel_bridge_Request_delay_tag:
        printf("delay %lu ms", (unsigned long)q->op.delay.ms);
        break;
    case accel_bridge_Request_time_tag: printf("time"); break;
    case accel_bridge_Request_reg_read_tag:
        printf("reg_read%s 0x%lx", q->op.reg_read.wide ? "64" : "32",
               (unsigned long)q->op.reg_read.offset);
        break;
    case accel_bridge_Request_reg_write_tag:
        printf("reg_write%s 0x%lx = 0x%llx", q->op.reg_write.wide ? "64" : "32",
               (unsigned long)q->op.reg_write.offset, (unsigned long long)q->op.reg_write.value);
        break;
    default: printf("(no operation %u)", (unsigned)q->which_op); break;
    }
}

static void print_response(const accel_bridge_Response *r)
{
    printf(" -> %s", r->status == 0 ? "OK" : accel_status_str((accel_status)r->status));
    if (r->port_error) printf(" (port error %ld)", (long)r->port_error);
    switch (r->which_result) {
    case accel_bridge_Response_hello_tag:
        printf(" version %lu max_data %u caps 0x%03x", (unsigned long)r->result.hello.version,
               (unsigned)r->result.hello.max_data, (unsigned)r->result.hello.caps);
        break;
    case accel_bridge_Response_data_tag:
        printf(" data");
        hex(r->result.data.bytes, r->result.data.size);
        break;
    case accel_bridge_Response_now_ms_tag:
        printf(" %lu ms", (unsigned long)r->result.now_ms);
        break;
    case accel_bridge_Response_value_tag:
        printf(" 0x%llx", (unsigned long long)r->result.value);
        break;
    default: break;
    }
}

/* Capture.exchange is a callback field: each record is decoded and printed as it streams by. */
static bool on_exchange(pb_istream_t *s, const pb_field_t *field, void **arg)
{
    dump_state *d = (dump_state *)*arg;
    accel_bridge_Exchange ex;
    (void)field;
    memset(&ex, 0, sizeof ex);
    if (!pb_decode(s, accel_bridge_Exchange_fields, &ex)) return false;
    printf("#%lu +%lu ms ", d->n, (unsigned long)ex.host_ms);
    print_request(&ex.request);
    print_response(&ex.response);
    if (ex.local) printf("  [no answer: sent %lu times]", (unsigned long)ex.sends);
    else if (ex.sends > 1) printf("  [sent %lu times]", (unsigned long)ex.sends);
    printf("\n");
    if (ex.sends > 1) {
        d->retried++;
        d->extra_sends += ex.sends - 1u;
    }
    if (ex.local) d->local++;
    d->n++;
    return true;
}

static int dump(const char *path)
{
    FILE *fp = cli_open(path); /* streamed: a pipe works, a directory is refused */
    accel_bridge_Capture cap;
    dump_state d;
    pb_istream_t is;
    if (!fp) return 1;
    memset(&d, 0, sizeof d);
    memset(&cap, 0, sizeof cap);
    cap.exchange.funcs.decode = on_exchange;
    cap.exchange.arg = &d;
    is.callback = file_read;
    is.state = fp;
    is.bytes_left = SIZE_MAX;
#ifndef PB_NO_ERRMSG
    is.errmsg = NULL;
#endif
    file_pos = 0;
    file_top = &is;
    file_end = 0;
    if (!pb_decode(&is, accel_bridge_Capture_fields, &cap)) {
        if (file_end && !ferror(fp))
            cli_fail("%s: cut: the file ends at byte %lu, inside a record (after %lu whole "
                     "exchanges)", path, (unsigned long)file_pos, d.n);
        else
            cli_fail("%s: malformed at byte %lu, in exchange %lu (%s)", path,
                     (unsigned long)file_pos, d.n, PB_GET_ERROR(&is));
        fclose(fp);
        return 1;
    }
    fclose(fp);
    if (!cap.has_info || cap.info.magic != ACCEL_BRIDGE_CAPTURE_MAGIC) {
        return cli_fail("%s: not a bridge capture (no CaptureInfo with the magic)", path);
    }
    printf("%lu exchanges, protocol version %lu; %lu retried (%lu extra sends), %lu without an "
           "answer\n",
           d.n, (unsigned long)cap.info.version, d.retried, d.extra_sends, d.local);
    return 0;
}

int main(int argc, char **argv)
{
    cli_start("accel-capture", PURPOSE, usage_text, argc, argv);
    if (argc == 3 && strcmp(argv[1], "dump") == 0) return dump(argv[2]);
    if (argc < 2) return cli_usage(NULL);
    if (strcmp(argv[1], "dump")) return cli_usage("unknown command %s", argv[1]);
    return cli_usage("dump takes one FILE");
}
#else
int main(int argc, char **argv)
{
    cli_start("accel-capture", PURPOSE, usage_text, argc, argv);
    fprintf(stderr, "accel-capture: built without nanopb (libnanopb-dev)\n");
    return 2;
}
#endif
