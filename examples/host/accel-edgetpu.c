/* accel-edgetpu - Coral Edge TPU tool on accel.h.
 *   accel-edgetpu disasm FILE            FILE: a .coral bitstream or a *_edgetpu.tflite
 *   accel-edgetpu disasm --tsv FILE.coral
 *   accel-edgetpu info --json MODEL_edgetpu.tflite
 * Exit status: 0 ok, 1 bad input, 2 usage. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *load(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    if (!fp) {
        perror(path);
        return NULL;
    }
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        buf = (uint8_t *)malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
            *len = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(fp);
    if (!buf) fprintf(stderr, "%s: cannot read\n", path);
    return buf;
}

static const char *exe_type(int t)
{
    switch (t) {
    case ACCEL_EDGETPU_STAND_ALONE: return "STAND_ALONE";
    case ACCEL_EDGETPU_PARAMETER_CACHING: return "PARAMETER_CACHING";
    case ACCEL_EDGETPU_EXECUTION_ONLY: return "EXECUTION_ONLY";
    }
    return "?";
}

static const char *desc_name(int d)
{
    static const char *const n[] = {"BASE_ADDRESS_OUTPUT_ACTIVATION", "BASE_ADDRESS_INPUT_ACTIVATION",
                                    "BASE_ADDRESS_PARAMETER", "BASE_ADDRESS_SCRATCH"};
    return d >= 0 && d < 4 ? n[d] : "?";
}

static const char *dtype_name(int d)
{
    switch (d) {
    case 0: return "FIXED_POINT8";
    case 1: return "FIXED_POINT16";
    case 2: return "SIGNED_FIXED_POINT32";
    case 3: return "BFLOAT";
    case 4: return "HALF";
    case 5: return "SINGLE";
    case 8: return "SIGNED_FIXED_POINT8";
    case 9: return "SIGNED_FIXED_POINT16";
    }
    return "?";
}

static void disasm_bits(const uint8_t *p, size_t n)
{
    char line[ACCEL_EDGETPU_DISASM_MAX];
    size_t i;
    for (i = 0; i + 16 <= n; i += 16) {
        if (accel_edgetpu_disasm(p + i, (uint32_t)i, line, sizeof line, NULL) == ACCEL_OK)
            puts(line);
    }
}

static int cmd_disasm(int tsv, const char *path)
{
    size_t n = 0, i;
    uint8_t *buf = load(path, &n);
    accel_edgetpu_model m;
    accel_status st;
    if (!buf) return 1;
    st = accel_edgetpu_model_open(&m, buf, n);
    if (st == ACCEL_OK && !tsv) {
        uint32_t x, b;
        for (x = 0; x < m.n_executables; x++) {
            accel_edgetpu_exe e;
            if (accel_edgetpu_model_executable(&m, x, &e) != ACCEL_OK) continue;
            for (b = 0; b < e.n_bitstreams; b++) {
                accel_edgetpu_bitstream bs;
                if (accel_edgetpu_exe_bitstream(&e, b, &bs) != ACCEL_OK) continue;
                printf("# executable %lu %s bitstream %lu: %lu instructions\n", (unsigned long)x,
                       exe_type(e.type), (unsigned long)b, (unsigned long)(bs.bits.len / 16));
                disasm_bits(bs.bits.p, bs.bits.len);
            }
        }
        free(buf);
        return 0;
    }
    if (st == ACCEL_OK || n == 0 || n % 16 != 0) {
        fprintf(stderr, "%s: %s\n", path,
                st == ACCEL_OK ? "--tsv takes a .coral bitstream, not a model"
                               : "neither an Edge TPU model nor whole 16-byte bundles");
        free(buf);
        return 1;
    }
    if (!tsv) {
        disasm_bits(buf, n);
    } else {
        unsigned f;
        printf("offset");
        for (f = 0; f < ACCEL_EDGETPU_NFIELDS; f++) printf("\t%s", accel_edgetpu_field_name(f));
        printf("\n");
        for (i = 0; i < n; i += 16) {
            accel_edgetpu_insn in;
            accel_edgetpu_insn_decode(buf + i, &in);
            printf("0x%lx", (unsigned long)i);
            for (f = 0; f < ACCEL_EDGETPU_NFIELDS; f++) printf("\t0x%lx", (unsigned long)in.f[f]);
            printf("\n");
        }
    }
    free(buf);
    return 0;
}

static void json_str(accel_edgetpu_view v)
{
    size_t i;
    putchar('"');
    for (i = 0; v.p && i < v.len; i++) {
        uint8_t c = v.p[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static double f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

static void json_layers(const accel_edgetpu_exe *e, int out)
{
    uint32_t i, n = out ? e->n_outputs : e->n_inputs;
    printf("[");
    for (i = 0; i < n; i++) {
        accel_edgetpu_layer l;
        if (accel_edgetpu_exe_layer(e, out, i, &l) != ACCEL_OK) continue;
        printf("%s{\"name\": ", i ? ", " : "");
        json_str(l.name);
        printf(", \"size_bytes\": %lu, \"y_dim\": %ld, \"x_dim\": %ld, \"z_dim\": %ld, "
               "\"data_type\": \"%s\", \"zero_point\": %ld, \"dequantization_factor\": %.9g}",
               (unsigned long)l.size_bytes, (long)l.y_dim, (long)l.x_dim, (long)l.z_dim,
               dtype_name(l.data_type), (long)l.zero_point, f32(l.dequantization_factor_bits));
    }
    printf("]");
}

static int cmd_info_json(const char *path)
{
    size_t n = 0;
    uint8_t *buf = load(path, &n);
    accel_edgetpu_model m;
    accel_status st;
    uint32_t x, b, i;
    if (!buf) return 1;
    st = accel_edgetpu_model_open(&m, buf, n);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: %s\n", path, accel_status_str(st));
        free(buf);
        return 1;
    }
    printf("{\"executables\": [");
    for (x = 0; x < m.n_executables; x++) {
        accel_edgetpu_exe e;
        if (accel_edgetpu_model_executable(&m, x, &e) != ACCEL_OK) continue;
        printf("%s\n  {\"type\": \"%s\", \"parameter_caching_token\": \"0x%016llx\", "
               "\"parameters_len\": %lu, \"batch_size\": %ld, \"scratch_size_bytes\": %ld,\n"
               "   \"bitstreams\": [",
               x ? "," : "", exe_type(e.type), (unsigned long long)e.parameter_caching_token,
               (unsigned long)e.parameters.len, (long)e.batch_size, (long)e.scratch_size_bytes);
        for (b = 0; b < e.n_bitstreams; b++) {
            accel_edgetpu_bitstream bs;
            if (accel_edgetpu_exe_bitstream(&e, b, &bs) != ACCEL_OK) continue;
            printf("%s{\"instructions\": %lu, \"field_offsets\": [", b ? ", " : "",
                   (unsigned long)(bs.bits.len / 16));
            for (i = 0; i < bs.n_field_offsets; i++) {
                accel_edgetpu_field_offset fo;
                if (accel_edgetpu_bitstream_field_offset(&bs, i, &fo) != ACCEL_OK) continue;
                printf("%s\n      {\"desc\": \"%s\", \"position\": \"%s\", \"offset_bit\": %lu, "
                       "\"batch\": %ld, \"name\": ",
                       i ? "," : "", desc_name(fo.desc),
                       fo.position ? "UPPER_32BIT" : "LOWER_32BIT", (unsigned long)fo.offset_bit,
                       (long)fo.batch);
                json_str(fo.name);
                printf("}");
            }
            printf("]}");
        }
        printf("],\n   \"dma_hints\": {\"fully_deterministic\": %s, \"hints\": [",
               e.fully_deterministic ? "true" : "false");
        for (i = 0; i < e.n_hints; i++) {
            accel_edgetpu_hint h;
            const char *dir;
            if (accel_edgetpu_exe_hint(&e, i, &h) != ACCEL_OK) continue;
            dir = h.direction ? "OUTFEED" : "INFEED";
            printf("%s\n      ", i ? "," : "");
            switch (h.kind) {
            case ACCEL_EDGETPU_HINT_DMA:
                printf("{\"type\": \"DMA_DESCRIPTOR\", \"direction\": \"%s\", \"desc\": \"%s\", "
                       "\"offset_in_bytes\": %lu, \"size_in_bytes\": %lu}",
                       dir, desc_name(h.desc), (unsigned long)h.offset_in_bytes,
                       (unsigned long)h.size_in_bytes);
                break;
            case ACCEL_EDGETPU_HINT_INSTRUCTION:
                printf("{\"type\": \"INSTRUCTION\", \"direction\": \"%s\", "
                       "\"instruction_chunk_index\": %lu}",
                       dir, (unsigned long)h.instruction_chunk_index);
                break;
            case ACCEL_EDGETPU_HINT_INTERRUPT:
                printf("{\"type\": \"INTERRUPT\", \"direction\": \"%s\", "
                       "\"interrupt_type\": \"SCALAR_CORE_INT_%d\"}",
                       dir, h.interrupt_type);
                break;
            default:
                printf("{\"type\": \"FENCE\", \"direction\": \"%s\"}", dir);
                break;
            }
        }
        printf("]},\n   \"input_layers\": ");
        json_layers(&e, 0);
        printf(",\n   \"output_layers\": ");
        json_layers(&e, 1);
        printf("}");
    }
    printf("\n]}\n");
    free(buf);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: accel-edgetpu disasm [--tsv] FILE\n"
                    "       accel-edgetpu info --json MODEL_edgetpu.tflite\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "disasm") == 0) return cmd_disasm(0, argv[2]);
    if (argc == 4 && strcmp(argv[1], "disasm") == 0 && strcmp(argv[2], "--tsv") == 0)
        return cmd_disasm(1, argv[3]);
    if (argc == 4 && strcmp(argv[1], "info") == 0 && strcmp(argv[2], "--json") == 0)
        return cmd_info_json(argv[3]);
    return usage();
}
