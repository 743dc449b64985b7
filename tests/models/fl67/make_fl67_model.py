#!/usr/bin/env python3
"""Writes two small float32 TensorFlow Lite models made of the operators that
NNAPI feature levels 6 and 7 have as single operations, with reference
input/output files computed here with plain Python:

fl67_ops.tflite (+ ref/), for nnapi-run:
    X [2,3], Y [2,3] -> PACK(axis 0) [2,2,3] -> REVERSE_V2(axis -1)
      -> MIRROR_PAD(SYMMETRIC, [[0,0],[1,1],[0,2]]) [2,4,5]
      -> BATCH_MATMUL(t, t, adj_y) [2,4,4]
../fl6_pack_batch_matmul.tflite (+ ../ref/fl6_pack_batch_matmul/), for
nnapi-run and TensorFlow Lite's NNAPI delegate (whose 2.9 release passes
MIRROR_PAD's mode and REVERSE_V2's axis unconverted, so the first model is
not for it):
    X [2,3], Y [2,3] -> PACK(axis 0) [2,2,3] -> BATCH_MATMUL(t, t, adj_y) [2,2,2]

Needs the flatbuffers Python package (Debian: python3-flatbuffers). The
generated files are committed; run this only to regenerate them."""
import os
import struct

import flatbuffers

here = os.path.dirname(os.path.abspath(__file__))
OP_PACK, OP_MIRROR_PAD, OP_REVERSE_V2, OP_BATCH_MATMUL = 83, 100, 105, 126
# BuiltinOptions union members of the TFLite schema.
OPT_PACK, OPT_MIRROR_PAD, OPT_REVERSE_V2, OPT_BATCH_MATMUL = 59, 77, 81, 101
FLOAT32, INT32 = 0, 2

x = [[0.5, -1.0, 2.0], [3.0, 0.25, -2.5]]
y = [[1.5, 4.0, -0.75], [-3.0, 1.0, 2.25]]
paddings = [[0, 0], [1, 1], [0, 2]]

# Reference computation.
packed = [x, y]
rev = [[row[::-1] for row in m] for m in packed]


def sym(seq, before, after):
    return seq[:before][::-1] + seq + seq[len(seq) - after:][::-1]


padded = [sym([sym(row, paddings[2][0], paddings[2][1]) for row in m], paddings[1][0],
              paddings[1][1]) for m in rev]


def gram(batches):
    """Each matrix times its own transpose (BATCH_MATMUL with adj_y)."""
    return [[[sum(a * b for a, b in zip(ri, rj)) for rj in m] for ri in m] for m in batches]


out = gram(padded)


def floats(v):
    flat = []
    def walk(e):
        if isinstance(e, list):
            for i in e:
                walk(i)
        else:
            flat.append(e)
    walk(v)
    return struct.pack("<%df" % len(flat), *flat)


b = flatbuffers.Builder(1024)


def vec_i32(vals):
    b.StartVector(4, len(vals), 4)
    for v in reversed(vals):
        b.PrependInt32(v)
    return b.EndVector()


def vec_off(offs):
    b.StartVector(4, len(offs), 4)
    for o in reversed(offs):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def buffer(data):
    d = b.CreateByteVector(data) if data else None
    b.StartObject(1)
    if d is not None:
        b.PrependUOffsetTRelativeSlot(0, d, 0)
    return b.EndObject()


def tensor(shape, ttype, buf, name):
    s = vec_i32(shape)
    n = b.CreateString(name)
    b.StartObject(4)
    b.PrependUOffsetTRelativeSlot(0, s, 0)
    b.PrependInt8Slot(1, ttype, -1)
    b.PrependUint32Slot(2, buf, 0)
    b.PrependUOffsetTRelativeSlot(3, n, 0)
    return b.EndObject()


def options(fields):
    """fields: list of (slot, kind, value) with kind 'i32', 'u8' or 'bool'."""
    b.StartObject(max([f[0] for f in fields], default=-1) + 1)
    for slot, kind, value in fields:
        if kind == "i32":
            b.PrependInt32Slot(slot, value, 0)
        elif kind == "u8":
            b.PrependInt8Slot(slot, value, 0)
        else:
            b.PrependBoolSlot(slot, value, False)
    return b.EndObject()


def operator(opcode_index, ins, outs, opt_type, opt):
    i, o = vec_i32(ins), vec_i32(outs)
    b.StartObject(5)
    b.PrependUint32Slot(0, opcode_index, 0)
    b.PrependUOffsetTRelativeSlot(1, i, 0)
    b.PrependUOffsetTRelativeSlot(2, o, 0)
    b.PrependUint8Slot(3, opt_type, 0)
    b.PrependUOffsetTRelativeSlot(4, opt, 0)
    return b.EndObject()


def opcode(code):
    b.StartObject(4)
    b.PrependInt8Slot(0, code, 0)
    b.PrependInt32Slot(2, 1, 1)
    b.PrependInt32Slot(3, code, 0)
    return b.EndObject()


def write_model(path, tensor_specs, op_specs, op_codes, buffer_data, inputs, outputs):
    """Builds and writes one model; each op spec is (code index, ins, outs,
    options type, option fields)."""
    global b
    b = flatbuffers.Builder(1024)
    buffers = [buffer(d) for d in [None] + buffer_data]
    tensors = [tensor(*t) for t in tensor_specs]
    ops = [operator(c, i, o, t, options(f)) for c, i, o, t, f in op_specs]
    codes = [opcode(c) for c in op_codes]
    t_vec, o_vec = vec_off(tensors), vec_off(ops)
    in_vec, out_vec = vec_i32(inputs), vec_i32(outputs)
    name = b.CreateString("main")
    b.StartObject(5)
    b.PrependUOffsetTRelativeSlot(0, t_vec, 0)
    b.PrependUOffsetTRelativeSlot(1, in_vec, 0)
    b.PrependUOffsetTRelativeSlot(2, out_vec, 0)
    b.PrependUOffsetTRelativeSlot(3, o_vec, 0)
    b.PrependUOffsetTRelativeSlot(4, name, 0)
    subgraph = b.EndObject()
    codes_vec, sub_vec, buf_vec = vec_off(codes), vec_off([subgraph]), vec_off(buffers)
    desc = b.CreateString("nnapi-linux feature level 6/7 operators")
    b.StartObject(5)
    b.PrependUint32Slot(0, 3, 0)
    b.PrependUOffsetTRelativeSlot(1, codes_vec, 0)
    b.PrependUOffsetTRelativeSlot(2, sub_vec, 0)
    b.PrependUOffsetTRelativeSlot(3, desc, 0)
    b.PrependUOffsetTRelativeSlot(4, buf_vec, 0)
    model = b.EndObject()
    b.Finish(model, file_identifier=b"TFL3")
    with open(path, "wb") as f:
        f.write(b.Output())


def write_ref(directory, result):
    os.makedirs(directory, exist_ok=True)
    for name, data in (("input_0.bin", floats(x)), ("input_1.bin", floats(y)),
                       ("output_0.bin", floats(result))):
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)


no_adj_x_adj_y = [(0, "bool", False), (1, "bool", True)]
write_model(os.path.join(here, "fl67_ops.tflite"),
            [([2, 3], FLOAT32, 0, "x"), ([2, 3], FLOAT32, 0, "y"),
             ([2, 2, 3], FLOAT32, 0, "packed"), ([1], INT32, 1, "axis"),
             ([2, 2, 3], FLOAT32, 0, "reversed"), ([3, 2], INT32, 2, "paddings"),
             ([2, 4, 5], FLOAT32, 0, "padded"), ([2, 4, 4], FLOAT32, 0, "gram")],
            [(0, [0, 1], [2], OPT_PACK, [(0, "i32", 2), (1, "i32", 0)]),
             (1, [2, 3], [4], OPT_REVERSE_V2, []),
             (2, [4, 5], [6], OPT_MIRROR_PAD, [(0, "u8", 1)]),
             (3, [6, 6], [7], OPT_BATCH_MATMUL, no_adj_x_adj_y)],
            [OP_PACK, OP_REVERSE_V2, OP_MIRROR_PAD, OP_BATCH_MATMUL],
            [struct.pack("<i", -1), struct.pack("<6i", *[v for p in paddings for v in p])],
            [0, 1], [7])
write_ref(os.path.join(here, "ref"), out)

write_model(os.path.join(here, "..", "fl6_pack_batch_matmul.tflite"),
            [([2, 3], FLOAT32, 0, "x"), ([2, 3], FLOAT32, 0, "y"),
             ([2, 2, 3], FLOAT32, 0, "packed"), ([2, 2, 2], FLOAT32, 0, "gram")],
            [(0, [0, 1], [2], OPT_PACK, [(0, "i32", 2), (1, "i32", 0)]),
             (1, [2, 2], [3], OPT_BATCH_MATMUL, no_adj_x_adj_y)],
            [OP_PACK, OP_BATCH_MATMUL], [], [0, 1], [3])
write_ref(os.path.join(here, "..", "ref", "fl6_pack_batch_matmul"), gram(packed))
