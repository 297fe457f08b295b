/* fcpack_xbuild.c - prepacked fully-connected filters carried between builds of the mac section
 * (tests/mac_pack_layouts.sh builds this file with the AVX-512 VNNI path, the AVX2 path and
 * ACCEL_MAC_NO_SIMD, and feeds every build's packs to every build):
 *   fcpack_xbuild write FILE   pack the fixed cases below and write them to FILE (per case a
 *                              little-endian uint32 length, then the pack); prints
 *                              "simd S layout L" (ACCEL_MAC_SIMD, the pack's byte 4)
 *   fcpack_xbuild read FILE    run each pack of FILE on the case's input; prints one line per
 *                              case: "case I ok" (ACCEL_OK and the output equals test_mac.c's
 *                              ref_fc), "case I unsupported" (ACCEL_E_UNSUPPORTED and the output
 *                              untouched) or "case I wrong: ..." (anything else); exit 1 then.
 * The file is read as untrusted input (lengths bounded by the buffer). The cases' data come
 * from a fixed generator, so every build sees the same filters, biases and inputs. */
#include <stdio.h>
#define main test_mac_main /* test_mac.c's reference (ref_fc, rq, fill_quant); its tests unused */
#include "../test_mac.c"
#undef main

enum { XB_CASES = 4, XB_K = 2100, XB_N = 130, XB_B = 3, XB_CAP = 2 * (64 + 4 * 144 + 144 * XB_K) + 4096 };
/* B, K, N, dtype, input offset, filter offset, per-channel (else per-tensor) */
static const int xb_case[XB_CASES][7] = {
    {3, 67, 33, 0, -127, 0, 1},
    {2, 2048, 130, 1, -255, -128, 0},
    {1, 5, 17, 0, 128, 128, 1},
    {3, 300, 64, 1, 0, -255, 1},
};
static uint8_t xb_x[XB_B * XB_K], xb_w[XB_N * XB_K], xb_ref[XB_B * XB_N], xb_o[XB_B * XB_N + 16];
static int32_t xb_bias[XB_N];
static uint8_t xb_mem[XB_CAP + 64];
static uint32_t xb_state;

static uint8_t xb_byte(void)
{
    xb_state = xb_state * 1664525u + 1013904223u;
    return (uint8_t)(xb_state >> 24);
}

/* a byte of type dt (1 uint8) within 16 of the zero point -offset, so that the sums stay small
 * enough for outputs spread over the range (not all clamped) */
static uint8_t xb_near(int dt, int32_t offset)
{
    int32_t v = -offset + (int32_t)(xb_byte() % 33u) - 16, lo = dt ? 0 : -128;
    v = v < lo ? lo : v > lo + 255 ? lo + 255 : v;
    return (uint8_t)(v & 0xFF);
}

/* case i's data, quantization and reference output */
static void xb_setup(int i, rq *r, accel_mac_quant *q)
{
    const int *c = xb_case[i];
    int j;
    xb_state = 12345u + (uint32_t)i;
    for (j = 0; j < c[0] * c[1]; j++) xb_x[j] = xb_near(c[3], c[4]);
    for (j = 0; j < c[2] * c[1]; j++) xb_w[j] = xb_near(c[3], c[5]);
    for (j = 0; j < c[2]; j++) xb_bias[j] = (int32_t)(xb_byte() * 16) - 2048;
    memset(r, 0, sizeof *r);
    r->dt = c[3];
    r->io = c[4];
    r->fo = c[5];
    r->oo = c[3] ? 128 : 3;
    r->amin = c[3] ? 0 : -128;
    r->amax = r->amin + 255;
    r->nq = c[6] ? c[2] : 1;
    for (j = 0; j < r->nq; j++) {
        r->mult[j] = 1073741824 + (int32_t)xb_byte() * 4000000;
        r->shift[j] = (c[1] > 1000 ? -7 : c[1] > 100 ? -5 : -3) - (j % 3);
    }
    fill_quant(q, r);
    ref_fc(c[0], c[1], c[2], xb_x, xb_w, xb_bias, r, xb_ref);
}

static int xb_write(const char *path)
{
    FILE *f = fopen(path, "wb");
    uint8_t *pk = fcp_align64(xb_mem);
    int i;
    if (!f) { printf("cannot create %s\n", path); return 1; }
    for (i = 0; i < XB_CASES; i++) {
        const int *c = xb_case[i];
        rq r;
        accel_mac_quant q;
        size_t size = 0;
        uint8_t len[4];
        xb_setup(i, &r, &q);
        if (accel_mac_fully_connected_pack_mem_size((uint32_t)c[1], (uint32_t)c[2], &size) != ACCEL_OK ||
            size > XB_CAP ||
            accel_mac_fully_connected_pack((uint32_t)c[1], (uint32_t)c[2], xb_w,
                                           (size_t)(c[1] * c[2]), xb_bias, (size_t)c[2], &q, pk,
                                           size) != ACCEL_OK) {
            printf("case %d: cannot pack\n", i);
            fclose(f);
            return 1;
        }
        accel_store_u32le(len, (uint32_t)size);
        if (fwrite(len, 1, 4, f) != 4 || fwrite(pk, 1, size, f) != size) {
            fclose(f);
            return 1;
        }
        if (i == 0) printf("simd %d layout %u\n", ACCEL_MAC_SIMD, (unsigned)pk[4]);
    }
    return fclose(f) != 0;
}

static int xb_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *pk = fcp_align64(xb_mem);
    int i, wrong = 0;
    if (!f) { printf("cannot open %s\n", path); return 1; }
    for (i = 0; i < XB_CASES; i++) {
        const int *c = xb_case[i];
        const size_t nout = (size_t)(c[0] * c[2]);
        rq r;
        accel_mac_quant q;
        uint8_t len[4];
        uint32_t size;
        accel_status st;
        if (fread(len, 1, 4, f) != 4 || (size = accel_load_u32le(len)) > XB_CAP ||
            fread(pk, 1, size, f) != size) {
            printf("case %d wrong: the file is short or its length is out of range\n", i);
            wrong = 1;
            break;
        }
        xb_setup(i, &r, &q);
        memset(xb_o, 0xAA, sizeof xb_o);
        st = accel_mac_fully_connected_packed((uint32_t)c[0], xb_x, (size_t)(c[0] * c[1]), pk,
                                              size, &q, xb_o, nout);
        if (st == ACCEL_OK && memcmp(xb_o, xb_ref, nout) == 0 && fcp_all(xb_o + nout, 0xAA, 16)) {
            printf("case %d ok\n", i);
        } else if (st == ACCEL_E_UNSUPPORTED && fcp_all(xb_o, 0xAA, sizeof xb_o)) {
            printf("case %d unsupported\n", i);
        } else {
            printf("case %d wrong: status %d (%s), output %s the reference\n", i, (int)st,
                   accel_status_str(st), memcmp(xb_o, xb_ref, nout) ? "differs from" : "equals");
            wrong = 1;
        }
    }
    fclose(f);
    return wrong;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "write") == 0) return xb_write(argv[2]);
    if (argc == 3 && strcmp(argv[1], "read") == 0) return xb_read(argv[2]);
    printf("usage: fcpack_xbuild write|read FILE\n");
    return 2;
}
