// gemmlowp baseline for bench_mac: uint8 fully connected / GEMM with TFLite's output pipeline
// (bias, fixed-point multiplier with exponent, offset, clamp, cast), single thread.
#include <cstdint>
#include <tuple>
#include <gemmlowp/public/gemmlowp.h>

extern "C" int bench_gemmlowp_fc_u8(const std::uint8_t *x, const std::uint8_t *w,
                                    const std::int32_t *bias, int batches, int depth, int outs,
                                    int input_offset, int filter_offset, int output_offset,
                                    std::int32_t multiplier, int shift, int act_min, int act_max,
                                    std::uint8_t *out)
{
    static gemmlowp::GemmContext *ctx = nullptr;
    if (!ctx) {
        ctx = new gemmlowp::GemmContext();
        ctx->set_max_num_threads(1);
    }
    // out[b][n] viewed as a column-major outs x batches matrix = W (outs x depth) * X^T
    gemmlowp::MatrixMap<const std::uint8_t, gemmlowp::MapOrder::RowMajor> lhs(w, outs, depth);
    gemmlowp::MatrixMap<const std::uint8_t, gemmlowp::MapOrder::ColMajor> rhs(x, depth, batches);
    gemmlowp::MatrixMap<std::uint8_t, gemmlowp::MapOrder::ColMajor> res(out, outs, batches);
    gemmlowp::VectorMap<const std::int32_t, gemmlowp::VectorShape::Col> bv(bias, outs);
    gemmlowp::OutputStageBiasAddition<gemmlowp::VectorMap<const std::int32_t, gemmlowp::VectorShape::Col>> bias_stage;
    bias_stage.bias_vector = bv;
    gemmlowp::OutputStageScaleInt32ByFixedPointAndExponent scale;
    scale.result_fixedpoint_multiplier = multiplier;
    scale.result_exponent = shift;
    scale.result_offset_after_shift = output_offset;
    gemmlowp::OutputStageClamp clamp;
    clamp.min = act_min;
    clamp.max = act_max;
    gemmlowp::OutputStageSaturatingCastToUint8 cast;
    auto pipeline = std::make_tuple(bias_stage, scale, clamp, cast);
    gemmlowp::GemmWithOutputPipeline<std::uint8_t, std::uint8_t, gemmlowp::DefaultL8R8BitDepthParams>(
        ctx, lhs, rhs, &res, filter_offset, input_offset, pipeline);
    return 0;
}
