#!/usr/bin/env python3
"""Writes the hand-made inputs of tests/fuzz/regressions (format in fuzz_api.c):
small models reproducing each class of finding, next to the fuzzer's own
crashing inputs kept there; and the hand-made seeds of tests/fuzz/seeds that
the conformance vectors cannot give (control flow over fuzz_api's referenced
models). Usage: make_regressions.py
"""
import os
import struct
import sys

F32, I32, TF32, TI32, TQA8, BOOL, TB8, MODEL = 0, 1, 3, 4, 5, 6, 9, 15
ADD, DEPTHWISE_CONV_2D, FULLY_CONNECTED, RELU6, SQUEEZE, TRANSPOSE = 0, 4, 9, 21, 34, 37
ROI_ALIGN, IF, WHILE = 81, 96, 97
# fuzz_api's flags: inputs and outputs through memory objects, a burst
INPUTS_IN_MEMORY, OUTPUTS_IN_MEMORY, BURST = 2, 128, 8 | 16


def operand(type_, dims, value=None, omitted=False, scale=0.0, zp=0, in_memory=False):
    out = bytes([type_, len(dims)] + dims) + struct.pack("<fi", scale, zp)
    if omitted:
        return out + bytes([2])
    if value is None:
        return out + bytes([0])
    return out + bytes([5 if in_memory else 1]) + struct.pack("<H", len(value)) + value


def ref(index):
    """A MODEL operand referring to fuzz_api's ref_models()[index]."""
    return bytes([MODEL, 0]) + struct.pack("<fi", 0.0, 0) + bytes([3, index])


def model(operands, operations, inputs, outputs, data, flags=0):
    out = bytearray([len(operands)])
    for o in operands:
        out += o
    out += bytes([len(operations)])
    for code, ins, outs in operations:
        out += bytes([code, len(ins)] + ins + [len(outs)] + outs)
    out += bytes([len(inputs)] + inputs + [len(outputs)] + outputs + [flags])
    return bytes(out) + data


def i32(v):
    return struct.pack("<i", v)


def f32s(*v):
    return struct.pack("<%df" % len(v), *v)


def roi_align(roi, ratio, oh=2):
    """ROI_ALIGN on a 1x4x4x1 map; every input reads the data from its start,
    so the map's first four values are the ROI."""
    ops = [operand(TF32, [1, 4, 4, 1]), operand(TF32, [1, 4]),
           operand(TI32, [1], i32(0)), operand(I32, [], i32(oh)), operand(I32, [], i32(2)),
           operand(F32, [], f32s(1.0)), operand(F32, [], f32s(1.0)),
           operand(I32, [], i32(ratio)), operand(I32, [], i32(ratio)),
           operand(BOOL, [], b"\0"), operand(TF32, [1, oh, 2, 1])]
    return model(ops, [(ROI_ALIGN, list(range(10)), [10])], [0, 1], [10], f32s(*roi) * 4)


CASES = {
    # An omitted operand read as a required input: it has no data.
    "omitted-input-relu6.bin": model(
        [operand(TF32, [2, 3], omitted=True), operand(TF32, [2, 3]), operand(TF32, [2, 3])],
        [(RELU6, [0], [1])], [2], [1], f32s(1, 2, 3, 4, 5, 6)),
    # SQUEEZE (whose axes are optional) of an omitted input of unknown rank,
    # which had one element at execution and no data.
    "omitted-input-squeeze.bin": model(
        [operand(TF32, [], omitted=True), operand(TF32, [1]), operand(TF32, [])],
        [(SQUEEZE, [0], [2])], [1], [2], f32s(1)),
    # The same for TRANSPOSE, whose perm is optional.
    "omitted-input-transpose.bin": model(
        [operand(TF32, [], omitted=True), operand(TF32, [1]), operand(TF32, [])],
        [(TRANSPOSE, [0], [2])], [1], [2], f32s(1)),
    # A required scalar (ADD's activation) given no value at execution.
    "omitted-scalar-input-add.bin": model(
        [operand(TF32, [2]), operand(TF32, [2]), operand(I32, []), operand(TF32, [2])],
        [(ADD, [0, 1, 2], [3])], [0, 1, 2], [3], f32s(1, 2), flags=32),
    # A quantized bias of INT32_MIN plus negative products.
    "int32-bias-overflow-depthwise.bin": model(
        [operand(TQA8, [1, 2, 2, 1], scale=1.0, zp=255),
         operand(TQA8, [1, 1, 1, 1], b"\xff", scale=1.0),
         operand(TI32, [1], i32(-2**31), scale=1.0),
         operand(I32, [], i32(1)), operand(I32, [], i32(1)), operand(I32, [], i32(1)),
         operand(I32, [], i32(1)), operand(I32, [], i32(0)),
         operand(TQA8, [1, 2, 2, 1], scale=1.0)],
        [(DEPTHWISE_CONV_2D, list(range(8)), [8])], [0], [8], b"\0" * 4),
    # Adaptive sampling over a huge ROI: ceil(bin) points per bin.
    "roi-align-huge-roi.bin": roi_align([0.0, 0.0, 1e30, 1e30], 0),
    # A ROI far from the map but with a bin small enough to be sampled.
    "roi-align-far-roi.bin": roi_align([-3e6, -3e6, 3e6, 3e6], 0),
    # An explicit sampling ratio of 2^31-1 points per bin and axis.
    "roi-align-huge-ratio.bin": roi_align([0.0, 0.0, 2.0, 2.0], 0x7fffffff),
    # Infinite and NaN coordinates.
    "roi-align-nan-roi.bin": roi_align([float("nan"), float("-inf"), float("inf"), 1.0], 0),
}


SEEDS = {
    # while x < 100: x = x + x
    "control-flow-while-f32.bin": model(
        [ref(1), ref(0), operand(TF32, [1]), operand(TF32, [1])],
        [(WHILE, [0, 1, 2], [3])], [2], [3], f32s(1.0)),
    # while x < 10: x = x + 1
    "control-flow-while-i32.bin": model(
        [ref(3), ref(2), operand(TI32, [1]), operand(TI32, [1])],
        [(WHILE, [0, 1, 2], [3])], [2], [3], i32(0)),
    # while true: the loop timeout ends it
    "control-flow-while-forever.bin": model(
        [ref(4), ref(5), operand(TB8, [1]), operand(TB8, [1])],
        [(WHILE, [0, 1, 2], [3])], [2], [3], b"\1"),
    # FULLY_CONNECTED whose weights (large enough to stay in the memory
    # object, not copied) and bias are constants in a memory object; the
    # input and the output through memory objects too, computed by a burst.
    "memory-constants-fully-connected.bin": model(
        [operand(TF32, [1, 16]),
         operand(TF32, [16, 16], f32s(*[(i % 7) / 8.0 - 0.25 for i in range(256)]), in_memory=True),
         operand(TF32, [16], f32s(*[i / 4.0 for i in range(16)]), in_memory=True),
         operand(I32, [], i32(1), in_memory=True), operand(TF32, [1, 16])],
        [(FULLY_CONNECTED, [0, 1, 2, 3], [4])], [0], [4], f32s(*range(16)),
        flags=INPUTS_IN_MEMORY | OUTPUTS_IN_MEMORY | BURST),
    # if c: x + x else: x + x
    "control-flow-if.bin": model(
        [operand(TB8, [1]), ref(0), ref(0), operand(TF32, [1]), operand(TF32, [1])],
        [(IF, [0, 1, 2, 3], [4])], [0, 3], [4], b"\1\0\0\0"),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for sub, blobs in (("regressions", CASES), ("seeds", SEEDS)):
        os.makedirs(os.path.join(here, sub), exist_ok=True)
        for name, blob in blobs.items():
            with open(os.path.join(here, sub, name), "wb") as f:
                f.write(blob)


if __name__ == "__main__":
    main()
