#!/usr/bin/env python3
"""Writes the unkeyed BLAKE2b and BLAKE2s entries of the BLAKE2 reference repository's
testvectors/blake2-kat.json (BLAKE2/BLAKE2, commit ed1974ea) in the CAVP .rsp form the tests read
(Len in bits, Msg, MD; Len = 0 with Msg = 00 for the empty message), values unchanged.
Usage: blake2_unkeyed_rsp.py blake2-kat.json OUTDIR"""
import json
import sys

entries = json.load(open(sys.argv[1]))
for algo in ("blake2b", "blake2s"):
    with open(f"{sys.argv[2]}/{algo}-unkeyed.rsp", "w") as f:
        f.write(f"# {algo}, unkeyed: the entries of BLAKE2/BLAKE2 testvectors/blake2-kat.json "
                "(commit ed1974ea) with an empty key\n\n")
        for e in entries:
            if e["hash"] != algo or e["key"]:
                continue
            msg = e["in"]
            f.write(f"Len = {len(msg) * 4}\nMsg = {msg or '00'}\nMD = {e['out']}\n\n")
