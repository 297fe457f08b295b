/* accel-refsi: disassemble and assemble RefSi CMP command buffers.
 *
 *   accel-refsi disasm FILE   binary buffer (little-endian 64-bit chunks) -> one line per command
 *   accel-refsi asm FILE      that text -> the identical binary, on stdout
 *
 * Line format: the opcode name, then key=value pairs with hex values:
 *   NOP [payload=0x..,0x..]            FINISH
 *   WRITE_REG64 reg=0x1 (CMP_REG_ENTRY_PT_FN) value=0x10000
 *   LOAD_REG64 reg=.. addr=..          STORE_REG64 reg=.. addr=..
 *   STORE_IMM64 addr=.. value=..       COPY_MEM64 count=.. src=.. dst=.. unit=..
 *   RUN_KERNEL_SLICE max_harts=.. instances=.. slice=..
 *   RUN_INSTANCES max_harts=.. instances=.. args=0x..,0x..     SYNC_CACHE flags=..
 * The register name in parentheses is printed where the register has one; asm accepts it and
 * checks it names the same index. '#' starts a comment in asm input, which is text: a file with
 * a NUL byte (a binary command buffer given to asm by mistake) is refused.
 * Exit status: 0 ok, 1 malformed input or an I/O error (where and why on stderr), 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include "accel.h"
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const OPS[ACCEL_REFSI_OP_COUNT] = {
    "NOP",         "FINISH",     "WRITE_REG64",      "LOAD_REG64",    "STORE_REG64",
    "STORE_IMM64", "COPY_MEM64", "RUN_KERNEL_SLICE", "RUN_INSTANCES", "SYNC_CACHE"};

/* Register name, or NULL for register 7 (unnamed) and indices >= 40. */
static const char *reg_name(uint32_t r, char *tmp, size_t cap)
{
    static const char *const fixed[7] = {"CMP_REG_SCRATCH",    "CMP_REG_ENTRY_PT_FN",
                                         "CMP_REG_KUB_DESC",   "CMP_REG_KARGS_INFO",
                                         "CMP_REG_TSD_INFO",   "CMP_REG_STACK_TOP",
                                         "CMP_REG_RETURN_ADDR"};
    static const char *const arr[4] = {"BASE", "TARGET", "MODE", "SCALE"};
    if (r < 7) return fixed[r];
    if (r < 8 || r >= ACCEL_REFSI_NUM_REGS) return NULL;
    snprintf(tmp, cap, "CMP_REG_WINDOW_%s%u", arr[(r - 8) / 8], (unsigned)((r - 8) % 8));
    return tmp;
}

/* command buffers and their text are small: 256 MiB is far beyond any */
#define REFSI_MAX_INPUT (256u << 20)

static void print_reg(uint32_t r)
{
    char tmp[40];
    const char *nm = reg_name(r, tmp, sizeof tmp);
    printf(" reg=0x%" PRIx32, r);
    if (nm) printf(" (%s)", nm);
}

static int cmd_disasm(const char *path)
{
    size_t len = 0, i;
    unsigned char *buf = cli_read_file(path, REFSI_MAX_INPUT, &len);
    accel_refsi_iter it;
    accel_refsi_cmd c;
    accel_status st;
    if (!buf) return 1;
    if (len == 0) { /* a buffer of no commands: nothing to show, and no file holds one */
        free(buf);
        return cli_fail("%s: empty", path);
    }
    st = accel_refsi_iter_init(&it, buf, len);
    if (st != ACCEL_OK) {
        free(buf);
        return cli_fail("%s: %s", path, accel_status_str(st));
    }
    while ((st = accel_refsi_iter_next(&it, &c)) == ACCEL_OK) {
        printf("%s", OPS[c.opcode]);
        switch (c.opcode) {
        case ACCEL_REFSI_OP_NOP:
            for (i = 0; i < c.payload_chunks; i++)
                printf("%s0x%" PRIx64, i ? "," : " payload=", accel_load_u64le(c.payload + 8 * i));
            break;
        case ACCEL_REFSI_OP_WRITE_REG64:
            print_reg(c.reg);
            printf(" value=0x%" PRIx64, c.value);
            break;
        case ACCEL_REFSI_OP_LOAD_REG64:
        case ACCEL_REFSI_OP_STORE_REG64:
            print_reg(c.reg);
            printf(" addr=0x%" PRIx64, c.addr);
            break;
        case ACCEL_REFSI_OP_STORE_IMM64:
            printf(" addr=0x%" PRIx64 " value=0x%" PRIx64, c.addr, c.value);
            break;
        case ACCEL_REFSI_OP_COPY_MEM64:
            printf(" count=0x%" PRIx32 " src=0x%" PRIx64 " dst=0x%" PRIx64 " unit=0x%" PRIx64,
                   c.count, c.src, c.dst, c.unit);
            break;
        case ACCEL_REFSI_OP_RUN_KERNEL_SLICE:
            printf(" max_harts=0x%" PRIx32 " instances=0x%" PRIx64 " slice=0x%" PRIx64,
                   c.max_harts, c.instances, c.slice_id);
            break;
        case ACCEL_REFSI_OP_RUN_INSTANCES:
            printf(" max_harts=0x%" PRIx32 " instances=0x%" PRIx64 " args=", c.max_harts,
                   c.instances);
            for (i = 0; i < c.nargs; i++) printf("%s0x%" PRIx64, i ? "," : "", c.args[i]);
            break;
        case ACCEL_REFSI_OP_SYNC_CACHE: printf(" flags=0x%" PRIx32, c.flags); break;
        default: break;
        }
        printf("\n");
    }
    free(buf);
    if (st != ACCEL_E_EMPTY) {
        fflush(stdout);
        fprintf(stderr, "accel-refsi: %s: command %zu at byte offset 0x%zx: %s\n", path, it.index,
                it.pos, accel_status_str(st));
        return 1;
    }
    return 0;
}

/* ---- asm ---- */
#define MAXKEYS 8
typedef struct {
    const char *key[MAXKEYS];
    char *val[MAXKEYS];
    int used[MAXKEYS];
    int n;
    const char *regname; /* the "(NAME)" token, if any */
} fields;

static int asm_err(const char *path, unsigned line, const char *why)
{
    fprintf(stderr, "accel-refsi: %s:%u: %s\n", path, line, why);
    return 1;
}

static int parse_u64(const char *s, uint64_t *out)
{
    return cli_parse_u64(s, UINT64_MAX, out);
}

/* Find key and parse it; 0 when missing, malformed or above max. */
static int get(fields *f, const char *key, uint64_t *v, uint64_t max)
{
    int i;
    for (i = 0; i < f->n; i++)
        if (!strcmp(f->key[i], key)) {
            f->used[i] = 1;
            return parse_u64(f->val[i], v) && *v <= max;
        }
    return 0;
}

/* Comma-separated list (may be empty); 0 on error. */
static int get_list(fields *f, const char *key, uint64_t *out, size_t max, size_t *n)
{
    int i;
    for (i = 0; i < f->n; i++)
        if (!strcmp(f->key[i], key)) {
            char *s = f->val[i], *p = s;
            f->used[i] = 1;
            *n = 0;
            if (!*s) return 1;
            for (;;) {
                char *comma = strchr(p, ',');
                if (comma) *comma = 0;
                if (*n == max || !parse_u64(p, &out[*n])) return 0;
                (*n)++;
                if (!comma) return 1;
                p = comma + 1;
            }
        }
    return 0;
}

static int cmd_asm(const char *path)
{
    size_t len = 0;
    unsigned char *text = cli_read_file(path, REFSI_MAX_INPUT, &len);
    static uint8_t out[1u << 20];
    static uint8_t nop[8 * ACCEL_REFSI_MAX_PAYLOAD];
    static uint64_t list[ACCEL_REFSI_MAX_PAYLOAD + 1];
    accel_refsi_builder b;
    char *line, *next;
    unsigned lineno = 0;
    int rc = 0;
    const unsigned char *nul;
    if (!text) return 1;
    if (len == 0) {
        free(text);
        return cli_fail("%s: empty", path);
    }
    /* the text would end at the first NUL and the rest be dropped without a word */
    if ((nul = (const unsigned char *)memchr(text, 0, len)) != NULL) {
        cli_fail("%s: binary input (a NUL byte at offset 0x%lx): asm reads the text that disasm "
                 "prints",
                 path, (unsigned long)(nul - text));
        free(text);
        return 1;
    }
    if (accel_refsi_builder_init(&b, out, sizeof out) != ACCEL_OK) { /* a static buffer: never */
        free(text);
        return 1;
    }
    for (line = (char *)text; line && rc == 0; line = next) {
        char *p, *tok, *save = NULL;
        fields f;
        accel_refsi_cmd c;
        uint64_t v = 0;
        size_t n = 0, k;
        int op, i, ok = 1;
        accel_status st;
        lineno++;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if ((p = strchr(line, '#')) != NULL) *p = 0;
        memset(&f, 0, sizeof f);
        tok = strtok_r(line, " \t\r", &save);
        if (!tok) continue;
        for (op = 0; op < (int)ACCEL_REFSI_OP_COUNT; op++)
            if (!strcmp(tok, OPS[op])) break;
        if (op == (int)ACCEL_REFSI_OP_COUNT) {
            rc = asm_err(path, lineno, "unknown opcode name");
            break;
        }
        while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
            char *eq;
            if (tok[0] == '(') {
                size_t tl = strlen(tok);
                if (f.regname || tl < 3 || tok[tl - 1] != ')') {
                    ok = 0;
                    break;
                }
                tok[tl - 1] = 0;
                f.regname = tok + 1;
                continue;
            }
            eq = strchr(tok, '=');
            if (!eq || eq == tok || f.n == MAXKEYS) {
                ok = 0;
                break;
            }
            *eq = 0;
            for (i = 0; i < f.n; i++)
                if (!strcmp(f.key[i], tok)) ok = 0;
            f.key[f.n] = tok;
            f.val[f.n] = eq + 1;
            f.n++;
        }
        if (!ok) {
            rc = asm_err(path, lineno, "malformed or repeated key=value field");
            break;
        }
        memset(&c, 0, sizeof c);
        c.opcode = (uint8_t)op;
        switch (op) {
        case ACCEL_REFSI_OP_NOP:
            for (i = 0; i < f.n; i++)
                if (!strcmp(f.key[i], "payload"))
                    ok = get_list(&f, "payload", list, ACCEL_REFSI_MAX_PAYLOAD + 1, &n);
            for (k = 0; k < n && k < ACCEL_REFSI_MAX_PAYLOAD; k++)
                accel_store_u64le(nop + 8 * k, list[k]);
            c.payload = nop;
            c.payload_chunks = n; /* the builder refuses more than 0x1FFF */
            break;
        case ACCEL_REFSI_OP_WRITE_REG64:
        case ACCEL_REFSI_OP_LOAD_REG64:
        case ACCEL_REFSI_OP_STORE_REG64:
            ok = get(&f, "reg", &v, 0xFFFFFFFFu);
            c.reg = (uint32_t)v;
            if (ok && op == ACCEL_REFSI_OP_WRITE_REG64)
                ok = get(&f, "value", &c.value, UINT64_MAX);
            else if (ok)
                ok = get(&f, "addr", &c.addr, UINT64_MAX);
            if (ok && f.regname) {
                char tmp[40];
                const char *nm = reg_name(c.reg, tmp, sizeof tmp);
                if (!nm || strcmp(nm, f.regname)) {
                    rc = asm_err(path, lineno, "register name does not match its index");
                    continue;
                }
                f.regname = NULL;
            }
            break;
        case ACCEL_REFSI_OP_STORE_IMM64:
            ok = get(&f, "addr", &c.addr, UINT64_MAX) && get(&f, "value", &c.value, UINT64_MAX);
            break;
        case ACCEL_REFSI_OP_COPY_MEM64:
            ok = get(&f, "count", &v, 0xFFFFFFFFu) && get(&f, "src", &c.src, UINT64_MAX) &&
                 get(&f, "dst", &c.dst, UINT64_MAX) && get(&f, "unit", &c.unit, UINT64_MAX);
            c.count = (uint32_t)v;
            break;
        case ACCEL_REFSI_OP_RUN_KERNEL_SLICE:
            ok = get(&f, "max_harts", &v, 0xFFFFFFFFu) &&
                 get(&f, "instances", &c.instances, UINT64_MAX) &&
                 get(&f, "slice", &c.slice_id, UINT64_MAX);
            c.max_harts = (uint32_t)v;
            break;
        case ACCEL_REFSI_OP_RUN_INSTANCES:
            ok = get(&f, "max_harts", &v, 0xFFFFFFFFu) &&
                 get(&f, "instances", &c.instances, UINT64_MAX) &&
                 get_list(&f, "args", list, ACCEL_REFSI_MAX_ARGS + 1, &n);
            c.max_harts = (uint32_t)v;
            c.nargs = (uint32_t)n; /* 8 reaches the builder, which refuses it */
            for (k = 0; k < n && k < ACCEL_REFSI_MAX_ARGS; k++) c.args[k] = list[k];
            break;
        case ACCEL_REFSI_OP_SYNC_CACHE:
            ok = get(&f, "flags", &v, 0xFFFFFFFFu);
            c.flags = (uint32_t)v;
            break;
        default: break;
        }
        if (!ok) {
            rc = asm_err(path, lineno, "missing field or value out of range");
            break;
        }
        for (i = 0; i < f.n; i++)
            if (!f.used[i]) ok = 0;
        if (!ok || f.regname) {
            rc = asm_err(path, lineno, "field not valid for this opcode");
            break;
        }
        if (op == ACCEL_REFSI_OP_RUN_INSTANCES && n > ACCEL_REFSI_MAX_ARGS) {
            rc = asm_err(path, lineno, accel_status_str(ACCEL_E_REFSI_NARGS));
            break;
        }
        st = accel_refsi_emit(&b, &c);
        if (st != ACCEL_OK) {
            rc = asm_err(path, lineno, accel_status_str(st));
            break;
        }
    }
    free(text);
    if (rc) return rc;
    if (b.len == 0) return cli_fail("%s: no commands (only blank lines and comments)", path);
    if (fwrite(out, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
        fprintf(stderr, "accel-refsi: write error\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_start("accel-refsi", "disassemble and assemble RefSi command-processor (CMP) buffers",
              "usage: accel-refsi disasm FILE   binary command buffer -> one line per command\n"
              "       accel-refsi asm FILE      that text -> the identical binary, on stdout\n"
              "exit status: 0 ok, 1 malformed input or an I/O error, 2 usage\n",
              argc, argv);
    if (argc == 3 && !strcmp(argv[1], "disasm")) return cmd_disasm(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "asm")) return cmd_asm(argv[2]);
    if (argc < 2) return cli_usage(NULL);
    if (strcmp(argv[1], "disasm") && strcmp(argv[1], "asm"))
        return cli_usage("unknown command %s", argv[1]);
    return cli_usage("%s takes one FILE", argv[1]);
}
