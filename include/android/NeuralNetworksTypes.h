/**
 * @file NeuralNetworksTypes.h
 * @brief The types, constants and codes of the Android Neural Networks API:
 * operand types, operations, result codes, feature levels and the opaque
 * object types.
 *
 * Numeric values, struct layouts and names are those of the NNAPI
 * specification, so that programs built against Android's header run
 * unchanged on this library. The functions are in NeuralNetworks.h.
 */
#ifndef NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H
#define NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __ANDROID__
#include <android/hardware_buffer.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Operand types: the `type` field of ::ANeuralNetworksOperandType.
 *
 * Scalars have no dimensions (dimensionCount 0, dimensions NULL). TENSOR_
 * types have rank 1 or more; a dimension of 0 means "unknown", and a
 * dimensionCount of 0 means "unknown rank" (feature level 3). Constants, and
 * the main model's inputs at execution time, must have every dimension
 * known. `scale` and `zeroPoint` must be 0 for types that are not quantized.
 * Tensors are stored densely in row-major order.
 */
typedef enum {
    /** 32-bit IEEE 754 float scalar. Feature level 1. */
    ANEURALNETWORKS_FLOAT32 = 0,
    /** Signed 32-bit integer scalar. Feature level 1. */
    ANEURALNETWORKS_INT32 = 1,
    /** Unsigned 32-bit integer scalar. Feature level 1. */
    ANEURALNETWORKS_UINT32 = 2,
    /** Tensor of 32-bit floats. Feature level 1. */
    ANEURALNETWORKS_TENSOR_FLOAT32 = 3,
    /**
     * Tensor of signed 32-bit integers. Not quantized in general; where an
     * operation uses it as the bias of a quantized input, the operation fixes
     * its scale (e.g. input scale × filter scale) and zeroPoint 0. Feature
     * level 1.
     */
    ANEURALNETWORKS_TENSOR_INT32 = 4,
    /**
     * Tensor of uint8 with one scale and zero point: real = (q − zeroPoint) ×
     * scale, scale > 0, zeroPoint in [0, 255]. Feature level 1.
     */
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM = 5,
    /** Boolean scalar, one byte: 0 is false, anything else true. Feature level 3. */
    ANEURALNETWORKS_BOOL = 6,
    /** Tensor of int16: real = q × scale, scale > 0, zeroPoint 0. Feature level 3. */
    ANEURALNETWORKS_TENSOR_QUANT16_SYMM = 7,
    /** Tensor of 16-bit IEEE 754 floats. Feature level 3. */
    ANEURALNETWORKS_TENSOR_FLOAT16 = 8,
    /** Tensor of booleans, one byte each: 0 is false, anything else true. Feature level 3. */
    ANEURALNETWORKS_TENSOR_BOOL8 = 9,
    /** 16-bit IEEE 754 float scalar. Feature level 3. */
    ANEURALNETWORKS_FLOAT16 = 10,
    /**
     * Tensor of int8 with one scale per channel: real = q × scales[c], c the
     * index along channelDim. The operand's own scale and zeroPoint are 0;
     * the scales are given by
     * ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(), which is
     * required before the model is finished. The channel dimension must be
     * known. Feature level 3.
     */
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
    /**
     * Tensor of uint16: real = (q − zeroPoint) × scale, scale > 0, zeroPoint in
     * [0, 65535]. Feature level 3.
     */
    ANEURALNETWORKS_TENSOR_QUANT16_ASYMM = 12,
    /** Tensor of int8: real = q × scale, scale > 0, zeroPoint 0. Feature level 3. */
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM = 13,
    /**
     * Tensor of int8 with one scale and zero point: real = (q − zeroPoint) ×
     * scale, scale > 0, zeroPoint in [−128, 127]. Feature level 4.
     */
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED = 14,
    /**
     * A reference to another model, the branch or body of
     * ::ANEURALNETWORKS_IF and ::ANEURALNETWORKS_WHILE; its value is set only
     * with ANeuralNetworksModel_setOperandValueFromModel(). Feature level 4.
     */
    ANEURALNETWORKS_MODEL = 15,
} OperandCode;

/**
 * Operations: the `type` argument of ANeuralNetworksModel_addOperation().
 *
 * Each value lists the operation's inputs and outputs by position, with
 * their types and shapes, the operand types it accepts at each feature level,
 * its rules and its formula. The notation:
 *
 * - **T**: the operation's main tensor type, one of those in its "Types"
 *   line; every operand marked T has that same type. Aliases: F32
 *   TENSOR_FLOAT32, F16 TENSOR_FLOAT16, I32 TENSOR_INT32, QA8
 *   TENSOR_QUANT8_ASYMM, QA8S TENSOR_QUANT8_ASYMM_SIGNED, QS8
 *   TENSOR_QUANT8_SYMM, QS8C TENSOR_QUANT8_SYMM_PER_CHANNEL, QS16
 *   TENSOR_QUANT16_SYMM, QA16 TENSOR_QUANT16_ASYMM, B8 TENSOR_BOOL8. Q8 or
 *   **quant**: QA8 or QA8S. Scalar types keep their names (INT32, FLOAT32,
 *   FLOAT16, BOOL). s_x is the scale of operand x.
 * - **same q** / "quant = in0": a quantized output must have input 0's scale
 *   and zeroPoint. **free q** / "quant free": it may have its own.
 * - **act**: an INT32 ::FuseCode applied to the result: 0 none, 1
 *   max(0, x), 2 clamp(x, −1, 1), 3 clamp(x, 0, 6).
 * - **padding**: an INT32 ::PaddingCode. With an effective filter size
 *   eff = (f − 1) × dilation + 1: explicit padding gives
 *   out = floor((in + p_begin + p_end − eff) / stride) + 1; SAME gives
 *   out = ceil(in / stride) with total padding
 *   max(0, (out − 1) × stride + eff − in), the odd cell at the end; VALID
 *   pads nothing, out = ceil((in − eff + 1) / stride).
 * - **E# / I#**: input positions in the explicit-padding signature (four
 *   INT32 paddings) and in the implicit one (one PaddingCode) of the windowed
 *   operations.
 * - **nchw** / layout: an optional BOOL (feature level 3); false (default)
 *   means NHWC [batch, height, width, channels], true NCHW. Shapes are
 *   written NHWC.
 * - **opt**: an optional input. Trailing optional inputs may be left out of
 *   the list; an optional tensor is omitted by giving it no value
 *   (ANeuralNetworksModel_setOperandValue() with NULL and 0, or an execution
 *   input bound to NULL).
 * - **BCAST**: broadcasting. Shapes are aligned at the last dimension; each
 *   pair of sizes must be equal or contain 1 (missing leading dimensions count
 *   as 1); the output takes the larger. A 0 size pairs only with 0 or 1 and
 *   gives 0.
 * - **0-size FL3+**: from feature level 3 the named dimensions may be 0.
 * - FLn: feature level n; "FLn+" means from level n on.
 *
 * Tensors have rank at most 4 unless an operation says otherwise.
 */
typedef enum {
    /* Feature level 1. */
    /**
     * Element-wise a + b with BCAST; fused act. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | rank ≤ 4 |
     * | 1 | b | T | BCAST-compatible with a; quant: own scale/zp (free q vs a) |
     * | 2 | act | INT32 | FuseCode; T = TENSOR_INT32 ⇒ must be 0 (NONE) |
     * | out 0 | sum | T | BCAST shape; quant: free q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED, +TENSOR_INT32.
     * Rules: a and b same operand type. 0-size FL3+ (any dim, BCAST zero rule).
     * Formula: out = act(a + b) on real values (quant: dequantize, add, requantize to out's params).
     */
    ANEURALNETWORKS_ADD = 0,
    /**
     * 2-D mean over sliding windows, per channel; fused act. FL1.
     * Two signatures: explicit padding (E#) and implicit padding (I#).
     *
     * | E# | I# | input | type | shape / constraint |
     * |---|---|---|---|---|
     * | 0 | 0 | in | T | 4-D [N,H,W,C]; N = 0 allowed FL3+ |
     * | 1 | – | pad_left | INT32 | width axis |
     * | 2 | – | pad_right | INT32 | width axis |
     * | 3 | – | pad_top | INT32 | height axis |
     * | 4 | – | pad_bottom | INT32 | height axis |
     * | – | 1 | padding | INT32 | PaddingCode |
     * | 5 | 2 | stride_w | INT32 | |
     * | 6 | 3 | stride_h | INT32 | |
     * | 7 | 4 | filter_w | INT32 | |
     * | 8 | 5 | filter_h | INT32 | |
     * | 9 | 6 | act | INT32 | FuseCode |
     * | 10 | 7 | nchw | BOOL | opt, default false; FL3+ |
     * | out 0 | | out | T | [N, outH, outW, C]; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: input count: explicit 10 (11 with nchw), implicit 7 (8 with nchw). outH/outW per Spatial size.
     * Formula: out[n,y,x,c] = act( Σ_{i< fh, j< fw} in[n, y·sh + i − pt, x·sw + j − pl, c] / cnt ).
     * cnt = number of summed cells; padding cells are excluded from both sum and cnt.
     */
    ANEURALNETWORKS_AVERAGE_POOL_2D = 1,
    /**
     * Join n tensors along one axis. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 … n−1 | in_i | T | same rank ≤ 4; dims equal except on axis; 0-size FL3+ (any dim) |
     * | n | axis | INT32 | concatenation dim; 0 ≤ axis < rank |
     * | out 0 | out | T | in_0's shape with dim[axis] = Σ_i in_i.dim[axis]; quant: see rules |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM (restricted before FL3, see rules); FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: all inputs same operand type. TENSOR_QUANT8_ASYMM before FL3: every input's scale/zp = output's. TENSOR_QUANT8_ASYMM FL3+: inputs and output free q. TENSOR_QUANT8_ASYMM_SIGNED: free q. n ≥ 1.
     */
    ANEURALNETWORKS_CONCATENATION = 2,
    /**
     * 2-D convolution mixing all input channels, + bias, fused act. FL1.
     *
     * Type configurations:
     *
     * | config | input & output | filter | bias (TENSOR_INT32 ⇒ zp 0) | since |
     * |---|---|---|---|---|
     * | float32 | TENSOR_FLOAT32 | TENSOR_FLOAT32 | TENSOR_FLOAT32 | FL1 |
     * | quant | TENSOR_QUANT8_ASYMM | TENSOR_QUANT8_ASYMM | TENSOR_INT32, scale = s_in·s_f | FL1 |
     * | float16 | TENSOR_FLOAT16 | TENSOR_FLOAT16 | TENSOR_FLOAT16 | FL3 |
     * | quant, per-channel filter | TENSOR_QUANT8_ASYMM | TENSOR_QUANT8_SYMM_PER_CHANNEL, channelDim = 0 | TENSOR_INT32, scale 0; element c scaled by s_in·s_f[c] | FL3 |
     * | signed quant | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_INT32, scale = s_in·s_f | FL4 |
     * | signed, per-channel filter | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_QUANT8_SYMM_PER_CHANNEL, channelDim = 0 | TENSOR_INT32, scale 0; element c scaled by s_in·s_f[c] | FL4 |
     *
     * | E# | I# | input | type | shape / constraint |
     * |---|---|---|---|---|
     * | 0 | 0 | in | T_in | 4-D [N,H,W,Cin]; N = 0 allowed FL3+ |
     * | 1 | 1 | filter | T_f | 4-D [Cout, fh, fw, Cin] |
     * | 2 | 2 | bias | T_b | 1-D [Cout]; float configs: same type as input |
     * | 3 | – | pad_left | INT32 | |
     * | 4 | – | pad_right | INT32 | |
     * | 5 | – | pad_top | INT32 | |
     * | 6 | – | pad_bottom | INT32 | |
     * | – | 3 | padding | INT32 | PaddingCode |
     * | 7 | 4 | stride_w | INT32 | |
     * | 8 | 5 | stride_h | INT32 | |
     * | 9 | 6 | act | INT32 | FuseCode |
     * | 10 | 7 | nchw | BOOL | opt, default false; FL3+ |
     * | 11 | 8 | dilation_w | INT32 | opt, default 1; FL3+; if given, dilation_h must be given too |
     * | 12 | 9 | dilation_h | INT32 | opt, default 1; FL3+; if given, dilation_w must be given too |
     * | out 0 | | out | T_in | [N, outH, outW, Cout] |
     *
     * Rules: TENSOR_QUANT8_ASYMM output before FL3: s_out > s_in·s_f (requirement dropped FL3+). Dilation k: k − 1 skipped cells between filter taps (eff filter = (f−1)·k + 1). Input counts: explicit 10 / 11 / 13, implicit 7 / 8 / 10; with 10 inputs, the signature is implicit iff input 7 is BOOL.
     * Formula: out[n,y,x,o] = act( bias[o] + Σ_{i< fh, j< fw, c< Cin} in[n, y·sh + i·dh − pt, x·sw + j·dw − pl, c] · filter[o,i,j,c] ).
     */
    ANEURALNETWORKS_CONV_2D = 3,
    /**
     * Per-channel 2-D convolution: each input channel k yields m output channels, + bias, fused act. FL1.
     * Type configurations: same six as CONV_2D (same levels, same bias rules), except the TENSOR_QUANT8_SYMM_PER_CHANNEL filter has channelDim = 3.
     *
     * | E# | I# | input | type | shape / constraint |
     * |---|---|---|---|---|
     * | 0 | 0 | in | T_in | 4-D [N,H,W,Cin]; zero batch unspecified |
     * | 1 | 1 | filter | T_f | 4-D [1, fh, fw, Cout]; Cout = Cin·m |
     * | 2 | 2 | bias | T_b | 1-D [Cout]; float configs: same type as input |
     * | 3 | – | pad_left | INT32 | |
     * | 4 | – | pad_right | INT32 | |
     * | 5 | – | pad_top | INT32 | |
     * | 6 | – | pad_bottom | INT32 | |
     * | – | 3 | padding | INT32 | PaddingCode |
     * | 7 | 4 | stride_w | INT32 | |
     * | 8 | 5 | stride_h | INT32 | |
     * | 9 | 6 | m | INT32 | depth multiplier |
     * | 10 | 7 | act | INT32 | FuseCode |
     * | 11 | 8 | nchw | BOOL | opt, default false; FL3+ |
     * | 12 | 9 | dilation_w | INT32 | opt, default 1; FL3+; paired with dilation_h |
     * | 13 | 10 | dilation_h | INT32 | opt, default 1; FL3+; paired with dilation_w |
     * | out 0 | | out | T_in | [N, outH, outW, Cout] |
     *
     * Rules: TENSOR_QUANT8_ASYMM output before FL3: s_out > s_in·s_f. Input counts: explicit 11 / 12 / 14, implicit 8 / 9 / 11; with 11 inputs, the signature is implicit iff input 8 is BOOL. Per-channel filters have channelDim = 3 in both signatures.
     * Formula: out[n,y,x,k·m+q] = act( bias[k·m+q] + Σ_{i< fh, j< fw} in[n, y·sh + i·dh − pt, x·sw + j·dw − pl, k] · filter[0,i,j,k·m+q] ).
     */
    ANEURALNETWORKS_DEPTHWISE_CONV_2D = 4,
    /**
     * Move depth into bs×bs spatial tiles. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | 4-D [N,H,W,C] |
     * | 1 | bs | INT32 | ≥ 1; bs² divides C |
     * | 2 | nchw | BOOL | opt, default false; FL3+ |
     * | out 0 | out | T | [N, H·bs, W·bs, C/bs²]; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula : out[n, h·bs + i, w·bs + j, c] = in[n, h, w, (i·bs + j)·(C/bs²) + c].
     */
    ANEURALNETWORKS_DEPTH_TO_SPACE = 5,
    /**
     * Quantized → float. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T_in | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T_out | same shape as in |
     *
     * Types T_in by feature level: FL1 TENSOR_QUANT8_ASYMM; FL3 +TENSOR_QUANT8_SYMM, +TENSOR_QUANT8_SYMM_PER_CHANNEL; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Types T_out by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16. (FL1: output always TENSOR_FLOAT32.)
     * Formula: out = (in − zp)·scale (zp = 0 for the SYMM types; per-channel uses scales[c]).
     */
    ANEURALNETWORKS_DEQUANTIZE = 6,
    /**
     * Gather dim-0 slices of a table by index. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | lookups | TENSOR_INT32 | 1-D [k]; every value in [0, D0) |
     * | 1 | values | T | n-D [D0, D1, …], n ≥ 2 |
     * | out 0 | out | T | [k, D1, …] (rank n); quant: same q as values |
     *
     * Types T (values) by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_INT32, +TENSOR_QUANT8_ASYMM; FL4 +TENSOR_FLOAT16, +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: an index outside [0, D0) ⇒ execution fails with an error (no clamping, no zero fill).
     * Formula: out[i, …] = values[lookups[i], …].
     */
    ANEURALNETWORKS_EMBEDDING_LOOKUP = 7,
    /**
     * Element-wise floor. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4 |
     * | out 0 | out | T | same shape |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16.
     */
    ANEURALNETWORKS_FLOOR = 8,
    /**
     * Dense layer. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank 2…4; viewed as [B, I] with I = weights dim 1, B = numel / I; B = 0 allowed FL3+ |
     * | 1 | weights | T | 2-D [U, I] |
     * | 2 | bias | see rules | 1-D [U] |
     * | 3 | act | INT32 | FuseCode |
     * | out 0 | out | T | [B, U] |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: bias TENSOR_FLOAT32 for float32 input; quant input: bias TENSOR_INT32, zp 0, scale = s_in·s_weights. Float16 bias type unspecified (TENSOR_FLOAT16). TENSOR_QUANT8_ASYMM output before FL3: s_out > s_in·s_weights. numel(in) divisible by I. Inputs of rank > 2 are flattened to 2-D.
     * Formula: out = act(in2d · weightsᵀ + bias).
     */
    ANEURALNETWORKS_FULLY_CONNECTED = 9,
    /**
     * Key → row lookup with hit flags. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | lookups | TENSOR_INT32 | 1-D [k] |
     * | 1 | keys | TENSOR_INT32 | 1-D [n]; must be sorted ascending; keys[i] selects values[i] |
     * | 2 | values | T | [n, …], rank ≥ 2 |
     * | out 0 | out | T | [k, …]; TENSOR_QUANT8_ASYMM: same q as values |
     * | out 1 | hits | TENSOR_QUANT8_ASYMM | [k]; scale 1.0, zp 0; non-zero = hit, 0 = miss |
     *
     * Types T (values): FL1 TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM (no later additions).
     * Rules: miss ⇒ that output slice is all zeros ("zero values"; raw 0 for quant is the likely reading, unspecified) and hit = 0.
     * Formula: out[i] = values[j] where keys[j] = lookups[i]; else zeros.
     */
    ANEURALNETWORKS_HASHTABLE_LOOKUP = 10,
    /**
     * Divide by the L2 norm along an axis. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; rank < 4 only FL3+ (FL1–2: 4-D, normalised along depth) |
     * | 1 | axis | INT32 | opt, default −1; range [−n, n), negative counts from the end; FL3+ |
     * | out 0 | out | T | same shape; TENSOR_QUANT8_ASYMM: scale 1/128, zp 128; TENSOR_QUANT8_ASYMM_SIGNED: scale 1/128, zp 0 |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16, +TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: all-zero vector along the axis: result undefined before FL4; FL4+ output is (logical) 0.
     * Formula: out = x / sqrt(Σ_axis x²).
     */
    ANEURALNETWORKS_L2_NORMALIZATION = 11,
    /**
     * 2-D root-mean-square pooling; fused act. FL1.
     * Inputs: identical to AVERAGE_POOL_2D (explicit E0–E10, implicit I0–I7; N = 0 allowed FL3+; nchw opt FL3+).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | out 0 | out | T | [N, outH, outW, C] |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16. No quantized types.
     * Formula: out = act( sqrt( Σ_window x² / cnt ) ), cnt = number of summed cells ("sum(1)").
     */
    ANEURALNETWORKS_L2_POOL_2D = 12,
    /**
     * Cross-channel local response normalisation. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; rank < 4 only FL3+ (FL1: 4-D NHWC) |
     * | 1 | radius | INT32 | half-width r of the window |
     * | 2 | bias | FLOAT32 (T = float32) / FLOAT16 (T = float16) | ≠ 0 |
     * | 3 | alpha | same scalar type as bias | scale factor |
     * | 4 | beta | same scalar type as bias | exponent |
     * | 5 | axis | INT32 | opt, default −1; range [−n, n); FL3+ |
     * | out 0 | out | T | same shape |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32 (scalars FLOAT32); FL3 +TENSOR_FLOAT16.
     * Formula (along axis, default last; each 1-D slice independent): sqr(d) = Σ_{d' = d−r … d+r, inside the dim} x[d']²; out[d] = x[d] / (bias + alpha·sqr(d))^beta.
     */
    ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION = 13,
    /**
     * Element-wise sigmoid. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T | same shape; TENSOR_QUANT8_ASYMM: scale 1/256, zp 0; TENSOR_QUANT8_ASYMM_SIGNED: scale 1/256, zp −128 |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula: out = 1 / (1 + e^(−x)).
     */
    ANEURALNETWORKS_LOGISTIC = 14,
    /**
     * Locality-sensitive hashing of the input into bits / signatures. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | hash | F32 or F16 | 2-D [F, Bt]: F hash functions, Bt bits per function; sparse: Bt + ceil(log2 F) ≤ 32 |
     * | 1 | input | T | rank ≥ 1; any data type |
     * | 2 | weight | float tensor (same type as hash) | opt; 1-D [input.dim0]; absent ⇒ every weight 1.0 |
     * | 3 | type | scalar (INT32) | 1 SPARSE_DEPRECATED, 2 DENSE, 3 SPARSE (FL3+) |
     * | out 0 | out | TENSOR_INT32 for sparse; dense unspecified | sparse: [F]; dense: [F·Bt] |
     *
     * Types T (input) by feature level: FL1 TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16.
     * Rules: SPARSE (3, FL3+): each output = one int32 signature per hash function, plus offset k·2^Bt for function k (avoids cross-function collisions). SPARSE_DEPRECATED (1): same without offset (this was "SPARSE = 1" in FL1). DENSE (2): each output element is one bit, 0 or 1. The offset was added at FL3.
     * Formula : bit(f,b) = [ Σ_k w_k · Fingerprint64(bytes(hash[f,b] as float) ‖ bytes(input row k)) > 0 ], rows k = dim-0 slices. Sparse: sig_f = bits b = 0…Bt−1 packed MSB-first (+ f·2^Bt for type 3). Dense: out[f·Bt + b] = bit(f,b).
     */
    ANEURALNETWORKS_LSH_PROJECTION = 15,
    /**
     * One LSTM time step; optional CIFG, peephole, projection, clipping; layer norm FL3+. FL1.
     * Dims: B batch, I input size, U num_units, P output size (= U, or rows of W_proj when projecting).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x_t | T | [B, I] |
     * | 1 | W_xi input→input | T | [U, I]; opt (CIFG group) |
     * | 2 | W_xf input→forget | T | [U, I] |
     * | 3 | W_xc input→cell | T | [U, I] |
     * | 4 | W_xo input→output | T | [U, I] |
     * | 5 | W_hi recurrent→input | T | [U, P]; opt (CIFG group) |
     * | 6 | W_hf recurrent→forget | T | [U, P] |
     * | 7 | W_hc recurrent→cell | T | [U, P] |
     * | 8 | W_ho recurrent→output | T | [U, P] |
     * | 9 | W_ci cell→input (peephole) | T | [U]; opt |
     * | 10 | W_cf cell→forget (peephole) | T | [U]; opt |
     * | 11 | W_co cell→output (peephole) | T | [U]; opt |
     * | 12 | b_i input gate bias | T | [U]; opt (CIFG group) |
     * | 13 | b_f forget gate bias | T | [U] |
     * | 14 | b_c cell bias | T | [U] |
     * | 15 | b_o output gate bias | T | [U] |
     * | 16 | W_proj | T | [P, U]; opt (only with projection) |
     * | 17 | b_proj | T | [P]; opt (only with projection) |
     * | 18 | h_{t−1} output state in | T | [B, P] |
     * | 19 | C_{t−1} cell state in | T | [B, U] |
     * | 20 | g activation | INT32 | 0 none, 1 relu, 3 relu6, 4 tanh, 6 sigmoid |
     * | 21 | cell_clip | FLOAT32; FL3+: FLOAT16 when T = TENSOR_FLOAT16 | clamp C_t to [−clip, clip]; 0.0 = off |
     * | 22 | proj_clip | FLOAT32; FL3+: FLOAT16 when T = TENSOR_FLOAT16 | clamp projection to [−clip, clip]; 0.0 = off |
     * | 23 | LN weights, input gate | T | [U]; opt; FL3+ |
     * | 24 | LN weights, forget gate | T | [U]; opt; FL3+ |
     * | 25 | LN weights, cell gate | T | [U]; opt; FL3+ |
     * | 26 | LN weights, output gate | T | [U]; opt; FL3+ |
     * | out 0 | scratch | T | [B, 3U] with CIFG, [B, 4U] without |
     * | out 1 | h_t output state out | T | [B, P] |
     * | out 2 | C_t cell state out | T | [B, U] |
     * | out 3 | output | T | [B, P]; same values as h_t |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16. All tensor inputs and outputs share T.
     * Rules:
     * - CIFG group {1, 5, 12}: all present or all absent. All absent ⇒ CIFG: i_t = 1 − f_t.
     * - Peephole: {10, 11} present together (⇒ peephole on). 9 must be present iff peephole is on and CIFG is off; otherwise 9 absent.
     * - Projection: 16 present ⇔ projection layer; 17 may be present only when 16 is (optional even then).
     * - Layer norm (FL3+): {23…26} all present or all absent; with CIFG, 23 absent and {24, 25, 26} all-or-none. LN is on iff all LN weights required for the configuration are present.
     * - Input count: 23 at FL1–2; 27 from FL3.
     * - The activation codes of input 20 are not FuseCode values (4 tanh, 6 sigmoid).
     * Formula (σ = logistic, ⊙ = element-wise; peephole terms only when on):
     * i_t = σ(W_xi x + W_hi h_{t−1} + W_ci ⊙ C_{t−1} + b_i) (CIFG: i_t = 1 − f_t)
     * f_t = σ(W_xf x + W_hf h_{t−1} + W_cf ⊙ C_{t−1} + b_f)
     * C_t = clip(f_t ⊙ C_{t−1} + i_t ⊙ g(W_xc x + W_hc h_{t−1} + b_c), cell_clip)
     * o_t = σ(W_xo x + W_ho h_{t−1} + W_co ⊙ C_t + b_o)
     * h_t = clip(W_proj (o_t ⊙ g(C_t)) + b_proj, proj_clip) with projection, else o_t ⊙ g(C_t).
     * Layer norm (Ba et al., §3.1), per gate, take the pre-activation without bias (incl. peephole term), normalise over U to mean 0 / variance 1 (ε ≈ 1e-8), multiply by the LN weights, then add the gate bias.
     */
    ANEURALNETWORKS_LSTM = 16,
    /**
     * 2-D max over sliding windows, per channel; fused act. FL1.
     * Inputs: identical to AVERAGE_POOL_2D (explicit E0–E10, implicit I0–I7; N = 0 allowed FL3+; nchw opt FL3+).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | out 0 | out | T | [N, outH, outW, C]; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula: out[n,y,x,c] = act( max_{i< fh, j< fw} in[n, y·sh + i − pt, x·sw + j − pl, c] ) (over cells inside the input only).
     */
    ANEURALNETWORKS_MAX_POOL_2D = 17,
    /**
     * Element-wise a · b with BCAST; fused act. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | rank ≤ 4 |
     * | 1 | b | T | BCAST-compatible with a |
     * | 2 | act | INT32 | FuseCode; T = TENSOR_INT32 ⇒ must be 0 (NONE) |
     * | out 0 | product | T | BCAST shape; quant: s_out > s_a·s_b |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED, +TENSOR_INT32.
     * Rules: a and b same operand type. 0-size FL3+ (any dim). s_out > s_a·s_b applies to both quant types, with no end level stated (unlike CONV_2D/FULLY_CONNECTED).
     */
    ANEURALNETWORKS_MUL = 18,
    /**
     * Element-wise max(0, x). FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T | same shape; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     */
    ANEURALNETWORKS_RELU = 19,
    /**
     * Element-wise clamp to [−1, 1]: min(1, max(−1, x)). FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T | same shape; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     */
    ANEURALNETWORKS_RELU1 = 20,
    /**
     * Element-wise clamp to [0, 6]: min(6, max(0, x)). FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T | same shape; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     */
    ANEURALNETWORKS_RELU6 = 21,
    /**
     * Same data, new shape. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4 |
     * | 1 | shape | TENSOR_INT32 | 1-D; element count implied must equal numel(in); at most one entry −1 (that dim inferred); [−1] flattens to 1-D |
     * | out 0 | out | T | dims = shape with −1 resolved; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED; FL6 +TENSOR_INT32.
     * Rules: one dimension of the new shape may be −1, computed from the others. Element order (row-major) unchanged.
     */
    ANEURALNETWORKS_RESHAPE = 22,
    /**
     * Bilinear image resize. FL1. Two signatures: by size (S#, FL1) and by scale (F#, FL3+).
     *
     * | S# | F# | input | type | shape / constraint |
     * |---|---|---|---|---|
     * | 0 | 0 | in | T | 4-D [N,H,W,C]; N = 0 allowed FL3+ (scale form: always) |
     * | 1 | – | out_w | INT32 | output width |
     * | 2 | – | out_h | INT32 | output height |
     * | – | 1 | scale_w | FLOAT16 if T = TENSOR_FLOAT16, else FLOAT32 | out_w = floor(W·scale_w) |
     * | – | 2 | scale_h | FLOAT16 if T = TENSOR_FLOAT16, else FLOAT32 | out_h = floor(H·scale_h) |
     * | 3 | 3 | nchw | BOOL | opt, default false; FL3+ |
     * | 4 | 4 | align_corners | BOOL | opt, default false; FL4+; true ⇒ centres of the 4 corner pixels of in and out coincide |
     * | 5 | 5 | half_pixel_centers | BOOL | opt, default false; FL4+; pixel centres at +0.5 (TF 2 image.resize default); true ⇒ align_corners must be false |
     * | out 0 | | out | T | [N, out_h, out_w, C]; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16, +TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: Inputs 1, 2 are the output width and height. Aspect ratio is not preserved; output corners need not equal input corners. The signature is told apart by the type of input 1 (INT32 vs float).
     * Formula, per spatial axis: ratio = (align_corners ∧ out > 1) ? (in − 1)/(out − 1) : in/out (sizes after flooring); src = half_pixel ? (dst + 0.5)·ratio − 0.5 : dst·ratio; lo = max(floor(src), 0); hi = min(ceil(src), in − 1); t = src − lo; value = bilinear blend of the 4 neighbours (lo/hi on H × lo/hi on W) with weights (1 − t, t).
     */
    ANEURALNETWORKS_RESIZE_BILINEAR = 23,
    /**
     * Basic fully connected recurrent cell, one step. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | [B, I] |
     * | 1 | W (input weights) | T | [U, I] |
     * | 2 | R (recurrent weights) | T | [U, U] |
     * | 3 | bias | T | [U] |
     * | 4 | h_in (hidden state) | T | [B, U] |
     * | 5 | act | INT32 | FuseCode; NONE = linear |
     * | out 0 | h_out (hidden state) | T | [B, U] |
     * | out 1 | output | T | [B, U]; same values as h_out |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16. All input tensors share T.
     * Formula: h_out = act(W·x + R·h_in + bias) per batch row, i.e. out[b,u] = act(Σ_i W[u,i]·x[b,i] + Σ_j R[u,j]·h_in[b,j] + bias[u]).
     */
    ANEURALNETWORKS_RNN = 24,
    /**
     * Softmax with temperature β along one axis. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; FL1–2 only rank 2 or 4; 0-size FL3+ (any dim) |
     * | 1 | beta | FLOAT32 (T = float32 or quant) / FLOAT16 (T = float16) | > 0 |
     * | 2 | axis | INT32 | opt, default −1; range [−n, n); FL3+ |
     * | out 0 | out | T | same shape; TENSOR_QUANT8_ASYMM: scale 1/256, zp 0; TENSOR_QUANT8_ASYMM_SIGNED: scale 1/256, zp −128 |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula (each 1-D slice along axis, default last): out_i = exp(β·(x_i − max x)) / Σ_k exp(β·(x_k − max x)).
     */
    ANEURALNETWORKS_SOFTMAX = 25,
    /**
     * Move bs×bs spatial tiles into depth. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | 4-D [N,H,W,C] |
     * | 1 | bs | INT32 | ≥ 1; divides H and W |
     * | 2 | nchw | BOOL | opt, default false; FL3+ |
     * | out 0 | out | T | [N, H/bs, W/bs, C·bs²]; quant: same q |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula (inverse of DEPTH_TO_SPACE; ): out[n, h, w, (i·bs + j)·C + c] = in[n, h·bs + i, w·bs + j, c].
     */
    ANEURALNETWORKS_SPACE_TO_DEPTH = 26,
    /**
     * Stateful rank-limited (SVD-approximated) dense layer over a time window: feature filter, then time filter over a memory of M steps. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | [B, I] |
     * | 1 | weights_feature | T | [U, I]|
     * | 2 | weights_time | T | [U, M]|
     * | 3 | bias | T | opt; [U] |
     * | 4 | state_in | T | [B, (M − 1)·U·rank]|
     * | 5 | rank | scalar (INT32) | rank of the SVD approximation |
     * | 6 | act | INT32 | FuseCode; NONE = linear |
     * | out 0 | state_out | T | same shape as state_in |
     * | out 1 | output | T | [B, U] |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16. All input tensors share T.
     * Formula (rank 1): memory = push(conv1d(x, weights_feature, VALID)), oldest entry dropped; out = act(memory · weights_time + bias); each extra rank stacks another set of filters.
     * In general: F = U·rank filters; for each batch b and filter f: s = state_in[b, f·M … f·M + M − 1]; s[M−1] = Σ_i x[b,i]·weights_feature[f,i]; t_f = Σ_m s[m]·weights_time[f,m]; out[b,u] = act(bias[u] + Σ_{r< rank} t_{u·rank + r}); state_out[b, f-block] = s shifted left one slot with s[M−1] = 0.
     */
    ANEURALNETWORKS_SVDF = 27,
    /**
     * Element-wise hyperbolic tangent. FL1.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4; 0-size FL3+ (any dim) |
     * | out 0 | out | T | same shape; TENSOR_QUANT8_ASYMM: scale 1/128, zp 128; TENSOR_QUANT8_ASYMM_SIGNED: scale 1/128, zp 0 |
     *
     * Types T by feature level: FL1 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16, +TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     */
    ANEURALNETWORKS_TANH = 28,
    /* Feature level 2. */
    /**
     * Move batch blocks back into the spatial grid (inverse of SPACE_TO_BATCH_ND). FL2.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | 4-D [N,H,W,C] |
     * | 1 | block | TENSOR_INT32 | 1-D, one entry per spatial dim ([2]: bh, bw); every value ≥ 1 |
     * | 2 | nchw | BOOL | opt, default false; FL3+ |
     * | out 0 | out | T | [N/(bh·bw), H·bh, W·bw, C]; quant: same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: no crops input. N must be divisible by bh·bw.
     * Formula : out[n, h·bh + i, w·bw + j, c] = in[(i·bw + j)·N_out + n, h, w, c], N_out = N/(bh·bw).
     */
    ANEURALNETWORKS_BATCH_TO_SPACE_ND = 29,
    /**
     * Element-wise a / b with BCAST; fused act. FL2.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | rank ≤ 4 |
     * | 1 | b | T | BCAST-compatible with a |
     * | 2 | act | INT32 | FuseCode; T = TENSOR_INT32 ⇒ must be 0 (NONE) |
     * | out 0 | out | T | BCAST shape |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_INT32. No quantized types.
     * Rules: TENSOR_INT32 = floor division (rounds toward −∞): 5/2 = 2, −5/2 = −3. 0-size FL3+ (any dim). Division by zero unspecified.
     */
    ANEURALNETWORKS_DIV = 30,
    /**
     * Arithmetic mean over the listed axes. FL2.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4 |
     * | 1 | axes | TENSOR_INT32 | 1-D; every entry in [−rank, rank) |
     * | 2 | keep_dims | INT32 | > 0 ⇒ reduced dims kept with size 1; otherwise removed |
     * | out 0 | out | T | reduced shape; all dims reduced and keep_dims off ⇒ [1]; quant: same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: an empty axes list does NOT mean "reduce everything". Behaviour for empty axes otherwise unspecified. Repeated axes are allowed; each dim is reduced once.
     */
    ANEURALNETWORKS_MEAN = 31,
    /**
     * Pad with zeros. FL2.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≤ 4 |
     * | 1 | paddings | TENSOR_INT32 | 2-D [rank(in), 2]; [i,0] = cells before dim i, [i,1] = cells after dim i |
     * | out 0 | out | T | same rank; dim i = paddings[i,0] + in.dim[i] + paddings[i,1]; quant: same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM (pad value defined only FL3+); FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: pad value = logical 0 (quant: the zero point) FL3+; for TENSOR_QUANT8_ASYMM before FL3 the pad value is undefined. Negative paddings unspecified (require ≥ 0).
     */
    ANEURALNETWORKS_PAD = 32,
    /**
     * Zero-pad spatial dims, cut into blocks, move blocks into the batch dim. FL2.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | 4-D [N,H,W,C] |
     * | 1 | block | TENSOR_INT32 | 1-D [M], one entry per spatial dim (M = 2: bh, bw); every value ≥ 1 |
     * | 2 | paddings | TENSOR_INT32 | 2-D [M, 2]; every value ≥ 0; [i,0] before, [i,1] after spatial dim i |
     * | 3 | nchw | BOOL | opt, default false; FL3+ |
     * | out 0 | out | T | [N·bh·bw, (H + pt + pb)/bh, (W + pl + pr)/bw, C]; quant: same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM (pad value defined only FL3+); FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: pad value = logical 0 (quant: the zero point) FL3+; for TENSOR_QUANT8_ASYMM before FL3 undefined. The padded H, W must be divisible by bh, bw.
     * Formula : out[(i·bw + j)·N + n, h, w, c] = padded[n, h·bh + i, w·bw + j, c], padded = in with paddings applied.
     */
    ANEURALNETWORKS_SPACE_TO_BATCH_ND = 33,
    /**
     * Drop size-1 dimensions.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≤ 4 |
     * | 1 | axes | TENSOR_INT32 | optional; 1-D list of dims to drop (0-based). Omitted → drop every size-1 dim |
     * | out 0 | squeezed | T | input shape minus dropped dims; same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: a listed axis whose size ≠ 1 → error. If every dim is 1 and all are dropped → output shape `[1]`.
     * Negative axis values: unspecified. Zero-sized input: unspecified. Data unchanged (pure reshape).
     */
    ANEURALNETWORKS_SQUEEZE = 34,
    /**
     * Strided sub-tensor extraction, optionally reversing and dropping dims.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≤ 4 |
     * | 1 | begin | TENSOR_INT32 | 1-D, length n |
     * | 2 | end | TENSOR_INT32 | 1-D, length n |
     * | 3 | strides | TENSOR_INT32 | 1-D, length n; every entry ≠ 0; negative → reverse traversal |
     * | 4 | begin_mask | INT32 | bit i set → begin[i] ignored, widest range used on dim i |
     * | 5 | end_mask | INT32 | bit i set → end[i] ignored, widest range used on dim i |
     * | 6 | shrink_axis_mask | INT32 | bit i set → dim i removed, taking element begin[i]; dim i's slice must have size 1 (e.g. end[i] = begin[i] + 1) |
     * | out 0 | slice | T | rank n − popcount(shrink_axis_mask); same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: bit i of a mask refers to dim i (bit 0 = dim 0). All dims shrunk → output shape `[1]`.
     * Negative begin/end (index from end) and clamping of out-of-range begin/end: unspecified. Zero-sized: unspecified.
     * Formula: on dim i take indices begin[i] + k·strides[i], k = 0,1,…, while < end[i] (stride > 0) or > end[i] (stride < 0);
     * out_dim[i] ≈ ceil((end[i] − begin[i]) / strides[i]) (≥ 0).
     */
    ANEURALNETWORKS_STRIDED_SLICE = 35,
    /**
     * Element-wise a − b with fused activation.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | n-D, n ≤ 4 |
     * | 1 | b | T | BCAST-compatible with a |
     * | 2 | activation | INT32 | FuseCode; must be 0 (NONE) when T = TENSOR_INT32 |
     * | out 0 | a − b | T | BCAST shape; free q for Q8 |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32; FL3 +TENSOR_FLOAT16, +TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED, +TENSOR_INT32.
     * Rules: BCAST (example: {4,1,2} with {5,4,3,1} → {5,4,3,2}). Zero-sized inputs allowed since FL3, with the
     * zero-size extension of BCAST. Input 1's q vs input 0's: unspecified for SUB (free in ADD's doc).
     * Formula: out = act(a − b).
     */
    ANEURALNETWORKS_SUB = 36,
    /**
     * Permute dimensions.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≤ 4; zero-sized allowed since FL3 |
     * | 1 | perm | TENSOR_INT32 | optional; 1-D permutation of 0..n−1. Omitted → (n−1, …, 1, 0) |
     * | out 0 | transposed | T | out.dim[i] = in.dim[perm[i]]; same q |
     *
     * Types T by feature level: FL2 TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL3 +TENSOR_FLOAT16; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: default perm on 2-D = matrix transpose.
     * Formula: out[i_0,…,i_{n−1}] = in[j] where j[perm[k]] = i_k.
     */
    ANEURALNETWORKS_TRANSPOSE = 37,
    /* Feature level 3. */
    /**
     * Element-wise |x|.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | \\|x\\| | T | same shape as input 0 |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32; FL4 +TENSOR_INT32.
     * Rules: output type = T (implied). |INT32_MIN|: unspecified.
     */
    ANEURALNETWORKS_ABS = 38,
    /**
     * Index of the largest element along one axis.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≥ 1; must be non-empty |
     * | 1 | axis | INT32 | range [−n, n); negative counts from the end (−1 = last) |
     * | out 0 | indices | TENSOR_INT32 | (n−1)-D: input shape with `axis` removed; n = 1 → `[1]` |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: index = 0-based position along `axis`. Tie-breaking: unspecified (first occurrence).
     */
    ANEURALNETWORKS_ARGMAX = 39,
    /**
     * Index of the smallest element along one axis. Identical contract to ARGMAX (39) with min instead of max.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≥ 1; non-empty |
     * | 1 | axis | INT32 | [−n, n); negative from end |
     * | out 0 | indices | TENSOR_INT32 | input shape minus `axis`; n = 1 → `[1]` |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: tie-breaking unspecified.
     */
    ANEURALNETWORKS_ARGMIN = 40,
    /**
     * Apply per-class box deltas to ROI boxes, clip to image.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | rois | T | `[num_rois, 4]`, rows `[x1, y1, x2, y2]`; num_rois may be 0. T = TENSOR_QUANT16_ASYMM → scale 0.125, zp 0 |
     * | 1 | deltas | T (float); Q8 when T = TENSOR_QUANT16_ASYMM | `[num_rois, num_classes·4]`, per class `[dx, dy, dw, dh]`; num_rois may be 0 |
     * | 2 | batch_index | TENSOR_INT32 | `[num_rois]`; batch of each box; boxes of one batch are contiguous; num_rois may be 0 |
     * | 3 | image_info | type unspecified (T; QUANT16_ASYMM scale 0.125 zp 0) | `[batches, 2]`, rows `[image_height, image_width]` |
     * | out 0 | boxes | T | `[num_rois, num_classes·4]`, per class `[x1, y1, x2, y2]`; T = TENSOR_QUANT16_ASYMM → scale 0.125, zp 0 |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT16_ASYMM (deltas TENSOR_QUANT8_ASYMM); FL4 deltas may also be TENSOR_QUANT8_ASYMM_SIGNED (type exists only from FL4).
     * Rules: dx, dy = centre shift relative to box width/height; dw, dh = log-scale size factors. Output boxes
     * clipped to the image of their batch. Zero num_rois → empty output.
     * Formula (per box, per class):
     * w = x2 − x1, h = y2 − y1, cx = x1 + w/2, cy = y1 + h/2;
     * cx' = cx + dx·w, cy' = cy + dy·h, w' = w·e^{dw}, h' = h·e^{dh};
     * out = [clamp(cx' − w'/2, 0, W), clamp(cy' − h'/2, 0, H), clamp(cx' + w'/2, 0, W), clamp(cy' + h'/2, 0, H)], (H, W) = image_info[batch].
     */
    ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM = 41,
    /**
     * LSTM over a sequence, forward and backward cells, optional auxiliary input.
     *
     * Notation: Tm = max_time, B = batch_size, I = input_size, A = aux_input_size; fwU/bwU = fw/bw num_units;
     * fwO/bwO = fw/bw output_size (= fwU/bwU, or the projection's output dim when projection weights are given).
     * All tensors (inputs and outputs) share one type T.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | time-major `[Tm, B, I]`; batch-major `[B, Tm, I]` (per input 52) |
     * | 1 | fw input-to-input W | T | optional; `[fwU, I]` |
     * | 2 | fw input-to-forget W | T | `[fwU, I]` |
     * | 3 | fw input-to-cell W | T | `[fwU, I]` |
     * | 4 | fw input-to-output W | T | `[fwU, I]` |
     * | 5 | fw recurrent-to-input W | T | optional; `[fwU, fwO]` |
     * | 6 | fw recurrent-to-forget W | T | `[fwU, fwO]` |
     * | 7 | fw recurrent-to-cell W | T | `[fwU, fwO]` |
     * | 8 | fw recurrent-to-output W | T | `[fwU, fwO]` |
     * | 9 | fw cell-to-input W (peephole) | T | optional; `[fwU]` |
     * | 10 | fw cell-to-forget W (peephole) | T | optional; `[fwU]` |
     * | 11 | fw cell-to-output W (peephole) | T | optional; `[fwU]` |
     * | 12 | fw input gate bias | T | optional; `[fwU]` |
     * | 13 | fw forget gate bias | T | `[fwU]` |
     * | 14 | fw cell gate bias | T | `[fwU]` |
     * | 15 | fw output gate bias | T | `[fwU]` |
     * | 16 | fw projection W | T | optional; `[fwO, fwU]` |
     * | 17 | fw projection bias | T | optional; `[fwO]` |
     * | 18 | bw input-to-input W | T | optional; `[bwU, I]` |
     * | 19 | bw input-to-forget W | T | `[bwU, I]` |
     * | 20 | bw input-to-cell W | T | `[bwU, I]` |
     * | 21 | bw input-to-output W | T | `[bwU, I]` |
     * | 22 | bw recurrent-to-input W | T | optional; `[bwU, bwO]` |
     * | 23 | bw recurrent-to-forget W | T | `[bwU, bwO]` |
     * | 24 | bw recurrent-to-cell W | T | `[bwU, bwO]` |
     * | 25 | bw recurrent-to-output W | T | `[bwU, bwO]` |
     * | 26 | bw cell-to-input W | T | optional; `[bwU]` |
     * | 27 | bw cell-to-forget W | T | optional; `[bwU]` |
     * | 28 | bw cell-to-output W | T | optional; `[bwU]` |
     * | 29 | bw input gate bias | T | optional; `[bwU]` |
     * | 30 | bw forget gate bias | T | `[bwU]` |
     * | 31 | bw cell gate bias | T | `[bwU]` |
     * | 32 | bw output gate bias | T | `[bwU]` |
     * | 33 | bw projection W | T | optional; `[bwO, bwU]` |
     * | 34 | bw projection bias | T | optional; `[bwO]` |
     * | 35 | fw activation state in | T | `[B, fwO]` |
     * | 36 | fw cell state in | T | `[B, fwU]` |
     * | 37 | bw activation state in | T | `[B, bwO]` |
     * | 38 | bw cell state in | T | `[B, bwU]` |
     * | 39 | aux input | T | optional; `[Tm, B, A]` |
     * | 40 | fw aux input-to-input W | T | optional; `[fwU, A]` |
     * | 41 | fw aux input-to-forget W | T | optional; `[fwU, A]` |
     * | 42 | fw aux input-to-cell W | T | optional; `[fwU, A]` |
     * | 43 | fw aux input-to-output W | T | optional; `[fwU, A]` |
     * | 44 | bw aux input-to-input W | T | optional; `[bwU, A]` |
     * | 45 | bw aux input-to-forget W | T | optional; `[bwU, A]` |
     * | 46 | bw aux input-to-cell W | T | optional; `[bwU, A]` |
     * | 47 | bw aux input-to-output W | T | optional; `[bwU, A]` |
     * | 48 | activation g | scalar (type unspecified; INT32) | 0 none, 1 ReLU, 3 ReLU6, 4 tanh, 6 sigmoid |
     * | 49 | cell_clip | FLOAT32 if T = TENSOR_FLOAT32; FLOAT16 if T = TENSOR_FLOAT16 | cell state clamped to [−cell_clip, cell_clip]; 0.0 → no clipping |
     * | 50 | proj_clip | FLOAT32 / FLOAT16 as for 49 | projection output clamped to [−proj_clip, proj_clip]; 0.0 → no clipping |
     * | 51 | merge_outputs | BOOL | true → fw and bw outputs concatenated into output 0 |
     * | 52 | time_major | BOOL | true → `[Tm, B, …]`; false → `[B, Tm, …]` for input and outputs |
     * | 53 | fw input-gate layer-norm W | T | optional; `[fwU]` |
     * | 54 | fw forget-gate layer-norm W | T | optional; `[fwU]` |
     * | 55 | fw cell-gate layer-norm W | T | optional; `[fwU]` |
     * | 56 | fw output-gate layer-norm W | T | optional; `[fwU]` |
     * | 57 | bw input-gate layer-norm W | T | optional; `[bwU]` |
     * | 58 | bw forget-gate layer-norm W | T | optional; `[bwU]` |
     * | 59 | bw cell-gate layer-norm W | T | optional; `[bwU]` |
     * | 60 | bw output-gate layer-norm W | T | optional; `[bwU]` |
     * | out 0 | fw output | T | time-major `[Tm, B, fwO]` or, merged, `[Tm, B, fwO + bwO]`; batch-major `[B, Tm, fwO]` / `[B, Tm, fwO + bwO]` |
     * | out 1 | bw output | T | time-major `[Tm, B, bwO]`; batch-major `[B, Tm, bwO]`; unused when merge_outputs |
     * | out 2 | fw activation state out | T | FL4, optional; `[B, fwO]`, state after the last step |
     * | out 3 | fw cell state out | T | FL4, optional; `[B, fwU]` |
     * | out 4 | bw activation state out | T | FL4, optional; `[B, bwO]` |
     * | out 5 | bw cell state out | T | FL4, optional; `[B, bwU]` |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT32, TENSOR_FLOAT16 (one type for every tensor operand). 61 inputs at FL3 and FL4.
     * Rules:
     * - Rank 3 for input/aux input/outputs 0–1.
     * - Outputs 2–5: all four present or all four omitted (FL4). At FL3 only outputs 0–1 exist; the op keeps no
     *  internal state, so chaining cells with state propagation is not supported there.
     * - Input linking modes:
     *  - regular (aux input 39 omitted): fw cell reads input 0; bw cell reads input 0 reversed in time.
     *  - cross-linking (aux input 39 and aux weights 40–47 present): each cell reads input 0 and aux input
     *  (bw cell: both reversed), aux term via its aux weights.
     *  - parallel linking (FL4; aux input present, aux weights 40–47 omitted): fw cell reads input 0; bw cell
     *  reads aux input (reversed).
     * - Per-cell math (gates i, f, c, o; peephole; CIFG; projection; layer norm) and the optional-group rules
     *  are not restated in this op's doc; the single-step LSTM (16) defines them.
     * Formula (per direction, per step t; σ = logistic; ⊙ = element-wise; W_x·, W_h·, W_c· = input, recurrent, peephole weights):
     * i = σ(W_xi x + W_hi h + W_ci C + b_i) [CIFG: i = 1 − f]; f = σ(W_xf x + W_hf h + W_cf C + b_f);
     * C' = clip(f ⊙ C + i ⊙ g(W_xc x + W_hc h + b_c), cell_clip); o = σ(W_xo x + W_ho h + W_co C' + b_o);
     * h' = clip(W_proj(o ⊙ g(C')) + b_proj, proj_clip) if projection, else o ⊙ g(C').
     */
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM = 42,
    /**
     * Basic RNN over a sequence, forward and backward, optional auxiliary input.
     *
     * Notation: Tm, B, I, A as above; fwU/bwU = fw/bw num_units. All tensors one type T.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | time_major `[Tm, B, I]`, else `[B, Tm, I]` |
     * | 1 | fw weights | T | `[fwU, I]` |
     * | 2 | fw recurrent weights | T | `[fwU, fwU]` |
     * | 3 | fw bias | T | `[fwU]` |
     * | 4 | fw hidden state in | T | `[B, fwU]`; state before the first step |
     * | 5 | bw weights | T | `[bwU, I]` |
     * | 6 | bw recurrent weights | T | `[bwU, bwU]` |
     * | 7 | bw bias | T | `[bwU]` |
     * | 8 | bw hidden state in | T | `[B, bwU]` |
     * | 9 | aux input | T | optional; time_major `[Tm, B, A]`, else `[B, Tm, A]` |
     * | 10 | fw aux weights | T | optional; `[fwU, A]` |
     * | 11 | bw aux weights | T | optional; `[bwU, A]` |
     * | 12 | activation | INT32 (FuseCode) | NONE → linear |
     * | 13 | time_major | BOOL | layout of input, aux input and outputs |
     * | 14 | merge_outputs | BOOL | true → fw and bw concatenated in output 0; false → separate |
     * | out 0 | fw output | T | `[Tm, B, X]` (time_major) or `[B, Tm, X]`; X = fwU + bwU if merged else fwU |
     * | out 1 | bw output | T | `[Tm, B, bwU]` or `[B, Tm, bwU]`; not produced when merge_outputs |
     * | out 2 | fw hidden state out | T | FL4, optional; `[B, fwU]` after last step; present iff out 3 present |
     * | out 3 | bw hidden state out | T | FL4, optional; `[B, bwU]`; present iff out 2 present |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT32, TENSOR_FLOAT16 (all tensor inputs same type).
     * Rules: linking modes as in BIDIRECTIONAL_SEQUENCE_LSTM (42): regular (no aux), cross-linking (aux input +
     * aux weights), parallel linking (FL4: aux input, no aux weights → bw cell reads aux input). At FL3 no state
     * outputs and no internal state.
     * Formula: fw: for s = 1..Tm: h_fw = act(x_s·W_fwᵀ + h_fw·R_fwᵀ + b_fw), out_fw[s] = h_fw.
     * bw: for s = Tm..1: h_bw = act(x_s·W_bwᵀ + h_bw·R_bwᵀ + b_bw), out_bw[s] = h_bw.
     * Cross-linking adds aux_s·W_auxᵀ inside act for each direction.
     */
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN = 43,
    /**
     * Per-class (soft) NMS over scored boxes, with per-image output cap.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | scores | T | `[num_rois, num_classes]`; rows grouped by batch; num_rois may be 0 |
     * | 1 | boxes | T (float T); TENSOR_QUANT16_ASYMM scale 0.125 zp 0 if T = TENSOR_QUANT8_ASYMM; TENSOR_QUANT16_ASYMM scale 0.125 zp −128 (as written) if T = TENSOR_QUANT8_ASYMM_SIGNED | `[num_rois, num_classes·4]`, per class `[x1, y1, x2, y2]`; row order matches input 0; num_rois may be 0 |
     * | 2 | batch_index | TENSOR_INT32 | `[num_rois]`; boxes of one batch contiguous |
     * | 3 | score_threshold | FLOAT32 | boxes with score < threshold removed before NMS |
     * | 4 | max_detections | INT32 | max selected boxes per image; negative → unlimited |
     * | 5 | nms_kernel | INT32 | 0 hard, 1 linear, 2 gaussian |
     * | 6 | iou_threshold | FLOAT32 | used by hard and linear; ignored by gaussian |
     * | 7 | sigma | FLOAT32 | used by gaussian only |
     * | 8 | nms_score_threshold | FLOAT32 | boxes whose updated score < this are dropped during soft-NMS |
     * | out 0 | scores | T | `[num_output_rois]`; grouped by batch, order inside a batch not guaranteed; Q8 → same q |
     * | out 1 | boxes | type of input 1 | `[num_output_rois, 4]`; order matches out 0; TENSOR_QUANT16_ASYMM → scale 0.125, zp 0 |
     * | out 2 | classes | TENSOR_INT32 | `[num_output_rois]`; class of each box |
     * | out 3 | batch_index | TENSOR_INT32 | `[num_output_rois]`; boxes of one batch contiguous |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: valid box ⇔ x1 ≤ x2 and y1 ≤ y2. NMS per class: repeatedly take the highest-score pending box,
     * remove it from pending, rescale the rest by the kernel using IoU with it, drop any below
     * nms_score_threshold. num_output_rois is data-dependent → output dims known only after execution.
     * when T = TENSOR_FLOAT16, inputs 3, 6, 7, 8 must be FLOAT16; boxes for
     * T = TENSOR_QUANT8_ASYMM_SIGNED use zp 0 (zp −128 is outside QUANT16_ASYMM's range).
     * Formula: hard: s' = s·[IoU < thr]; linear: s' = s·(IoU < thr ? 1 : 1 − IoU); gaussian: s' = s·exp(−IoU²/σ).
     */
    ANEURALNETWORKS_BOX_WITH_NMS_LIMIT = 44,
    /**
     * Element-wise type conversion.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | Tin | rank ≥ 1 |
     * | out 0 | y | Tout | same shape as input 0 |
     *
     * Types by feature level: FL3 Tin, Tout ∈ {TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM} (any pair); FL4 + identity casts (Tout = Tin) for TENSOR_BOOL8, TENSOR_INT32, TENSOR_QUANT16_ASYMM, TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_SYMM.
     * Rules: scale and zeroPoint are ignored: quantized tensors are converted as their raw integers
     * (QUANT8_ASYMM = uint8 values). Out-of-range/rounding behaviour: unspecified (to uint8 saturates to
     * [0, 255]; float→int truncates via static_cast).
     */
    ANEURALNETWORKS_CAST = 45,
    /**
     * Reorder channels across groups.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≤ 4 |
     * | 1 | num_groups | INT32 | G; size of the shuffled dim must be divisible by G |
     * | 2 | axis | INT32 | dim to shuffle; [−n, n); negative from end |
     * | out 0 | shuffled | T | same shape; same q |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula: C = dim size, gs = C/G; out[k·G + g] = in[g·gs + k], g ∈ [0, G), k ∈ [0, gs) (along `axis`).
     */
    ANEURALNETWORKS_CHANNEL_SHUFFLE = 46,
    /**
     * Decode anchor-relative box deltas, then hard NMS, fixed-size outputs (SSD-style).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | scores | T | `[batches, num_anchors, num_classes]`; class 0 = background, ignored |
     * | 1 | deltas | T | `[batches, num_anchors, length_box_encoding]`; first 4 values `[dy, dx, dh, dw]`, rest ignored |
     * | 2 | anchors | T | `[num_anchors, 4]`, rows `[ctr_y, ctr_x, h, w]` |
     * | 3 | y_scale | FLOAT32 | scaling factor for dy |
     * | 4 | x_scale | FLOAT32 | scaling factor for dx |
     * | 5 | h_scale | FLOAT32 | scaling factor for dh |
     * | 6 | w_scale | FLOAT32 | scaling factor for dw |
     * | 7 | use_regular_nms | BOOL | true → NMS separately per class; false → one NMS on each anchor's best class score (faster) |
     * | 8 | max_num_detections | INT32 | output box count per batch; lowest scores dropped to fit |
     * | 9 | max_classes_per_detection | INT32 | used only when input 7 = false |
     * | 10 | max_detections_per_class | INT32 | used only when input 7 = true |
     * | 11 | score_threshold | FLOAT16 if T = TENSOR_FLOAT16; FLOAT32 if T = TENSOR_FLOAT32 | boxes with score < threshold removed before NMS |
     * | 12 | iou_threshold | FLOAT16 / FLOAT32 as for 11 | hard-NMS IoU threshold |
     * | 13 | bg_in_label | BOOL | true → background counted as label 0, real classes start at 1; false → real classes start at 0 |
     * | out 0 | scores | T | `[batches, max_num_detections]` |
     * | out 1 | boxes | type unspecified (type of input 2 = T) | `[batches, max_num_detections, 4]`, rows `[y1, x1, y2, x2]` |
     * | out 2 | classes | TENSOR_INT32 | `[batches, max_num_detections]`; class label per detection |
     * | out 3 | num_detections | TENSOR_INT32 | `[batches]`; count of valid detections per batch |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32.
     * Rules: dy, dx = linear-scale centre corrections relative to anchor size; dh, dw = log-scale size
     * corrections. Entries of outputs 0–2 past num_detections[b]: content unspecified (zero-filled).
     * Zero-sized: unspecified.
     * for T = TENSOR_FLOAT16, inputs 3–6 are FLOAT16; when input 7 = false,
     * outputs 0–2 have max_num_detections·max_classes_per_detection slots instead of max_num_detections;
     * validation requires scales > 0, thresholds ≥ 0, num_classes > 1, length_box_encoding ≥ 4, max_num_detections > 0.
     * Formula (decode):
     * cy = dy/y_scale·h_a + cy_a; cx = dx/x_scale·w_a + cx_a; h = h_a·exp(dh/h_scale); w = w_a·exp(dw/w_scale);
     * box = [cy − h/2, cx − w/2, cy + h/2, cx + w/2].
     */
    ANEURALNETWORKS_DETECTION_POSTPROCESSING = 47,
    /**
     * Element-wise x == y → bool.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | BCAST-compatible with x |
     * | out 0 | x == y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: BCAST. Whether Q8 inputs may differ in scale/zp, and whether comparison uses real values: unspecified
     * (different q allowed, compares dequantized values).
     */
    ANEURALNETWORKS_EQUAL = 48,
    /**
     * Element-wise e^x.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | e^x | T | same shape |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32.
     */
    ANEURALNETWORKS_EXP = 49,
    /**
     * Insert a size-1 dimension.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≥ 1 |
     * | 1 | axis | INT32 | position of the new dim; range [−(n+1), n+1); negative counts from end |
     * | out 0 | expanded | T | (n+1)-D, same data; same q |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Formula: a = axis < 0 ? axis + n + 1 : axis; out.shape = in.shape[:a] ++ [1] ++ in.shape[a:].
     */
    ANEURALNETWORKS_EXPAND_DIMS = 50,
    /**
     * Select slices along an axis by index tensor.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | data | T | n-D, n ≥ 1 |
     * | 1 | axis | INT32 | [−n, n); negative from end |
     * | 2 | indices | TENSOR_INT32 | k-D; every value in [0, data.dim[axis]) |
     * | out 0 | gathered | T | (n + k − 1)-D: data.dims[:axis] ++ indices.dims ++ data.dims[axis+1:]; same q |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: note operand order (axis before indices). Out-of-range index: forbidden, consequence unspecified (treat as
     * execution error). Negative index values: not allowed by the bound above.
     * Formula: out[a…, i…, b…] = data[a…, indices[i…], b…] (a… = the `axis` leading coords).
     */
    ANEURALNETWORKS_GATHER = 51,
    /**
     * RPN proposals: anchors + deltas → boxes, pre-NMS top-N, size filter, hard NMS, post-NMS top-N.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | scores | T | NHWC `[batches, H, W, num_anchors]`; NCHW `[batches, num_anchors, H, W]` |
     * | 1 | deltas | T (type unspecified; T) | NHWC `[batches, H, W, num_anchors·4]`; NCHW `[batches, num_anchors·4, H, W]`; per anchor `[dx, dy, dw, dh]` |
     * | 2 | anchors | T (float); TENSOR_QUANT16_SYMM scale 0.125 if T is Q8 | `[num_anchors, 4]`, rows `[x1, y1, x2, y2]` |
     * | 3 | image_info | T (float); TENSOR_QUANT16_SYMM scale 0.125 if T is Q8 (as written; TENSOR_QUANT16_ASYMM scale 0.125 zp 0) | `[batches, 2]`, rows `[image_height, image_width]` |
     * | 4 | height_stride | FLOAT32 | original image height / feature-map height |
     * | 5 | width_stride | FLOAT32 | original image width / feature-map width |
     * | 6 | pre_nms_top_n | INT32 | max boxes entering NMS (lowest scores dropped); ≤ 0 → unlimited |
     * | 7 | post_nms_top_n | INT32 | max boxes leaving NMS (lowest scores dropped); ≤ 0 → unlimited |
     * | 8 | iou_threshold | FLOAT32 | hard-NMS IoU threshold |
     * | 9 | min_size | FLOAT32 | boxes with height or width < min_size removed |
     * | 10 | layout | BOOL | true → NCHW for inputs 0 and 1; false → NHWC |
     * | out 0 | scores | T | `[num_output_rois]`; grouped by batch, order in batch not guaranteed; Q8 → same q |
     * | out 1 | boxes | "type of input 3" (as written; TENSOR_QUANT16_ASYMM for Q8) | `[num_output_rois, 4]`, `[x1, y1, x2, y2]`; order matches out 0; TENSOR_QUANT16_ASYMM → scale 0.125, zp 0 |
     * | out 2 | batch_index | TENSOR_INT32 | `[num_output_rois]`; boxes of one batch contiguous |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: valid box ⇔ x1 ≤ x2, y1 ≤ y2. dx, dy linear-scale centre corrections relative to width/height;
     * dw, dh log-scale. Channel dim is the last dim in NHWC. num_output_rois data-dependent → output dims known
     * only after execution. for T = TENSOR_FLOAT16, inputs 4, 5, 8, 9 are FLOAT16.
     * Formula: per batch, box for grid cell (h, w), anchor a =
     * anchors[a] + [w·width_stride, h·height_stride, w·width_stride, h·height_stride], decoded and clipped as in
     * AXIS_ALIGNED_BBOX_TRANSFORM (41) with image_info[batch]; then top pre_nms_top_n by score → min_size
     * filter → hard NMS (iou_threshold) keeping ≤ post_nms_top_n.
     */
    ANEURALNETWORKS_GENERATE_PROPOSALS = 52,
    /**
     * Element-wise x > y → bool.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | BCAST-compatible |
     * | out 0 | x > y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: as EQUAL (48).
     */
    ANEURALNETWORKS_GREATER = 53,
    /**
     * Element-wise x ≥ y → bool.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | BCAST-compatible |
     * | out 0 | x ≥ y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: as EQUAL (48).
     */
    ANEURALNETWORKS_GREATER_EQUAL = 54,
    /**
     * 2-D convolution with channels split into G independent groups.
     *
     * Notation: Cin = G·Cg (Cg = depth_group), Cout divisible by G, M = Cout/G. Shapes shown NHWC; NCHW when layout = true.
     * Two signatures, told apart by input count.
     *
     * Explicit padding (12 inputs):
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | `[B, H, W, Cin]` |
     * | 1 | filter | see configs | `[Cout, fh, fw, Cg]`; Cout % G = 0; per-channel quant → channelDim = 0 |
     * | 2 | bias | see configs | `[Cout]` |
     * | 3 | pad_left | INT32 | width dim |
     * | 4 | pad_right | INT32 | width dim |
     * | 5 | pad_top | INT32 | height dim |
     * | 6 | pad_bottom | INT32 | height dim |
     * | 7 | stride_w | INT32 | |
     * | 8 | stride_h | INT32 | |
     * | 9 | num_groups | INT32 | G |
     * | 10 | activation | INT32 | FuseCode |
     * | 11 | layout | BOOL | true → NCHW for input 0 and output 0 |
     * | out 0 | output | T | `[B, out_h, out_w, Cout]`; Q8 → free q |
     *
     * Implicit padding (9 inputs):
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | as explicit 0 |
     * | 1 | filter | see configs | as explicit 1 |
     * | 2 | bias | see configs | as explicit 2 |
     * | 3 | padding | INT32 | PaddingCode (1 SAME, 2 VALID) |
     * | 4 | stride_w | INT32 | |
     * | 5 | stride_h | INT32 | |
     * | 6 | num_groups | INT32 | G |
     * | 7 | activation | INT32 | FuseCode |
     * | 8 | layout | BOOL | true → NCHW for input 0 and output 0 |
     * | out 0 | output | T | `[B, out_h, out_w, Cout]`; Q8 → free q |
     *
     * Type configurations (input / filter / bias / output):
     *
     * | since | input, output | filter | bias |
     * |---|---|---|---|
     * | FL3 | TENSOR_FLOAT16 | TENSOR_FLOAT16 | TENSOR_FLOAT16 |
     * | FL3 | TENSOR_FLOAT32 | TENSOR_FLOAT32 | TENSOR_FLOAT32 |
     * | FL3 | TENSOR_QUANT8_ASYMM | TENSOR_QUANT8_ASYMM | TENSOR_INT32, zp 0, scale = in.scale·filter.scale |
     * | FL3 | TENSOR_QUANT8_ASYMM | TENSOR_QUANT8_SYMM_PER_CHANNEL (channelDim 0) | TENSOR_INT32, zp 0, scale 0; effective scale[i] = in.scale·filter.scales[i] |
     * | FL4 | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_INT32, zp 0, scale = in.scale·filter.scale |
     * | FL4 | TENSOR_QUANT8_ASYMM_SIGNED | TENSOR_QUANT8_SYMM_PER_CHANNEL (channelDim 0) | TENSOR_INT32, zp 0, scale 0; effective scale[i] = in.scale·filter.scales[i] |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM (+per-channel filter); FL4 +TENSOR_QUANT8_ASYMM_SIGNED (+per-channel filter).
     * Rules: rank 4. Layout flag exists from FL3 (the op's first level) and is a required input in both signatures.
     * No dilation inputs. Zero-sized input: unspecified. Output size formula not restated in this op's doc
     * (conv convention: explicit out = ⌊(in + pad_a + pad_b − f)/stride⌋ + 1; SAME out = ⌈in/stride⌉ per PaddingCode).
     * Formula: out[b, i, j, g·M + q] = act( Σ_{di,dj,dk} in[b, stride_h·i + di, stride_w·j + dj, g·Cg + dk] · filter[g·M + q, di, dj, dk] + bias[g·M + q] ),
     * input coords offset by the top/left padding (zero outside), dk ∈ [0, Cg).
     */
    ANEURALNETWORKS_GROUPED_CONV_2D = 55,
    /**
     * Sub-pixel keypoint location and score from per-box heatmaps.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | heatmaps | T | NHWC `[num_boxes, S, S, num_keypoints]` (NCHW `[num_boxes, num_keypoints, S, S]`); height = width = S ≥ 2 |
     * | 1 | boxes | T (float); TENSOR_QUANT16_ASYMM scale 0.125 zp 0 if T = TENSOR_QUANT8_ASYMM; TENSOR_QUANT16_ASYMM scale 0.125 zp −128 (as written) if T = TENSOR_QUANT8_ASYMM_SIGNED | `[num_boxes, 4]`, rows `[x1, y1, x2, y2]` in original-image coords |
     * | 2 | layout | BOOL | true → NCHW for input 0 |
     * | out 0 | scores | T | `[num_boxes, num_keypoints]`; Q8 → free q |
     * | out 1 | keypoints | type of input 1 | `[num_boxes, num_keypoints, 2]`, last dim `[x, y]`; TENSOR_QUANT16_ASYMM → scale 0.125, zp 0 |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: rank 4 for input 0. Valid box ⇔ x1 ≤ x2, y1 ≤ y2. Max location/score approximate bicubic
     * upscaling via second-order Taylor expansion around the discrete maximum; keypoints mapped into the box.
     * boxes for TENSOR_QUANT8_ASYMM_SIGNED use zp 0.
     */
    ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT = 56,
    /**
     * Per-(batch, channel) normalization over spatial dims, scalar affine.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | 4-D; NHWC or NCHW per input 4 |
     * | 1 | gamma | FLOAT16 if T = TENSOR_FLOAT16; FLOAT32 if T = TENSOR_FLOAT32 | scale |
     * | 2 | beta | as gamma | offset |
     * | 3 | epsilon | as gamma | added to variance |
     * | 4 | layout | BOOL | true → NCHW for input 0 and output 0 |
     * | out 0 | normalized | T | same shape as input 0 |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32.
     * Formula: μ[b,c] = mean_{h,w} x[b,h,w,c]; σ²[b,c] = mean_{h,w} (x − μ)² (population, ÷ H·W);
     * out = (x − μ[b,c])·γ / √(σ²[b,c] + ε) + β.
     */
    ANEURALNETWORKS_INSTANCE_NORMALIZATION = 57,
    /**
     * Element-wise x < y → bool.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | BCAST-compatible |
     * | out 0 | x < y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: as EQUAL (48).
     */
    ANEURALNETWORKS_LESS = 58,
    /**
     * Element-wise x ≤ y → bool.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | BCAST-compatible |
     * | out 0 | x ≤ y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: as EQUAL (48).
     */
    ANEURALNETWORKS_LESS_EQUAL = 59,
    /**
     * Element-wise natural log.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | ln x | T | same shape |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32.
     * Rules: x ≤ 0 behaviour unspecified (IEEE: −inf / NaN).
     */
    ANEURALNETWORKS_LOG = 60,
    /**
     * Element-wise x ∧ y.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | TENSOR_BOOL8 | rank ≥ 1 |
     * | 1 | y | TENSOR_BOOL8 | BCAST-compatible |
     * | out 0 | x ∧ y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8.
     * Rules: any non-zero byte = true.
     */
    ANEURALNETWORKS_LOGICAL_AND = 61,
    /**
     * Element-wise ¬x.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | TENSOR_BOOL8 | rank ≥ 1 |
     * | out 0 | ¬x | TENSOR_BOOL8 | same shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8.
     */
    ANEURALNETWORKS_LOGICAL_NOT = 62,
    /**
     * Element-wise x ∨ y.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | TENSOR_BOOL8 | rank ≥ 1 |
     * | 1 | y | TENSOR_BOOL8 | BCAST-compatible |
     * | out 0 | x ∨ y | TENSOR_BOOL8 | BCAST shape |
     *
     * Types T by feature level: FL3 TENSOR_BOOL8.
     */
    ANEURALNETWORKS_LOGICAL_OR = 63,
    /**
     * Log of softmax along one axis, with temperature β.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | logits | T | n-D, n ≥ 1 |
     * | 1 | beta | FLOAT16 if T = TENSOR_FLOAT16; FLOAT32 if T = TENSOR_FLOAT32 | > 0 |
     * | 2 | axis | INT32 | [−n, n); negative from end |
     * | out 0 | log-probs | T | same shape |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32.
     * Formula: out = β·x − log Σ_{axis} exp(β·x).
     */
    ANEURALNETWORKS_LOG_SOFTMAX = 64,
    /**
     * Element-wise max(a, b).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | rank ≥ 1 |
     * | 1 | b | T | BCAST-compatible; TENSOR_QUANT8_ASYMM → scale/zp may differ from a's |
     * | out 0 | max | T | BCAST shape; Q8 → free q |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: quantized inputs may have different scales and zero points. Comparison on real values (implied by free q).
     */
    ANEURALNETWORKS_MAXIMUM = 65,
    /**
     * Element-wise min(a, b).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | a | T | rank ≥ 1 |
     * | 1 | b | T | BCAST-compatible; TENSOR_QUANT8_ASYMM → scale/zp may differ from a's |
     * | out 0 | min | T | BCAST shape; Q8 → free q |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM; FL4 +TENSOR_QUANT8_ASYMM_SIGNED.
     * Rules: as MAXIMUM (65).
     */
    ANEURALNETWORKS_MINIMUM = 66,
    /**
     * Element-wise −x.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | −x | T | same shape |
     *
     * Types T by feature level: FL3 TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32.
     * Rules: −INT32_MIN unspecified.
     */
    ANEURALNETWORKS_NEG = 67,
    /**
     * Element-wise x ≠ y with broadcasting.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | y | T | broadcast-compatible with input 0 |
     * | out 0 | x ≠ y | B8 | broadcast shape |
     *
     * Types T by feature level: FL3: B8, F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_NOT_EQUAL = 68,
    /**
     * Pad with a caller-chosen constant.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | paddings | I32 | shape [n, 2]; [i,0] = elements added before dim i, [i,1] = after dim i |
     * | 2 | pad_value | FLOAT16 if T = F16; FLOAT32 if T = F32; INT32 if T = QA8/QA8S | quantized: value is in input 0's quantized domain (same scale/zp as input 0) |
     * | out 0 | output | T | rank n; dim[i] = paddings[i,0] + in.dim[i] + paddings[i,1]; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_PAD_V2 = 69,
    /**
     * Element-wise base^exponent with broadcasting.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | base | T | rank ≥ 1 |
     * | 1 | exponent | T | broadcast-compatible with input 0 |
     * | out 0 | output | T | broadcast shape |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_POW = 70,
    /**
     * Parametric ReLU with broadcast alpha.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | 1 | alpha | T | broadcast-compatible with input 0 |
     * | out 0 | y | T | broadcast shape; quant free |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3. Quantized: alpha's scale/zp also independent of input 0 (each operand has its own).
     * Formula: y = x if x ≥ 0, else alpha·x (alpha broadcast).
     */
    ANEURALNETWORKS_PRELU = 71,
    /**
     * Float → asymmetric 8-bit.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | F16 or F32 | rank ≥ 1; may be zero-sized |
     * | out 0 | output | QA8 or QA8S | shape of input 0; scale/zp = the output operand's own |
     *
     * Types by feature level: input FL3: F16, F32. Output FL3: QA8; FL4: + QA8S.
     * Formula: QA8: q = clamp(round(x/scale) + zp, 0, 255). QA8S: q = clamp(round(x/scale) + zp, −128, 127).
     */
    ANEURALNETWORKS_QUANTIZE = 72,
    /**
     * One LSTM time step; 8-bit activations/weights, 16-bit cell state; no projection (cell-state size = outputSize), no peephole/CIFG/layer-norm inputs. All inputs mandatory.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x (input) | QA8 | [numBatches, inputSize]; scale = 1/128, zp = 128 (range [−1, 127/128]) |
     * | 1 | input-to-input W | QA8 | [outputSize, inputSize] |
     * | 2 | input-to-forget W | QA8 | [outputSize, inputSize] |
     * | 3 | input-to-cell W | QA8 | [outputSize, inputSize] |
     * | 4 | input-to-output W | QA8 | [outputSize, inputSize] |
     * | 5 | recurrent-to-input W | QA8 | [outputSize, outputSize] |
     * | 6 | recurrent-to-forget W | QA8 | [outputSize, outputSize] |
     * | 7 | recurrent-to-cell W | QA8 | [outputSize, outputSize] |
     * | 8 | recurrent-to-output W | QA8 | [outputSize, outputSize] |
     * | 9 | input gate bias | I32 | [outputSize]; scale = s_x·s_W, zp = 0 |
     * | 10 | forget gate bias | I32 | [outputSize]; scale = s_x·s_W, zp = 0 |
     * | 11 | cell bias | I32 | [outputSize]; scale = s_x·s_W, zp = 0 |
     * | 12 | output gate bias | I32 | [outputSize]; scale = s_x·s_W, zp = 0 |
     * | 13 | previous cell state | QS16 | [numBatches, outputSize]; scale = 2^4/32768 = 2^−11, zp = 0 (range [−16, 16·32767/32768]) |
     * | 14 | previous output | QA8 | [numBatches, outputSize]; scale = 1/128, zp = 128 |
     * | out 0 | new cell state | QS16 | [numBatches, outputSize]; scale = 2^−11, zp = 0 |
     * | out 1 | output | QA8 | [numBatches, outputSize]; scale = 1/128, zp = 128 |
     *
     * Types: fixed as in the table (no type parameter).
     * Rules: all eight weight tensors (1–8) share one scale and one zp (s_W, zp_W). Bias scale = input scale × that common weight scale.
     * Feature level: FL3. Gates as in LSTM (16).
     */
    ANEURALNETWORKS_QUANTIZED_16BIT_LSTM = 73,
    /**
     * Sample class indices from per-row categorical distributions.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | logits | T | [batches, classes]; unnormalized log-probabilities |
     * | 1 | num_samples | INT32 | samples drawn per row |
     * | 2 | seeds | I32 | [2]; both 0 ⇒ both seeds are generated randomly |
     * | out 0 | samples | I32 | [batches, num_samples]; class indices |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3. Formula: P(sample = c | row b) = exp(logits[b,c]) / Σ_j exp(logits[b,j]); samples independent.
     */
    ANEURALNETWORKS_RANDOM_MULTINOMIAL = 74,
    /**
     * Logical AND over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | keep_dims: reduced dims → 1; else reduced dims removed (rank − 1 per axes entry); all dims removed ⇒ shape [1] |
     *
     * Types T by feature level: FL3: B8.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_REDUCE_ALL = 75,
    /**
     * Logical OR over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | as REDUCE_ALL; all dims removed without keep_dims ⇒ [1] |
     *
     * Types T by feature level: FL3: B8.
     * Rules: op since FL3; same as REDUCE_ALL.
     */
    ANEURALNETWORKS_REDUCE_ANY = 76,
    /**
     * Maximum over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | as REDUCE_ALL; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3; same as REDUCE_ALL.
     */
    ANEURALNETWORKS_REDUCE_MAX = 77,
    /**
     * Minimum over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | as REDUCE_ALL; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3; same as REDUCE_ALL.
     */
    ANEURALNETWORKS_REDUCE_MIN = 78,
    /**
     * Product over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | as REDUCE_ALL |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3; same as REDUCE_ALL.
     */
    ANEURALNETWORKS_REDUCE_PROD = 79,
    /**
     * Sum over the given axes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n, 1 ≤ n ≤ 4 |
     * | 1 | axes | I32 | 1-D; each value in [−n, n) |
     * | 2 | keep_dims | BOOL | true ⇒ reduced dims kept with size 1 |
     * | out 0 | output | T | as REDUCE_ALL |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3; same as REDUCE_ALL.
     */
    ANEURALNETWORKS_REDUCE_SUM = 80,
    /**
     * Crop each region of interest from a feature map and resample it to a fixed grid by averaging bilinearly interpolated sample points (no rounding).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | feature map | T | 4-D [batches, height, width, depth] (NHWC) or NCHW per input 9 |
     * | 1 | rois | T = QA8: QA16 with scale 0.125, zp 0. T = F16/F32: same as T | [num_rois, 4], rows [x1, y1, x2, y2] in original-image coordinates; num_rois may be 0 |
     * | 2 | batch index | I32 | [num_rois]; batch of each box; boxes of the same batch are grouped together; num_rois may be 0 |
     * | 3 | out_height | INT32 | output height |
     * | 4 | out_width | INT32 | output width |
     * | 5 | height_ratio | FLOAT32 (as stated | original-image height / feature-map height |
     * | 6 | width_ratio | FLOAT32 (as stated | original-image width / feature-map width |
     * | 7 | sampling_ratio_h | INT32 | sample points per bin along height; 0 ⇒ adaptive ceil(roi_height / out_height) |
     * | 8 | sampling_ratio_w | INT32 | sample points per bin along width; 0 ⇒ adaptive ceil(roi_width / out_width) |
     * | 9 | layout | BOOL | true = NCHW for input 0 and output 0; false = NHWC |
     * | out 0 | output | T | [num_rois, out_height, out_width, depth] (NCHW: [num_rois, depth, out_height, out_width]); quant free |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3. Valid ROI: x1 ≤ x2 and y1 ≤ y2. Feature-map coordinate = image coordinate / ratio. Sample points are spread uniformly inside each bin; each value by bilinear interpolation; bin value = mean of its samples.
     * 125, zp 0 for both QA8 and QA8S). Inputs 5/6 are stated as FLOAT32 for every T; the upstream implementation expects FLOAT16 scalars (and F16 rois) when T = F16.
     */
    ANEURALNETWORKS_ROI_ALIGN = 81,
    /**
     * Crop each region of interest and max-pool it to a fixed grid; ROI and bin boundaries are rounded to integers.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | feature map | T | 4-D NHWC, or NCHW per input 7 |
     * | 1 | rois | T = QA8/QA8S: QA16 with scale 0.125, zp 0. T = F16/F32: same as T | [num_rois, 4], rows [x1, y1, x2, y2] in original-image coordinates |
     * | 2 | batch index | I32 | [num_rois]; boxes of the same batch grouped together |
     * | 3 | out_height | INT32 | output height |
     * | 4 | out_width | INT32 | output width |
     * | 5 | height_ratio | FLOAT32 (as stated | original-image height / feature-map height |
     * | 6 | width_ratio | FLOAT32 (as stated | original-image width / feature-map width |
     * | 7 | layout | BOOL | true = NCHW for input 0 and output 0 |
     * | out 0 | output | T | [num_rois, out_height, out_width, depth]; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3. Valid ROI: x1 ≤ x2, y1 ≤ y2. FLOAT32 ratios for T = F16: same remark as ROI_ALIGN.
     */
    ANEURALNETWORKS_ROI_POOLING = 82,
    /**
     * Element-wise 1/√x.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | y | T | shape of input 0 |
     *
     * Types T by feature level: FL3: F16, F32; FL7: + QA8, QA8S (output: free q).
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_RSQRT = 83,
    /**
     * Element-wise choose between two tensors with a boolean mask.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | mask | B8 | rank ≥ 1 |
     * | 1 | x | T | same shape as input 0 |
     * | 2 | y | T | same shape and type as input 1; quantized: scale/zp may differ from input 1 |
     * | out 0 | output | T | shape of inputs 1/2; quant free |
     *
     * Types T by feature level: FL3: F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3. No broadcasting.
     * Formula: out[i] = mask[i] ? x[i] : y[i].
     */
    ANEURALNETWORKS_SELECT = 84,
    /**
     * Element-wise sine.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | y | T | shape of input 0 |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_SIN = 85,
    /**
     * Contiguous sub-tensor from begin offsets and sizes.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n ≥ 1; may be zero-sized |
     * | 1 | begin | I32 | 1-D, one offset per dim (length n implied) |
     * | 2 | size | I32 | 1-D, one size per dim; −1 ⇒ all remaining elements (in.dim[i] − begin[i]) |
     * | out 0 | output | T | rank n; dim[i] = size[i] (or in.dim[i] − begin[i] for −1); quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3. begin[i] + size[i] ≤ in.dim[i].
     */
    ANEURALNETWORKS_SLICE = 86,
    /**
     * Split along one axis into equal parts.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n ≥ 1 |
     * | 1 | axis | INT32 | axis to split along |
     * | 2 | num_splits | INT32 | must divide in.dim[axis] exactly |
     * | out 0 … num_splits−1 | parts | T | input shape with dim[axis] = in.dim[axis] / num_splits; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_SPLIT = 87,
    /**
     * Element-wise √x.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1 |
     * | out 0 | y | T | shape of input 0 |
     *
     * Types T by feature level: FL3: F16, F32.
     * Rules: op since FL3.
     */
    ANEURALNETWORKS_SQRT = 88,
    /**
     * Repeat a tensor along each dimension.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n ≥ 1 |
     * | 1 | multiples | I32 | 1-D of length n |
     * | out 0 | output | T | rank n; dim[i] = in.dim[i]·multiples[i]; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3. Formula: out[j0,…,jn−1] = in[j0 mod d0, …, jn−1 mod dn−1]. Example: [a b c d] tiled by [2] → [a b c d a b c d].
     */
    ANEURALNETWORKS_TILE = 89,
    /**
     * k largest values (and their indices) along the last dimension.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank n ≥ 1 |
     * | 1 | k | INT32 | number of top entries per last-dim slice |
     * | out 0 | values | T | input shape with last dim = k; quant = in0 |
     * | out 1 | indices | I32 | same shape as output 0; positions within the last dim of input |
     *
     * Types T by feature level: FL3: F16, F32, I32, QA8; FL4: + QA8S.
     * Rules: op since FL3. Each slice sorted descending; equal values: the one with the **larger** index comes first.
     */
    ANEURALNETWORKS_TOPK_V2 = 90,
    /**
     * Transposed 2-D convolution (gradient of CONV_2D; "deconvolution").
     *
     * Type configurations:
     *
     * | config | input / output | filter | bias | since |
     * |---|---|---|---|---|
     * | float16 | F16 | F16 | F16 | FL3 |
     * | float32 | F32 | F32 | F32 | FL3 |
     * | quant | QA8 | QA8 | I32, scale = s_in·s_filter, zp 0 | FL3 |
     * | quant, per-channel filter | QA8 | QS8C, channelDim = 0 | I32, scale 0, zp 0; effective scale of bias[i] = s_in·s_filter[i] | FL3 |
     * | quant signed | QA8S | QA8S | I32, scale = s_in·s_filter, zp 0 | FL4 |
     * | quant signed, per-channel filter | QA8S | QS8C, channelDim = 0 | I32, scale 0, zp 0; effective scale[i] = s_in·s_filter[i] | FL4 |
     *
     * Inputs, explicit padding (11 inputs):
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | [batches, height, width, depth_in]; batches may be 0 |
     * | 1 | filter | per config | [depth_out, filter_height, filter_width, depth_in]; QS8C ⇒ channelDim = 0 |
     * | 2 | bias | per config | [depth_out]; float T ⇒ same type as input |
     * | 3 | pad_left | INT32 | width dim |
     * | 4 | pad_right | INT32 | width dim |
     * | 5 | pad_top | INT32 | height dim |
     * | 6 | pad_bottom | INT32 | height dim |
     * | 7 | stride_w | INT32 | width stride |
     * | 8 | stride_h | INT32 | height stride |
     * | 9 | activation | INT32 | FuseCode |
     * | 10 | layout | BOOL | true = NCHW for input 0 / output 0 |
     *
     * Inputs, implicit padding (9 inputs):
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | as explicit |
     * | 1 | filter | per config | as explicit |
     * | 2 | bias | per config | as explicit |
     * | 3 | output_shape | I32 | output tensor shape (1-D, 4 values implied) |
     * | 4 | padding | INT32 | PaddingCode (SAME / VALID) |
     * | 5 | stride_w | INT32 | width stride |
     * | 6 | stride_h | INT32 | height stride |
     * | 7 | activation | INT32 | FuseCode |
     * | 8 | layout | BOOL | true = NCHW |
     * | out 0 | output | T (input type) | [batches, out_height, out_width, depth_out]; quant free |
     *
     * Rules: op since FL3; rank 4. Variant chosen by input count (11 explicit, 9 implicit). Layout flag is a regular (non-optional) input.
     *  explicit padding conventionally gives out = (in − 1)·stride + filter − pad_head − pad_tail per spatial dim; implicit padding takes out from input 3 and derives padding from it. Float bias is "must" be same type in the explicit list, "should" in the implicit list.
     */
    ANEURALNETWORKS_TRANSPOSE_CONV_2D = 91,
    /**
     * LSTM (16) applied over every time step of a sequence; optional projection and fused activation.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | time-major [max_time, batch_size, input_size]; batch-major [batch_size, max_time, input_size] |
     * | 1 | W_xi input-to-input (opt) | T | [num_units, input_size] |
     * | 2 | W_xf input-to-forget | T | [num_units, input_size] |
     * | 3 | W_xc input-to-cell | T | [num_units, input_size] |
     * | 4 | W_xo input-to-output | T | [num_units, input_size] |
     * | 5 | W_hi recurrent-to-input (opt) | T | [num_units, output_size]; output_size = num_units, or projection's output dim if projecting |
     * | 6 | W_hf recurrent-to-forget | T | [num_units, output_size] |
     * | 7 | W_hc recurrent-to-cell | T | [num_units, output_size] |
     * | 8 | W_ho recurrent-to-output | T | [num_units, output_size] |
     * | 9 | W_ci cell-to-input (opt) | T | [num_units] |
     * | 10 | W_cf cell-to-forget (opt) | T | [num_units] |
     * | 11 | W_co cell-to-output (opt) | T | [num_units] |
     * | 12 | b_i input gate bias (opt) | T | [num_units] |
     * | 13 | b_f forget gate bias | T | [num_units] |
     * | 14 | b_c cell bias | T | [num_units] |
     * | 15 | b_o output gate bias | T | [num_units] |
     * | 16 | W_proj projection weights (opt) | T | [output_size, num_units] |
     * | 17 | b_proj projection bias (opt) | T | [output_size] |
     * | 18 | h_{−1} initial output state | T | [batch_size, output_size] |
     * | 19 | C_{−1} initial cell state | T | [batch_size, num_units] |
     * | 20 | activation g | (INT32, as LSTM) | 0 none, 1 relu, 3 relu6, 4 tanh, 6 sigmoid |
     * | 21 | cell_clip | (FLOAT32 if T = F32, FLOAT16 if T = F16, as LSTM) | cell state clipped to [−c, c]; 0.0 disables |
     * | 22 | proj_clip | as input 21 | projection output clipped to [−p, p]; 0.0 disables |
     * | 23 | time_major | (BOOL) | true = time-major, false = batch-major |
     * | 24 | input layer-norm weights (opt) | T | [num_units] |
     * | 25 | forget layer-norm weights (opt) | T | [num_units] |
     * | 26 | cell layer-norm weights (opt) | T | [num_units] |
     * | 27 | output layer-norm weights (opt) | T | [num_units] |
     * | out 0 | output | T | time-major [max_time, batch_size, output_size]; batch-major [batch_size, max_time, output_size] |
     * | out 1 | final output state (opt, FL4) | T | [batch_size, output_size]; if present, output 2 must be present |
     * | out 2 | final cell state (opt, FL4) | T | [batch_size, num_units] |
     *
     * Types T by feature level: FL3: F16, F32. All input and output tensors have type T. Rank 3 for input/output.
     * Rules: op since FL3; outputs 1–2 since FL4. At FL3 the final states cannot be read out and NNAPI keeps no state between executions, so chaining cells by passing state tensors is unsupported. Per step s: h_s = LSTM step(x_s, h_{s−1}, C_{s−1}); out[s] = h_s.
     * Optional groups (stated for LSTM (16), inherited : {9,10,11} all or none (peephole); {1,5,12} all or none — none ⇒ CIFG, i_t = 1 − f_t; peephole without CIFG requires 9, with CIFG 9 absent; 16 only with projection; 17 optional only with projection; layer norm {24..27} all or none, except with CIFG 24 absent and {25,26,27} all or none.
     * Formula (from LSTM (16)): i = σ(W_xi x + W_hi h + W_ci⊙C_prev + b_i); f = σ(W_xf x + W_hf h + W_cf⊙C_prev + b_f); C = clip(f⊙C_prev + i⊙g(W_xc x + W_hc h + b_c), t_cell); o = σ(W_xo x + W_ho h + W_co⊙C + b_o); h = clip(W_proj(o⊙g(C)) + b_proj, t_proj) with projection, else o⊙g(C). Layer norm, when used, normalizes the pre-activation of each gate then scales by its LN weights.
     */
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
    /**
     * Basic RNN cell over every time step of a sequence.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | timeMajor = 1: [maxTime, batchSize, inputSize]; 0: [batchSize, maxTime, inputSize] |
     * | 1 | weights | T | [numUnits, inputSize] |
     * | 2 | recurrent_weights | T | [numUnits, numUnits] |
     * | 3 | bias | T | [numUnits] |
     * | 4 | hidden state | T | [batchSize, numUnits]; state fed to the first step |
     * | 5 | activation | INT32 | FuseCode; NONE ⇒ linear |
     * | 6 | timeMajor | INT32 | 0 or 1 only |
     * | out 0 | output | T | timeMajor = 1: [maxTime, batchSize, numUnits]; 0: [batchSize, maxTime, numUnits] |
     * | out 1 | final hidden state (opt, FL4) | T | [batchSize, numUnits] |
     *
     * Types T by feature level: FL3: F16, F32. All input tensors have type T.
     * Rules: op since FL3; output 1 since FL4. At FL3 the final state cannot be read out and no internal state is kept, so chaining cells by passing state is unsupported.
     * Formula: h_s = act(x_s·Wᵀ + h_{s−1}·Rᵀ + b); out[s] = h_s; h_{−1} = input 4.
     */
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN = 93,
    /**
     * Resize images by nearest-neighbour lookup; by explicit size or by scale factor.
     *
     * Inputs, resize by shape:
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | 4-D [batches, height, width, depth]; batches may be 0 |
     * | 1 | out_width | INT32 | output width (note: width before height) |
     * | 2 | out_height | INT32 | output height |
     * | 3 | layout | BOOL | true = NCHW for input 0 / output 0; "defaults to false" |
     * | 4 | align_corners (opt, FL4) | BOOL | default false; true ⇒ the 4 corner pixel centres of input and output coincide (corner values preserved) |
     * | 5 | half_pixel_centers (opt, FL4) | BOOL | default false; true ⇒ pixel centres at (0.5, 0.5) (TF2 image.resize behaviour); requires align_corners = false |
     *
     * Inputs, resize by scale: as above except
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 1 | width_scale | FLOAT16 if T = F16, else FLOAT32 | new_width = floor(width·width_scale) |
     * | 2 | height_scale | FLOAT16 if T = F16, else FLOAT32 | new_height = floor(height·height_scale) |
     * | out 0 | output | T | [batches, new_height, new_width, depth]; quant = in0 |
     *
     * Types T by feature level: FL3: F16, F32, QA8; FL4: + QA8S.
     * Rules: op since FL3; inputs 4–5 since FL4. Variant chosen by the type of input 1 (INT32 ⇒ by shape). Aspect ratio is not preserved when it changes; output corners need not equal input corners.
     * Input 3 is described with a default but not marked optional; the upstream implementation requires it (min 4 inputs), unlike RESIZE_BILINEAR.
     * scale = (align_corners && out > 1) ? (in−1)/(out−1) : in/out; off = half_pixel_centers ? 0.5 : 0; src = min(align_corners ? round((dst+off)·scale) : floor((dst+off)·scale), in−1), then max(0, ·) when half_pixel_centers.
     */
    ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR = 94,
    /* Feature level 4. */
    /**
     * Quantized LSTM (16) step: input and output QA8S (asymmetric), all other tensors symmetric. Optional groups: input gate (1, 5, 12), peephole (9–11), projection (16–17), layer norm (20–23), clips (24–25).
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x (input) | QA8S | [batchSize, inputSize] |
     * | 1 | input-to-input W (opt) | QS8 | [numUnits, inputSize] |
     * | 2 | input-to-forget W | QS8 | [numUnits, inputSize] |
     * | 3 | input-to-cell W | QS8 | [numUnits, inputSize] |
     * | 4 | input-to-output W | QS8 | [numUnits, inputSize] |
     * | 5 | recurrent-to-input W (opt) | QS8 | [numUnits, outputSize] |
     * | 6 | recurrent-to-forget W | QS8 | [numUnits, outputSize] |
     * | 7 | recurrent-to-cell W | QS8 | [numUnits, outputSize] |
     * | 8 | recurrent-to-output W | QS8 | [numUnits, outputSize] |
     * | 9 | cell-to-input W, peephole (opt) | QS16 | [numUnits] |
     * | 10 | cell-to-forget W, peephole (opt) | QS16 | [numUnits] |
     * | 11 | cell-to-output W, peephole (opt) | QS16 | [numUnits] |
     * | 12 | input gate bias (opt) | I32 | [numUnits]; scale = s_input·s_weights, zp 0 |
     * | 13 | forget gate bias | I32 | [numUnits]; scale = s_input·s_weights, zp 0 |
     * | 14 | cell bias | I32 | [numUnits]; scale = s_input·s_weights, zp 0 |
     * | 15 | output gate bias | I32 | [numUnits]; scale = s_input·s_weights, zp 0 |
     * | 16 | projection W (opt) | QS8 | [outputSize, numUnits] |
     * | 17 | projection bias (opt) | I32 | [outputSize]; scale = s_input·s_weights, zp 0 |
     * | 18 | previous output state | QA8S | [batchSize, outputSize] |
     * | 19 | previous cell state | QS16 | [batchSize, numUnits] |
     * | 20 | input layer-norm W (opt) | QS16 | [numUnits] |
     * | 21 | forget layer-norm W (opt) | QS16 | [numUnits] |
     * | 22 | cell layer-norm W (opt) | QS16 | [numUnits] |
     * | 23 | output layer-norm W (opt) | QS16 | [numUnits] |
     * | 24 | cell_clip (opt) | FLOAT32 | if given, cell state clipped by it before the cell-output activation |
     * | 25 | proj_clip (opt) | FLOAT32 | if given and projection is used, clips projected values |
     * | 26 | input-gate intermediate scale | FLOAT32 | scale of the matmul result (= layer-norm input) at the input gate |
     * | 27 | forget-gate intermediate scale | FLOAT32 | same, forget gate |
     * | 28 | cell-gate intermediate scale | FLOAT32 | same, cell gate |
     * | 29 | output-gate intermediate scale | FLOAT32 | same, output gate |
     * | 30 | hidden-state zero point | INT32 | zp of the hidden state (projection input) |
     * | 31 | hidden-state scale | FLOAT32 | scale of the hidden state (projection input) |
     * | out 0 | output state (out) | QA8S | [batchSize, outputSize] |
     * | out 1 | cell state (out) | QS16 | [batchSize, numUnits] |
     * | out 2 | output | QA8S | [batchSize, outputSize]; same value as output 0 |
     *
     * Types: fixed as in the table. Feature level: FL4 (whole op).
     * Rules: 32 inputs, 3 outputs. Optional: 1, 5, 9, 10, 11, 12, 16, 17, 20–23, 24, 25. Bias tensors: zp 0, scale = input scale × weights scale.
     * The optional groups follow LSTM (16): CIFG {1, 5, 12}, peephole {9, 10, 11}, projection {16, 17}, layer norm {20 … 23}.
     */
    ANEURALNETWORKS_QUANTIZED_LSTM = 95,
    /**
     * Run one of two referenced models depending on a boolean.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | condition | B8 | shape [1]; dimensions fully specified |
     * | 1 | then_model | MODEL | run when condition is true |
     * | 2 | else_model | MODEL | run when condition is false |
     * | 3 … n+2 | inputs | any | passed, in order, as the selected model's n inputs |
     * | out 0 … m−1 | outputs | any | the selected model's m outputs |
     *
     * Types: any operand types; feature level FL4.
     * Rules:
     * - Op has 3 + n inputs and m outputs. Both referenced models must have exactly n inputs and m outputs, each agreeing with the corresponding op operand in type, rank (if specified), dimensions (if specified), scale, zeroPoint and all other operand parameters.
     * - MODEL operands set with ANeuralNetworksModel_setOperandValueFromModel; the referenced model must already be finished and must outlive the referring model.
     * - The main model's relaxComputationFloat32toFloat16 setting overrides that of referenced models.
     * - Unspecified dimensions of a referenced model's inputs are deduced from the matching IF input operand.
     */
    ANEURALNETWORKS_IF = 96,
    /**
     * Loop: run body while the condition model returns true.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | cond_model | MODEL | m + k + n inputs matching the op's inputs 2…; exactly 1 output: B8, shape [1], dims fully specified |
     * | 1 | body_model | MODEL | m + k + n inputs and m + k outputs, matching the op's inputs / outputs |
     * | 2 … m+1 | initial input-output values | any | m ≥ 1 |
     * | m+2 … m+k+1 | initial state-only values | any | k ≥ 0 |
     * | m+k+2 … m+k+n+1 | input-only values | any | n ≥ 0 |
     * | out 0 … m−1 | final input-output values | any | values when the condition first returns false |
     *
     * Types: any operand types; feature level FL4.
     * Rules:
     * - m = number of WHILE outputs; k = (body outputs) − m; n = (body inputs) − m − k (runtime infers these).
     * - Matching (cond and body) = same type, rank (if specified), dimensions (if specified), scale, zeroPoint, other operand params as the corresponding WHILE inputs/outputs.
     * - Input-output operands: iteration 1 takes the WHILE inputs; later iterations take the body's first m outputs of the previous iteration; they become the WHILE outputs at termination.
     * - State-only operands: same flow as input-output, but dropped after the loop.
     * - Input-only operands: always the WHILE inputs (unchanged).
     * - Loop timeout: each loop has an implicit fuzzy timeout ("loop timeout duration"). ANeuralNetworksExecution_setLoopTimeout(execution, ns) sets it (values above ANeuralNetworks_getMaximumLoopTimeout are clamped to it; returns BAD_STATE once the execution started, UNEXPECTED_NULL for NULL execution); default = ANeuralNetworks_getDefaultLoopTimeout. If the condition does not produce false in time, the execution is aborted and returns ANEURALNETWORKS_MISSED_DEADLINE_*.
     * - MODEL operand rules as in IF (finished, outlives referrer; main model's relax-float setting wins; referenced-model input dims deduced from WHILE inputs).
     *
     * Formula (m = k = n = 1):
     * ```
     * io = init_io; st = init_st
     * while cond(io, st, inp): (io, st) = body(io, st, inp)
     * return io
     * ```
     */
    ANEURALNETWORKS_WHILE = 97,
    /**
     * Exponential linear unit.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1; may be zero-sized |
     * | 1 | alpha | FLOAT16 if T = F16; FLOAT32 if T = F32 | scalar |
     * | out 0 | y | T | shape of input 0 |
     *
     * Types T by feature level: FL4: F16, F32.
     * Formula: y = max(0, x) + min(0, alpha·(eᵡ − 1)).
     */
    ANEURALNETWORKS_ELU = 98,
    /**
     * Hard-swish activation.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank ≥ 1; may be zero-sized |
     * | out 0 | y | T | shape of input 0; quant free |
     *
     * Types T by feature level: FL4: F16, F32, QA8, QA8S.
     * Formula: y = x·max(0, min(6, x + 3)) / 6.
     */
    ANEURALNETWORKS_HARD_SWISH = 99,
    /**
     * Tensor of a given shape filled with one scalar.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | shape | (I32) | 1-D; the output dimensions |
     * | 1 | value | FLOAT16 if T = F16; FLOAT32 if T = F32; INT32 if T = I32 | fill value |
     * | out 0 | output | T | dims = values of input 0; rank ≥ 1 |
     *
     * Types T (output) by feature level: FL4: F16, F32, I32.
     */
    ANEURALNETWORKS_FILL = 100,
    /**
     * Number of dimensions of a tensor.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | input | T | rank ≥ 1 |
     * | out 0 | rank | INT32 (scalar) | rank of input 0 |
     *
     * Types T by feature level: FL4: F16, F32, I32, QA8, QS16, B8, QS8C, QA16, QS8, QA8S (every tensor type).
     */
    ANEURALNETWORKS_RANK = 101,
    /* Feature level 6. */
    /**
     * Batched matrix product: each [r, c] slice of input 0 times the matching
     * slice of input 1, optionally transposing either. FL6.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | x | T | rank 2 to 4, [..., r_x, c_x] |
     * | 1 | y | T | [..., r_y, c_y]; same batch dimensions as x |
     * | 2 | adj_x | BOOL | opt, default false: use the transpose of each slice of x |
     * | 3 | adj_y | BOOL | opt, default false: use the transpose of each slice of y |
     * | out 0 | out | T | [..., r_o, c_o]; r_o = adj_x ? c_x : r_x, c_o = adj_y ? r_y : c_y |
     *
     * Types T: FL6 F16, F32, QA8S, I32.
     * Rules: the inner sizes must agree (c_x, or r_x when adjointed, equals r_y,
     * or c_y when adjointed).
     */
    ANEURALNETWORKS_BATCH_MATMUL = 102,
    /**
     * Stacks N tensors of one shape into one tensor of rank + 1, along a new
     * axis. FL6.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | axis | INT32 | position of the new dimension, in [0, R] for inputs of rank R |
     * | 1 … N | in_i | T | N ≥ 1 tensors of rank R ≥ 1, identical shapes; quant: identical scale and zeroPoint |
     * | out 0 | out | T | the input shape with N inserted at axis; quant: same q |
     *
     * Types T: FL6 F16, F32, QA8, QA8S, I32.
     * Formula: out[i_0, …, i_{axis−1}, n, i_axis, …] = in_n[i_0, …, i_{axis−1}, i_axis, …].
     */
    ANEURALNETWORKS_PACK = 103,
    /* Feature level 7. */
    /**
     * Pads a tensor with its own values mirrored at each border. FL7.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank ≥ 1 |
     * | 1 | paddings | TENSOR_INT32 | [rank, 2]: elements before and after each dimension, ≥ 0 |
     * | 2 | mode | INT32 | 0 REFLECT (border element not repeated; padding < dim), 1 SYMMETRIC (border repeated; padding ≤ dim) |
     * | out 0 | out | T | dim i = before_i + in dim i + after_i; quant: same q |
     *
     * Types T: FL7 F16, F32, QA8, QA8S, I32.
     * Example: [1, 2, 3] padded [0, 2] gives [1, 2, 3, 2, 1] in REFLECT mode and
     * [1, 2, 3, 3, 2] in SYMMETRIC mode.
     */
    ANEURALNETWORKS_MIRROR_PAD = 104,
    /**
     * Reverses the order of the elements along one dimension. FL7.
     *
     * | # | input | type | shape / constraint |
     * |---|---|---|---|
     * | 0 | in | T | rank n, 1 ≤ n ≤ 8 |
     * | 1 | axis | TENSOR_INT32 | [1]; the dimension to reverse, in [0, n) |
     * | out 0 | out | T | shape of in; quant: same q |
     *
     * Types T: FL7 F16, F32, QA8, QA8S, I32.
     */
    ANEURALNETWORKS_REVERSE = 105,
} OperationCode;

/** Activation applied to an operation's result (its `act` input). Feature level 1. */
typedef enum {
    /** No activation. */
    ANEURALNETWORKS_FUSED_NONE = 0,
    /** max(0, x). */
    ANEURALNETWORKS_FUSED_RELU = 1,
    /** clamp(x, −1, 1). */
    ANEURALNETWORKS_FUSED_RELU1 = 2,
    /** clamp(x, 0, 6). */
    ANEURALNETWORKS_FUSED_RELU6 = 3,
} FuseCode;

/**
 * Implicit padding schemes of the windowed operations (convolutions, pools).
 * Feature level 1.
 */
typedef enum {
    /**
     * Pad so that out = ceil(in / stride). The total padding,
     * max(0, (out − 1) × stride + effective filter − in), is split in two
     * with the odd cell at the end.
     */
    ANEURALNETWORKS_PADDING_SAME = 1,
    /** No padding: out = ceil((in − effective filter + 1) / stride). */
    ANEURALNETWORKS_PADDING_VALID = 2,
} PaddingCode;

/**
 * What a compilation should favour (ANeuralNetworksCompilation_setPreference()).
 * A hint. Feature level 1.
 */
typedef enum {
    /** Least power, e.g. for background work. */
    ANEURALNETWORKS_PREFER_LOW_POWER = 0,
    /** Shortest time for one answer (the default). */
    ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER = 1,
    /** Best throughput over many successive executions. */
    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED = 2,
} PreferenceCode;

/** Kinds of device (ANeuralNetworksDevice_getType()). Feature level 3. */
typedef enum {
    /** The driver does not say. */
    ANEURALNETWORKS_DEVICE_UNKNOWN = 0,
    /** None of the kinds below (e.g. a DSP). */
    ANEURALNETWORKS_DEVICE_OTHER = 1,
    /** A CPU: nnapi-linux's only device. */
    ANEURALNETWORKS_DEVICE_CPU = 2,
    /** A graphics processor. */
    ANEURALNETWORKS_DEVICE_GPU = 3,
    /** A dedicated neural-network accelerator. */
    ANEURALNETWORKS_DEVICE_ACCELERATOR = 4,
} DeviceTypeCode;

/**
 * NNAPI feature levels, returned by ANeuralNetworks_getRuntimeFeatureLevel()
 * and ANeuralNetworksDevice_getFeatureLevel(). Levels 1 to 5 carry the number
 * of the Android API level that introduced them; later levels are numbered
 * from 1000000, independently of Android releases. This library implements
 * level 8.
 */
typedef enum {
    /** Android 8.1 (API 27): the first 29 operations, models, compilations, executions. */
    ANEURALNETWORKS_FEATURE_LEVEL_1 = 27,
    /** Android 9 (API 28): operations 29 to 37, relaxed float32 computation. */
    ANEURALNETWORKS_FEATURE_LEVEL_2 = 28,
    /** Android 10 (API 29): devices, bursts, timing, dynamic shapes, operations 38 to 94. */
    ANEURALNETWORKS_FEATURE_LEVEL_3 = 29,
    /** Android 11 (API 30): memory descriptors, fences, timeouts, priorities, control flow. */
    ANEURALNETWORKS_FEATURE_LEVEL_4 = 30,
    /** Android 12 (API 31): reusable executions, padding and alignment queries. */
    ANEURALNETWORKS_FEATURE_LEVEL_5 = 31,
    /** Feature level 6: ::ANEURALNETWORKS_BATCH_MATMUL, ::ANEURALNETWORKS_PACK, RESHAPE on TENSOR_INT32. */
    ANEURALNETWORKS_FEATURE_LEVEL_6 = 1000006,
    /** Feature level 7: ::ANEURALNETWORKS_MIRROR_PAD, ::ANEURALNETWORKS_REVERSE, quantized RSQRT. */
    ANEURALNETWORKS_FEATURE_LEVEL_7 = 1000007,
    /** Feature level 8: no new operation or type, the level itself. */
    ANEURALNETWORKS_FEATURE_LEVEL_8 = 1000008,
} FeatureLevelCode;

/** Results of the API functions. Feature level 1 unless noted. */
typedef enum {
    /** Success. */
    ANEURALNETWORKS_NO_ERROR = 0,
    /** An allocation failed; the object is left as it was. */
    ANEURALNETWORKS_OUT_OF_MEMORY = 1,
    /** Not returned by this library (kept for compatibility). */
    ANEURALNETWORKS_INCOMPLETE = 2,
    /** A required pointer argument was NULL. */
    ANEURALNETWORKS_UNEXPECTED_NULL = 3,
    /** An argument, operand or model is invalid. */
    ANEURALNETWORKS_BAD_DATA = 4,
    /** An operation failed while computing. */
    ANEURALNETWORKS_OP_FAILED = 5,
    /** The object is not in a state that allows the call (e.g. already finished). */
    ANEURALNETWORKS_BAD_STATE = 6,
    /** A memory could not be mapped or used. Feature level 3 (value 7). */
    ANEURALNETWORKS_UNMAPPABLE = 7,
    /** An output buffer is smaller than the computed output. Feature level 3. */
    ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE = 8,
    /** The device cannot be used. Feature level 3. */
    ANEURALNETWORKS_UNAVAILABLE_DEVICE = 9,
    /** A timeout expired; trying again may succeed. Feature level 4. */
    ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT = 10,
    /** A timeout expired and trying again will not help. Feature level 4. */
    ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT = 11,
    /** Resources ran out for now; trying again may succeed. Feature level 4. */
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT = 12,
    /** Resources ran out for good. Feature level 4. */
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT = 13,
    /** A driver process died. Not returned by this in-process library. Feature level 4. */
    ANEURALNETWORKS_DEAD_OBJECT = 14,
} ResultCode;

/** Size limits for ANeuralNetworksModel_setOperandValue(). */
enum {
    /**
     * Constant values no longer than this many bytes are copied by
     * ANeuralNetworksModel_setOperandValue(); longer ones are referenced and
     * must outlive the model's compilations.
     */
    ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES = 128
};

/** Size of a compilation cache token. Feature level 3. */
enum {
    /** Length in bytes of the token given to ANeuralNetworksCompilation_setCaching(). */
    ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN = 32
};

/** Which duration ANeuralNetworksExecution_getDuration() reports. Feature level 3. */
typedef enum {
    /** Time spent computing on the device. */
    ANEURALNETWORKS_DURATION_ON_HARDWARE = 0,
    /** Time spent in the driver, device time included. */
    ANEURALNETWORKS_DURATION_IN_DRIVER = 1,
    /** Fenced computation: device time from the moment its dependencies signalled. Feature level 4. */
    ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE = 2,
    /** Fenced computation: driver time from the moment its dependencies signalled. Feature level 4. */
    ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER = 3,
} DurationCode;

/** Relative priority of a compilation's executions (ANeuralNetworksCompilation_setPriority()). Feature level 4. */
typedef enum {
    /** Below the default. */
    ANEURALNETWORKS_PRIORITY_LOW = 90,
    /** The middle priority. */
    ANEURALNETWORKS_PRIORITY_MEDIUM = 100,
    /** Above the default. */
    ANEURALNETWORKS_PRIORITY_HIGH = 110,
    /** The priority a compilation has until set: MEDIUM. */
    ANEURALNETWORKS_PRIORITY_DEFAULT = ANEURALNETWORKS_PRIORITY_MEDIUM,
} PriorityCode;

/**
 * A region of memory shared with the runtime: a mapped file descriptor
 * (ANeuralNetworksMemory_createFromFd()) or a runtime allocation described by
 * an ::ANeuralNetworksMemoryDesc. Holds constants of models and inputs and
 * outputs of executions, avoiding copies. May be used by several models and
 * executions at once. Feature level 1.
 */
typedef struct ANeuralNetworksMemory ANeuralNetworksMemory;

/**
 * A graph of operations over operands. Built by one thread at a time until
 * ANeuralNetworksModel_finish(); afterwards read-only and safe to compile
 * from any number of threads. Feature level 1.
 */
typedef struct ANeuralNetworksModel ANeuralNetworksModel;

/**
 * A model prepared for devices. Configured by one thread at a time until
 * ANeuralNetworksCompilation_finish(); afterwards executions and bursts may
 * be created and run from any number of threads. Feature level 1.
 */
typedef struct ANeuralNetworksCompilation ANeuralNetworksCompilation;

/**
 * One application of a compilation to a set of inputs and outputs. It is
 * configured by one thread, then computed (synchronously, asynchronously, in
 * a burst or fenced); one computation at a time, and only once unless made
 * reusable. Feature level 1.
 */
typedef struct ANeuralNetworksExecution ANeuralNetworksExecution;

/**
 * A channel for a rapid sequence of synchronous executions of one
 * compilation; it runs one execution at a time. Feature level 3.
 */
typedef struct ANeuralNetworksBurst ANeuralNetworksBurst;

/**
 * The completion of an asynchronous computation, or a sync fence to wait on.
 * Any thread may wait on it. Feature level 1.
 */
typedef struct ANeuralNetworksEvent ANeuralNetworksEvent;

/**
 * A device that can run models, owned by the runtime (never freed). Obtained
 * with ANeuralNetworks_getDevice(). Feature level 3.
 */
typedef struct ANeuralNetworksDevice ANeuralNetworksDevice;

/**
 * A description, by its roles in compilations, of a memory that the runtime
 * allocates (ANeuralNetworksMemory_createFromDesc()). Built by one thread at
 * a time. Feature level 4.
 */
typedef struct ANeuralNetworksMemoryDesc ANeuralNetworksMemoryDesc;

/**
 * Per-channel quantization of a ::ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL
 * operand: real value = q × scales[index along channelDim]. Feature level 3.
 */
typedef struct ANeuralNetworksSymmPerChannelQuantParams {
    /** The dimension that indexes the scales. */
    uint32_t channelDim;
    /** Number of scales: the operand's size along channelDim. */
    uint32_t scaleCount;
    /** scaleCount positive scales; copied by the model. */
    const float* scales;
} ANeuralNetworksSymmPerChannelQuantParams;

/**
 * The type of an operand, given to ANeuralNetworksModel_addOperand() and, to
 * complete unknown dimensions, to the execution's input and output setters.
 * Feature level 1.
 */
typedef struct ANeuralNetworksOperandType {
    /** An ::OperandCode. */
    int32_t type;
    /** Rank: 0 for scalars and for tensors of unknown rank. */
    uint32_t dimensionCount;
    /** dimensionCount sizes, 0 meaning unknown; NULL when dimensionCount is 0. */
    const uint32_t* dimensions;
    /** Quantization scale, > 0 for quantized types; 0 otherwise. */
    float scale;
    /** Quantization zero point, in the type's range; 0 for other types. */
    int32_t zeroPoint;
} ANeuralNetworksOperandType;

/** An ::OperationCode, as passed to ANeuralNetworksModel_addOperation(). */
typedef int32_t ANeuralNetworksOperationType;

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H */
