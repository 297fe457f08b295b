/* XNNPACK baseline for bench_mac: quantized fully connected (qs8 / qu8), single thread (no
 * threadpool). Debian's libxnnpack-dev (2022 snapshot) ships no pthreadpool.h, so the few
 * entry points used are declared here from xnnpack.h of that snapshot. XNNPACK requantizes
 * with its own fp32/rndnu scheme from a float scale, so it is not expected to be bit-exact
 * with TFLite's fixed-point path: the bench reports how many outputs differ. */
#include <stddef.h>
#include <stdint.h>

typedef void *xnn_op;
extern int xnn_initialize(const void *allocator);
const void *bench_xnn_allocator(void); /* the bench's (bench_mac.c) */
extern int xnn_create_fully_connected_nc_qs8(size_t in_ch, size_t out_ch, size_t in_stride,
                                             size_t out_stride, int8_t in_zp, float in_scale,
                                             float k_scale, const int8_t *kernel,
                                             const int32_t *bias, int8_t out_zp, float out_scale,
                                             int8_t out_min, int8_t out_max, uint32_t flags,
                                             xnn_op *op);
extern int xnn_setup_fully_connected_nc_qs8(xnn_op op, size_t batch, const int8_t *in,
                                            int8_t *out, void *threadpool);
extern int xnn_create_fully_connected_nc_qu8(size_t in_ch, size_t out_ch, size_t in_stride,
                                             size_t out_stride, uint8_t in_zp, float in_scale,
                                             uint8_t k_zp, float k_scale, const uint8_t *kernel,
                                             const int32_t *bias, uint8_t out_zp,
                                             float out_scale, uint8_t out_min, uint8_t out_max,
                                             uint32_t flags, xnn_op *op);
extern int xnn_setup_fully_connected_nc_qu8(xnn_op op, size_t batch, const uint8_t *in,
                                            uint8_t *out, void *threadpool);
extern int xnn_run_operator(xnn_op op, void *threadpool);
extern int xnn_delete_operator(xnn_op op);

/* Creates (packs the weights of) a qs8/qu8 FC; returns NULL when XNNPACK refuses it. */
void *bench_xnn_fc_create(int uint8, int depth, int outs, const uint8_t *w, const int32_t *bias,
                          int input_offset, int filter_offset, int output_offset, double scale,
                          int act_min, int act_max)
{
    static int inited;
    xnn_op op = NULL;
    int st;
    if (!inited) {
        if (xnn_initialize(bench_xnn_allocator()) != 0) return NULL;
        inited = 1;
    }
    if (uint8)
        st = xnn_create_fully_connected_nc_qu8((size_t)depth, (size_t)outs, (size_t)depth,
                                               (size_t)outs, (uint8_t)-input_offset, (float)scale,
                                               (uint8_t)-filter_offset, 1.0f, w, bias,
                                               (uint8_t)output_offset, 1.0f, (uint8_t)act_min,
                                               (uint8_t)act_max, 0, &op);
    else
        st = filter_offset != 0 ? -1
                                : xnn_create_fully_connected_nc_qs8(
                                      (size_t)depth, (size_t)outs, (size_t)depth, (size_t)outs,
                                      (int8_t)-input_offset, (float)scale, 1.0f,
                                      (const int8_t *)w, bias, (int8_t)output_offset, 1.0f,
                                      (int8_t)act_min, (int8_t)act_max, 0, &op);
    return st == 0 ? op : NULL;
}

int bench_xnn_fc_run(void *op, int uint8, int batches, const uint8_t *x, uint8_t *out)
{
    int st = uint8 ? xnn_setup_fully_connected_nc_qu8(op, (size_t)batches, x, out, NULL)
                   : xnn_setup_fully_connected_nc_qs8(op, (size_t)batches, (const int8_t *)x,
                                                      (int8_t *)out, NULL);
    return st == 0 ? xnn_run_operator(op, NULL) : st;
}

void bench_xnn_fc_delete(void *op)
{
    if (op) xnn_delete_operator(op);
}
