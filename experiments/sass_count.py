#!/usr/bin/env python3
"""Counts SASS instructions per kernel in `cuobjdump -sass` output (development aid).

usage: cuobjdump -sass FILE | experiments/sass_count.py [NAME_SUBSTRING]
Prints, per function: total instructions (NOPs excluded), the integer-ALU ones (LOP3, SHF,
IADD3, LEA, PRMT, ISETP, SEL, ...) and the multiply-add pipe ones (IMAD*, MOV via IMAD), and the
most frequent opcodes."""
import re
import sys

ALU = {"LOP3", "SHF", "IADD3", "LEA", "PRMT", "ISETP", "SEL", "MOV", "SHL", "SHR", "IABS", "IMNMX", "FLO", "POPC"}
want = sys.argv[1] if len(sys.argv) > 1 else ""
cur, counts = None, {}
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = m.group(1)
        counts[cur] = {}
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,6}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9]+)", line)
    if m and cur:
        op = m.group(2)
        counts[cur][op] = counts[cur].get(op, 0) + 1
for f, c in counts.items():
    if want not in f:
        continue
    total = sum(v for k, v in c.items() if k != "NOP")
    alu = sum(v for k, v in c.items() if k in ALU)
    fma = sum(v for k, v in c.items() if k in ("IMAD", "HFMA2", "FFMA"))
    top = ", ".join("%s %d" % kv for kv in sorted(c.items(), key=lambda kv: -kv[1])[:6])
    print("SASS %-60s total=%5d alu=%5d imad=%5d  [%s]" % (f[:60], total, alu, fma, top))
