/* XNNPACK baseline for bench_mac: quantized conv2d and depthwise conv2d (qs8 per-tensor / qu8),
 * NHWC, single thread (no threadpool). Entry points declared here from xnnpack.h of Debian's
 * 2022 snapshot (it ships no pthreadpool.h). Depthwise is XNNPACK's grouped convolution with
 * one input channel per group and XNN_FLAG_DEPTHWISE_CONVOLUTION, whose filter layout
 * [1, kh, kw, channels * multiplier] is the engine's. XNNPACK requantizes with fp32 from a
 * float scale, so it is not expected to be bit-exact with TFLite: the bench counts differences. */
#include <stddef.h>
#include <stdint.h>

typedef void *xnn_op;
extern int xnn_initialize(const void *allocator);
const void *bench_xnn_allocator(void); /* the bench's (bench_mac.c) */
extern int xnn_create_convolution2d_nhwc_qs8(
    uint32_t pad_top, uint32_t pad_right, uint32_t pad_bottom, uint32_t pad_left, uint32_t kh,
    uint32_t kw, uint32_t sh, uint32_t sw, uint32_t dh, uint32_t dw, uint32_t groups,
    size_t group_in_c, size_t group_out_c, size_t in_stride, size_t out_stride, int8_t in_zp,
    float in_scale, float k_scale, const int8_t *kernel, const int32_t *bias, int8_t out_zp,
    float out_scale, int8_t out_min, int8_t out_max, uint32_t flags, xnn_op *op);
extern int xnn_setup_convolution2d_nhwc_qs8(xnn_op op, size_t batch, size_t in_h, size_t in_w,
                                            const int8_t *in, int8_t *out, void *threadpool);
extern int xnn_create_convolution2d_nhwc_qu8(
    uint32_t pad_top, uint32_t pad_right, uint32_t pad_bottom, uint32_t pad_left, uint32_t kh,
    uint32_t kw, uint32_t sh, uint32_t sw, uint32_t dh, uint32_t dw, uint32_t groups,
    size_t group_in_c, size_t group_out_c, size_t in_stride, size_t out_stride, uint8_t in_zp,
    float in_scale, uint8_t k_zp, float k_scale, const uint8_t *kernel, const int32_t *bias,
    uint8_t out_zp, float out_scale, uint8_t out_min, uint8_t out_max, uint32_t flags,
    xnn_op *op);
extern int xnn_setup_convolution2d_nhwc_qu8(xnn_op op, size_t batch, size_t in_h, size_t in_w,
                                            const uint8_t *in, uint8_t *out, void *threadpool);
extern int xnn_run_operator(xnn_op op, void *threadpool);
extern int xnn_delete_operator(xnn_op op);

#define BENCH_XNN_FLAG_DEPTHWISE 0x00000001u

/* g: batches, in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w, stride_h, stride_w, dilation_h,
 * dilation_w, pad_top, pad_left, groups, depth_multiplier (the engine's accel_mac_conv order);
 * depthwise != 0 for a depthwise conv. Returns NULL when XNNPACK refuses the operator. */
void *bench_xnn_conv_create(int uint8, int depthwise, const uint32_t *g, const uint8_t *w,
                            const int32_t *bias, int input_offset, int filter_offset,
                            int output_offset, double scale, int act_min, int act_max)
{
    static int inited;
    uint32_t in_h = g[1], in_w = g[2], in_c = g[3], out_h = g[4], out_w = g[5], out_c = g[6];
    uint32_t kh = g[7], kw = g[8], sh = g[9], sw = g[10], dh = g[11] ? g[11] : 1u;
    uint32_t dw = g[12] ? g[12] : 1u, pt = g[13], pl = g[14], groups = g[15] ? g[15] : 1u;
    uint32_t pb, pr, flags = 0;
    long need_h, need_w;
    size_t gic, goc;
    xnn_op op = NULL;
    int st;
    if (!inited) {
        if (xnn_initialize(bench_xnn_allocator()) != 0) return NULL;
        inited = 1;
    }
    /* bottom/right padding: whatever the output size needs beyond the input (TFLite's SAME) */
    need_h = (long)(out_h - 1u) * sh + (long)(kh - 1u) * dh + 1 - (long)in_h - (long)pt;
    need_w = (long)(out_w - 1u) * sw + (long)(kw - 1u) * dw + 1 - (long)in_w - (long)pl;
    pb = need_h > 0 ? (uint32_t)need_h : 0u;
    pr = need_w > 0 ? (uint32_t)need_w : 0u;
    if (depthwise) {
        groups = in_c;
        gic = 1;
        goc = out_c / in_c;
        flags = BENCH_XNN_FLAG_DEPTHWISE;
    } else {
        gic = in_c / groups;
        goc = out_c / groups;
    }
    if (uint8)
        st = xnn_create_convolution2d_nhwc_qu8(
            pt, pr, pb, pl, kh, kw, sh, sw, dh, dw, groups, gic, goc, in_c, out_c,
            (uint8_t)-input_offset, (float)scale, (uint8_t)-filter_offset, 1.0f, w, bias,
            (uint8_t)output_offset, 1.0f, (uint8_t)act_min, (uint8_t)act_max, flags, &op);
    else
        st = filter_offset != 0
                 ? -1
                 : xnn_create_convolution2d_nhwc_qs8(
                       pt, pr, pb, pl, kh, kw, sh, sw, dh, dw, groups, gic, goc, in_c, out_c,
                       (int8_t)-input_offset, (float)scale, 1.0f, (const int8_t *)w, bias,
                       (int8_t)output_offset, 1.0f, (int8_t)act_min, (int8_t)act_max, flags, &op);
    return st == 0 ? op : NULL;
}

int bench_xnn_conv_run(void *op, int uint8, const uint32_t *g, const uint8_t *x, uint8_t *out)
{
    int st = uint8 ? xnn_setup_convolution2d_nhwc_qu8(op, g[0], g[1], g[2], x, out, NULL)
                   : xnn_setup_convolution2d_nhwc_qs8(op, g[0], g[1], g[2], (const int8_t *)x,
                                                      (int8_t *)out, NULL);
    return st == 0 ? xnn_run_operator(op, NULL) : st;
}
