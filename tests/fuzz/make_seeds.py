#!/usr/bin/env python3
"""Encodes the conformance vectors as seeds for fuzz_api (format in fuzz_api.c).

Usage: make_seeds.py VECTOR_DIR OUT_DIR [PER_SPEC]
"""
import glob
import gzip
import json
import os
import struct
import sys

TYPES = ["FLOAT32", "INT32", "UINT32", "TENSOR_FLOAT32", "TENSOR_INT32",
         "TENSOR_QUANT8_ASYMM", "BOOL", "TENSOR_QUANT16_SYMM", "TENSOR_FLOAT16",
         "TENSOR_BOOL8", "FLOAT16", "TENSOR_QUANT8_SYMM_PER_CHANNEL",
         "TENSOR_QUANT16_ASYMM", "TENSOR_QUANT8_SYMM", "TENSOR_QUANT8_ASYMM_SIGNED", "MODEL"]
PACK = {"FLOAT32": "f", "TENSOR_FLOAT32": "f", "INT32": "i", "TENSOR_INT32": "i",
        "UINT32": "I", "TENSOR_QUANT8_ASYMM": "B", "BOOL": "B", "TENSOR_BOOL8": "B",
        "TENSOR_QUANT16_SYMM": "h", "TENSOR_FLOAT16": "e", "FLOAT16": "e",
        "TENSOR_QUANT8_SYMM_PER_CHANNEL": "b", "TENSOR_QUANT16_ASYMM": "H",
        "TENSOR_QUANT8_SYMM": "b", "TENSOR_QUANT8_ASYMM_SIGNED": "b"}


def values(o):
    fmt = PACK[o["type"]]
    vals = [float(v) if fmt in "fe" else int(v) for v in o["data"]]
    return struct.pack("<%d%s" % (len(vals), fmt), *vals)


def encode(test):
    main = test["main"]
    ops = main["operands"]
    if test["referenced"] or len(ops) > 64 or len(main["operations"]) > 31:
        return None
    out = bytearray([len(ops)])
    for o in ops:
        if o["type"] == "MODEL" or len(o["dims"]) > 6 or any(d > 255 for d in o["dims"]):
            return None
        out += bytes([TYPES.index(o["type"]), len(o["dims"])] + o["dims"])
        out += struct.pack("<fi", o["scale"], o["zero_point"])
        if o["lifetime"] in ("CONSTANT_COPY", "CONSTANT_REFERENCE"):
            blob = values(o)
            if len(blob) > 8192:
                return None
            out += bytes([1]) + struct.pack("<H", len(blob)) + blob
        elif o["lifetime"] == "NO_VALUE":
            out += bytes([2])
        else:
            out += bytes([0])
        if o["type"] == "TENSOR_QUANT8_SYMM_PER_CHANNEL":
            cq = o["channel_quant"]
            out += bytes([cq["channel_dim"]]) + struct.pack("<%df" % len(cq["scales"]), *cq["scales"])
    out += bytes([len(main["operations"])])
    for op in main["operations"]:
        out += bytes([OPS[op["type"]], len(op["inputs"])])
        out += bytes(op["inputs"]) + bytes([len(op["outputs"])]) + bytes(op["outputs"])
    out += bytes([len(main["inputs"])] + main["inputs"] + [len(main["outputs"])] + main["outputs"])
    out += bytes([1 if test["relaxed"] else 0])
    for i in main["inputs"]:
        out += values(ops[i])
    return bytes(out) if len(out) <= 32768 else None


OPS = {}


def main():
    vec_dir, out_dir = sys.argv[1], sys.argv[2]
    per_spec = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    header = os.path.join(os.path.dirname(__file__), "..", "..", "include", "android",
                          "NeuralNetworksTypes.h")
    for line in open(header):
        line = line.strip()
        if line.startswith("ANEURALNETWORKS_") and "=" in line and line.endswith(","):
            name, value = line[len("ANEURALNETWORKS_"):-1].split(" = ")
            if value.isdigit():
                OPS.setdefault(name, int(value))
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    for path in sorted(glob.glob(os.path.join(vec_dir, "*", "*.json.gz"))):
        spec = json.load(gzip.open(path))
        taken = 0
        for test in spec["tests"]:
            if taken >= per_spec:
                break
            blob = encode(test)
            if blob is None:
                continue
            with open(os.path.join(out_dir, test["name"] + ".bin"), "wb") as f:
                f.write(blob)
            taken += 1
            count += 1
    print("%d seeds" % count)


if __name__ == "__main__":
    main()
