/* cli.h - the command-line conventions every host tool in examples/host/ keeps, in one place:
 *   --help (-h)  what the tool is for and how to call it, on stdout, exit 0
 *   --version    the tool's name and accel.h's version, on stdout, exit 0
 *   a usage error exits 2: the reason, then the usage, on stderr
 *   a failed operation exits 1 with one line on stderr: "TOOL: FILE-or-DEVICE: reason"
 *   numbers are whole and in range: decimal, 0x hex or 0 octal (C prefixes), no sign, no
 *   spaces, nothing after them; hex byte strings are pairs of hex digits, nothing else
 *   input files are read whole by streaming, so pipes and /dev/stdin work and no buffer is
 *   sized from a seek; a directory is refused as one
 * Host tools only (stdio, malloc, stat). Call cli_start first: it names the tool for every
 * message and answers --help / --version given as the first argument. */
#ifndef ACCEL_CLI_H
#define ACCEL_CLI_H
#include "accel.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* each tool uses part of this */
#if defined(__GNUC__) || defined(__clang__)
#define CLI_FN static __attribute__((unused))
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_FN static
#define CLI_PRINTF(f, a)
#endif

static const char *cli_name = "accel";
static const char *cli_purpose = "";
static const char *cli_usage_text = "";

/* --help / -h / --version: print and exit 0. Anything else: return. Tools whose options come
 * before a command also call it on each option. */
CLI_FN void cli_std_option(const char *arg)
{
    int rc;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
        printf("%s - %s\n\n%s", cli_name, cli_purpose, cli_usage_text);
    else if (!strcmp(arg, "--version"))
        printf("%s (accel) %s\n", cli_name, ACCEL_VERSION_STRING);
    else
        return;
    rc = fflush(stdout) != 0 || ferror(stdout);
    exit(rc);
}

/* usage: "usage: ..." lines and whatever --help adds, each ending in '\n'. */
CLI_FN void cli_start(const char *name, const char *purpose, const char *usage, int argc,
                      char **argv)
{
    cli_name = name;
    cli_purpose = purpose;
    cli_usage_text = usage;
    if (argc > 1) cli_std_option(argv[1]);
}

/* A usage error: "TOOL: reason" (when fmt is not NULL), then the usage; returns 2. */
CLI_FN CLI_PRINTF(1, 2) int cli_usage(const char *fmt, ...)
{
    if (fmt) {
        va_list ap;
        fprintf(stderr, "%s: ", cli_name);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
    fputs(cli_usage_text, stderr);
    return 2;
}

/* A failed operation: "TOOL: message" on stderr; returns 1. */
CLI_FN CLI_PRINTF(1, 2) int cli_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout); /* what the tool printed before the failure comes first */
    fprintf(stderr, "%s: ", cli_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 1;
}

/* digits in base (8, 10 or 16), all of s, no larger than max. 1 if so. */
CLI_FN int cli_parse_digits(const char *s, unsigned base, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    unsigned d;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a') + 10u;
        else if (*s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A') + 10u;
        else return 0;
        if (d >= base || v > (UINT64_MAX - d) / base) return 0;
        v = v * base + d;
    }
    if (v > max) return 0;
    *out = v;
    return 1;
}

/* s as a whole unsigned number no larger than max: decimal, 0x hex or 0 octal. 1 if it is. */
CLI_FN int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return cli_parse_digits(s + 2, 16, max, out);
    if (s[0] == '0' && s[1]) return cli_parse_digits(s + 1, 8, max, out);
    return cli_parse_digits(s, 10, max, out);
}

/* 1 if s is spelled as a number (cli_parse_u64's forms), whatever its size: digits too many
 * for 64 bits make a number out of range, not a word that is no number. */
CLI_FN int cli_is_number(const char *s)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && s[1]) {
        base = 8;
        s++;
    }
    if (!*s) return 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a') + 10u;
        else if (*s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A') + 10u;
        else return 0;
        if (d >= base) return 0;
    }
    return 1;
}

/* The number argument `what` (e.g. "--hz"), in [min, max]; a usage error (exit 2) if not. */
CLI_FN uint64_t cli_num(const char *what, const char *s, uint64_t min, uint64_t max)
{
    uint64_t v;
    if (!cli_parse_u64(s, UINT64_MAX, &v) && cli_is_number(s))
        exit(cli_usage("%s: %s is out of range (%llu to %llu)", what, s, (unsigned long long)min,
                       (unsigned long long)max));
    if (!cli_parse_u64(s, UINT64_MAX, &v))
        exit(cli_usage("%s: '%s' is not a number (decimal, 0x hex or 0 octal)", what, s));
    if (v < min || v > max)
        exit(cli_usage("%s: %s is out of range (%llu to %llu)", what, s, (unsigned long long)min,
                       (unsigned long long)max));
    return v;
}

/* "A<sep>B", as form spells it (e.g. "B.C", "VID:PID"): two numbers, a bus and a device or a
 * vendor and a product id, in [0, max_a] and [0, max_b]; with C prefixes, or plain hex digits
 * when hex is set (as lsusb prints ids). A usage error (exit 2) if malformed. */
CLI_FN void cli_num_pair(const char *what, const char *form, const char *s, int hex,
                         uint64_t max_a, uint64_t *a, uint64_t max_b, uint64_t *b)
{
    char buf[64];
    const char *sep = form, *at;
    size_t la;
    int ok;
    while ((*sep >= 'A' && *sep <= 'Z') || (*sep >= 'a' && *sep <= 'z')) sep++;
    at = strchr(s, *sep);
    la = at ? (size_t)(at - s) : 0;
    ok = at && la < sizeof buf;
    if (ok) {
        memcpy(buf, s, la);
        buf[la] = 0;
        ok = hex ? cli_parse_digits(buf, 16, max_a, a) && cli_parse_digits(at + 1, 16, max_b, b)
                 : cli_parse_u64(buf, max_a, a) && cli_parse_u64(at + 1, max_b, b);
    }
    if (!ok && hex)
        exit(cli_usage("%s: '%s' is not %s in hex (at most %llx%c%llx)", what, s, form,
                       (unsigned long long)max_a, *sep, (unsigned long long)max_b));
    if (!ok)
        exit(cli_usage("%s: '%s' is not %s (two numbers, at most %llu and %llu)", what, s, form,
                       (unsigned long long)max_a, (unsigned long long)max_b));
}

/* Hex bytes ("9f00", pairs of hex digits) into out; returns how many. A usage error (exit 2)
 * for an odd count, a character that is not a hex digit, or more than cap bytes. */
CLI_FN size_t cli_hex(const char *what, const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0, i;
    for (i = 0; s[i]; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a') + 10u;
        else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A') + 10u;
        else exit(cli_usage("%s: bad hex string: '%c' at position %lu is not a hex digit", what, c,
                            (unsigned long)i));
        if (i / 2 >= cap)
            exit(cli_usage("%s: bad hex string: more than %lu bytes", what, (unsigned long)cap));
        if (i % 2 == 0) out[n] = (uint8_t)(d << 4);
        else out[n++] |= (uint8_t)d;
    }
    if (i % 2) exit(cli_usage("%s: bad hex string: an odd number of hex digits", what));
    return n;
}

/* Open path for reading; NULL after "TOOL: PATH: reason" (a directory is refused as one). */
CLI_FN FILE *cli_open(const char *path)
{
    struct stat sb;
    FILE *fp;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        cli_fail("%s: is a directory", path);
        return NULL;
    }
    fp = fopen(path, "rb");
    if (!fp) cli_fail("%s: %s", path, strerror(errno));
    return fp;
}

/* The whole of path (a file, a pipe, a device), at most max bytes, in a malloc'ed buffer with a
 * NUL after the data; NULL after "TOOL: PATH: reason". A regular file's size (from stat) only
 * refuses a too large file early and picks the first allocation; the read itself runs to the
 * end of the data, whatever the size said. */
CLI_FN unsigned char *cli_read_file(const char *path, size_t max, size_t *len)
{
    struct stat sb;
    unsigned char *buf = NULL;
    size_t cap = max < 65536u ? max + 1u : 65536u, n = 0;
    FILE *fp;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        if ((unsigned long long)sb.st_size > (unsigned long long)max) {
            cli_fail("%s: too large: %llu bytes (at most %llu)", path,
                     (unsigned long long)sb.st_size, (unsigned long long)max);
            return NULL;
        }
        cap = (size_t)sb.st_size + 1u;
    }
    fp = cli_open(path);
    if (!fp) return NULL;
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *nb;
            if (cap > max) { /* one byte past max was read: too large */
                cli_fail("%s: too large: more than %llu bytes", path, (unsigned long long)max);
                goto fail;
            }
            cap = cap > max / 2 ? max + 1u : cap * 2u;
            nb = (unsigned char *)realloc(buf, cap + 1u);
            if (!nb) {
                cli_fail("%s: out of memory at %llu bytes", path, (unsigned long long)n);
                goto fail;
            }
            buf = nb;
        } else if (!buf) {
            buf = (unsigned char *)malloc(cap + 1u);
            if (!buf) {
                cli_fail("%s: out of memory for %llu bytes", path, (unsigned long long)cap);
                goto fail;
            }
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) break;
    }
    if (ferror(fp)) {
#ifdef EISDIR
        if (errno == EISDIR) cli_fail("%s: is a directory", path);
        else
#endif
            cli_fail("%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    if (n > max) {
        cli_fail("%s: too large: more than %llu bytes", path, (unsigned long long)max);
        goto fail;
    }
    fclose(fp);
    buf[n] = 0;
    *len = n;
    return buf;
fail:
    free(buf);
    fclose(fp);
    return NULL;
}
#endif
