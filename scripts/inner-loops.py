#!/usr/bin/env python3
"""Innermost loops of a disassembly, for counting instructions per multiply-add.

Reads `objdump -d --no-show-raw-insn` output and prints every innermost loop
(a backward conditional branch with no other branch in its body) that holds
one of the given mnemonics: its function, address range, instruction count
and the count of each mnemonic.

    aarch64-linux-gnu-objdump -d --no-show-raw-insn \\
        build-aarch64/CMakeFiles/nn_objects.dir/src/kernels/gemm_neondot.c.o \\
        | scripts/inner-loops.py sdot
"""
import re
import sys

BRANCH = re.compile(r"^(b\.|cbz$|cbnz$|tbz$|tbnz$|b$)")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: objdump -d --no-show-raw-insn FILE | inner-loops.py MNEMONIC[,MNEMONIC...]")
    wanted = sys.argv[1].split(",")
    insns, fn = [], None
    for line in sys.stdin:
        m = re.match(r"^[0-9a-f]+ <(.*)>:", line)
        if m:
            fn = m.group(1)
            continue
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3), fn))
    where = {a: i for i, (a, _, _, _) in enumerate(insns)}
    for i, (addr, op, args, f) in enumerate(insns):
        if not BRANCH.match(op) or op == "b":
            continue
        m = re.search(r"\b([0-9a-f]+) <", args)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target >= addr or target not in where:
            continue
        body = insns[where[target]:i + 1]
        if any(BRANCH.match(x[1]) or x[1] in ("ret", "bl") for x in body[:-1]):
            continue
        ops = {}
        for x in body:
            ops[x[1]] = ops.get(x[1], 0) + 1
        hits = sum(ops.get(w, 0) for w in wanted)
        if hits == 0:
            continue
        detail = " ".join(f"{o}:{c}" for o, c in sorted(ops.items(), key=lambda kv: -kv[1]))
        print(f"{f} {target:#x}-{addr:#x}: {len(body)} instructions, "
              f"{'+'.join(wanted)} {hits}; {detail}")


if __name__ == "__main__":
    main()
