#!/usr/bin/env python3
"""A loopback Bitcoin-style node for kiln's solo-mining tests (Python 3 standard library only).

It serves JSON-RPC over HTTP on 127.0.0.1 (an ephemeral port, written to DIR/port): getblockchaininfo,
getblocktemplate (BIP 22/23, with longpoll) and submitblock. Its templates come from a REAL block:
the block's non-coinbase transactions (segwit and legacy) become the template's transactions, and
its height, version and previous hash the template's, with an easy target (regtest's 207fffff by
default) so that a CPU finds blocks in moments. Before serving, it checks its own block code on
the real block: the Merkle root of the real txids must be the header's, and the witness commitment
it computes from the real wtxids must be the one in the real coinbase.

submitblock rebuilds and checks the whole block independently of kiln: the header's previous hash,
bits, version and time; the proof of work against the template's target (sha256d, or Litecoin's
scrypt with --algo scrypt); the Merkle root from the txids; the template's transactions byte for
byte; the coinbase's BIP 34 height, scriptSig size, payout (the whole coinbasevalue to the expected
scriptPubKey) and the BIP 141 witness commitment with its reserved value. It answers null or
Bitcoin Core's reason string, appends each verdict to DIR/verdicts.jsonl, and moves its tip to an
accepted block (height + 1, same transactions), waking any longpoll.

Scenario knobs: --new-tip-after S moves the tip by itself after S seconds (another miner's block),
with --bits-after for the new template's bits; --no-longpoll leaves longpollid out (kiln polls);
--no-default-commitment leaves default_witness_commitment out (kiln computes it); --mweb answers
getblocktemplate as a Litecoin node with MWEB active does for a client without the mweb rule."""
import argparse
import base64
import hashlib
import json
import os
import secrets
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def sha256d(b):
    return hashlib.sha256(hashlib.sha256(b).digest()).digest()


def bits_target(nbits):
    exp, mant = nbits >> 24, nbits & 0x7FFFFF
    return mant << (8 * (exp - 3)) if exp > 3 else mant >> (8 * (3 - exp))


class Reader:
    def __init__(self, b, at=0):
        self.b, self.at = b, at

    def take(self, n):
        if self.at + n > len(self.b):
            raise ValueError("truncated at %d" % self.at)
        v = self.b[self.at:self.at + n]
        self.at += n
        return v

    def compact(self):
        c = self.take(1)[0]
        if c < 0xFD:
            return c
        return int.from_bytes(self.take({0xFD: 2, 0xFE: 4, 0xFF: 8}[c]), "little")


def parse_tx(r):
    """One transaction at r: dict with raw, stripped (non-witness) bytes, inputs, outputs, witness."""
    start = r.at
    version = r.take(4)
    segwit = r.b[r.at:r.at + 2] == b"\x00\x01"
    if segwit:
        r.take(2)
    body = r.at
    ins = []
    for _ in range(r.compact()):
        prev = r.take(36)
        script = r.take(r.compact())
        seq = r.take(4)
        ins.append((prev, script, seq))
    outs = []
    for _ in range(r.compact()):
        value = int.from_bytes(r.take(8), "little")
        outs.append((value, r.take(r.compact())))
    body_end = r.at
    wit = []
    if segwit:
        for _ in ins:
            wit.append([r.take(r.compact()) for _ in range(r.compact())])
    lock = r.take(4)
    raw = r.b[start:r.at]
    stripped = version + r.b[body:body_end] + lock
    return {"raw": raw, "txid": sha256d(stripped), "wtxid": sha256d(raw), "ins": ins, "outs": outs, "wit": wit,
            "segwit": segwit}


def parse_block(b):
    r = Reader(b, 80)
    txs = [parse_tx(r) for _ in range(r.compact())]
    if r.at != len(b):
        raise ValueError("%d bytes after the last transaction" % (len(b) - r.at))
    return b[:80], txs


def merkle(hashes):
    level = list(hashes)
    while len(level) > 1:
        if len(level) % 2:
            level.append(level[-1])
        level = [sha256d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def witness_commitment(wtxids_without_coinbase, reserved):
    return sha256d(merkle([b"\x00" * 32] + list(wtxids_without_coinbase)) + reserved)


def bip34(height):
    """Bitcoin Core's CScript() << height."""
    if height == 0:
        return b"\x00"
    if 1 <= height <= 16:
        return bytes([0x50 + height])
    n = height.to_bytes((height.bit_length() + 7) // 8, "little")
    if n[-1] & 0x80:
        n += b"\x00"
    return bytes([len(n)]) + n


def find_commitment(outs):
    found = None
    for value, script in outs:
        if len(script) >= 38 and script[:6] == bytes.fromhex("6a24aa21a9ed"):
            found = script[6:38]
    return found


def pow_hash(header, algo):
    if algo == "scrypt":
        return hashlib.scrypt(header, salt=header, n=1024, r=1, p=1, dklen=32)
    return sha256d(header)


class Node:
    def __init__(self, a):
        self.a = a
        data = open(a.block, "rb").read()
        if a.block.endswith(".hex"):
            data = bytes.fromhex(data.decode().strip())
        header, txs = parse_block(data)
        self.self_check(header, txs)
        self.txs = txs[1:]
        self.version = struct.unpack("<I", header[:4])[0]
        self.prev = header[4:36]
        self.height = a.height
        self.bits = int(a.bits, 16)
        self.value = sum(v for v, _ in txs[0]["outs"])
        self.cv = threading.Condition()
        self.serial = 0
        self.verdicts = open(os.path.join(a.dir, "verdicts.jsonl"), "a")
        self.t0 = time.time()

    def self_check(self, header, txs):
        """The checker's own code on the real block: its Merkle root and its witness commitment."""
        if merkle([t["txid"] for t in txs]) != header[36:68]:
            sys.exit("mock_node: self-check failed: the real block's Merkle root")
        cb = txs[0]
        real = find_commitment(cb["outs"])
        if real is not None:
            reserved = cb["wit"][0][0]
            if witness_commitment([t["wtxid"] for t in txs[1:]], reserved) != real:
                sys.exit("mock_node: self-check failed: the real block's witness commitment")

    def template(self):
        target = bits_target(self.bits)
        t = {
            "capabilities": ["proposal"],
            "version": self.version,
            "rules": ["csv", "!segwit", "taproot"],
            "vbavailable": {},
            "vbrequired": 0,
            "previousblockhash": self.prev[::-1].hex(),
            "transactions": [{"data": x["raw"].hex(), "txid": x["txid"][::-1].hex(), "hash": x["wtxid"][::-1].hex(),
                              "depends": [], "fee": 0, "sigops": 4, "weight": 4 * len(x["raw"])} for x in self.txs],
            "coinbaseaux": {},
            "coinbasevalue": self.value,
            "target": "%064x" % target,
            "mintime": 1500000000,
            "mutable": ["time", "transactions", "prevblock"],
            "noncerange": "00000000ffffffff",
            "sigoplimit": 80000,
            "sizelimit": 4000000,
            "weightlimit": 4000000,
            "curtime": int(time.time()),
            "bits": "%08x" % self.bits,
            "height": self.height,
        }
        if not self.a.no_longpoll:
            t["longpollid"] = self.prev[::-1].hex() + str(self.serial)
        if self.a.workid:
            t["workid"] = self.a.workid
        if self.a.corrupt_txid and t["transactions"]:
            t["transactions"][0]["txid"] = "00" * 32
        if not self.a.no_default_commitment:
            t["default_witness_commitment"] = ("6a24aa21a9ed" + witness_commitment(
                [x["wtxid"] for x in self.txs], b"\x00" * 32).hex())
        return t

    def advance(self, new_prev, bits=None):
        with self.cv:
            self.prev = new_prev
            self.height += 1
            if bits is not None:
                self.bits = bits
            self.serial += 1
            self.tip_time = time.time()
            self.cv.notify_all()

    def check(self, hexblock):
        """None when the block is valid on the current tip, else Core's reason string."""
        try:
            b = bytes.fromhex(hexblock)
            header, txs = parse_block(b)
        except ValueError as e:
            return "bad-blk-length (%s)" % e
        version, prev, root, ntime, bits, nonce = struct.unpack("<I32s32sIII", header)
        with self.cv:
            tip, height, want_bits = self.prev, self.height, self.bits
        if prev != tip:
            return "bad-prevblk"
        if bits != want_bits:
            return "bad-diffbits"
        if version != self.version:
            return "bad-version"
        if ntime < 1500000000 or ntime > time.time() + 7200:
            return "time-too-old" if ntime < 1500000000 else "time-too-new"
        if int.from_bytes(pow_hash(header, self.a.algo), "little") > bits_target(bits):
            return "high-hash"
        if merkle([t["txid"] for t in txs]) != root:
            return "bad-txnmrklroot"
        if [t["raw"] for t in txs[1:]] != [t["raw"] for t in self.txs]:
            return "bad-txns-template (the template's transactions are not the block's)"
        cb = txs[0]
        if len(cb["ins"]) != 1 or cb["ins"][0][0] != b"\x00" * 32 + b"\xff" * 4:
            return "bad-cb-missing"
        sig = cb["ins"][0][1]
        if not 2 <= len(sig) <= 100:
            return "bad-cb-length"
        if not sig.startswith(bip34(height)):
            return "bad-cb-height"
        if sum(v for v, _ in cb["outs"]) > self.value:
            return "bad-cb-amount"
        if not any(v == self.value and s == bytes.fromhex(self.a.payout) for v, s in cb["outs"]):
            return "bad-cb-payee (no output of %d to %s)" % (self.value, self.a.payout)
        commit = find_commitment(cb["outs"])
        if commit is None:
            if any(t["segwit"] for t in txs):
                return "unexpected-witness"
            return "missing-witness-commitment"
        if len(cb["wit"]) != 1 or len(cb["wit"][0]) != 1 or len(cb["wit"][0][0]) != 32:
            return "bad-witness-nonce-size"
        if witness_commitment([t["wtxid"] for t in txs[1:]], cb["wit"][0][0]) != commit:
            return "bad-witness-merkle-match"
        self.advance(sha256d(header))
        self.busy = True
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        node = self.server.node
        length = int(self.headers.get("Content-Length", "0"))
        req = self.rfile.read(length)
        auth = self.headers.get("Authorization", "")
        if auth != "Basic " + base64.b64encode(node.a.userpass.encode()).decode():
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="jsonrpc"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            call = json.loads(req)
        except ValueError:
            return self.reply(500, {"result": None, "error": {"code": -32700, "message": "Parse error"}, "id": None})
        method, params, rid = call.get("method"), call.get("params", []), call.get("id")
        result, error = None, None
        if method == "getblockchaininfo":
            result = {"chain": node.a.chain, "blocks": node.height - 1}
        elif method == "getblocktemplate":
            req = params[0] if params else {}
            rules = req.get("rules", [])
            if node.a.mweb and "mweb" not in rules:
                error = {"code": -8, "message": "getblocktemplate must be called with the mweb rule set "
                                                "(call with {\"rules\": [\"mweb\", \"segwit\"]})"}
            elif "segwit" not in rules:
                error = {"code": -8, "message": "getblocktemplate must be called with the segwit rule set "
                                                "(call with {\"rules\": [\"segwit\"]})"}
            elif node.a.busy_after_block and req.get("longpollid") is None and getattr(node, "busy", False):
                node.busy = False
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            else:
                lp = req.get("longpollid")
                with node.cv:
                    if lp is not None and not node.a.no_longpoll:
                        node.longpolls = getattr(node, "longpolls", 0) + 1
                        end = time.time() + 30
                        while lp == node.template()["longpollid"] and time.time() < end:
                            node.cv.wait(0.2)
                    result = node.template()
        elif method == "submitblock":
            tip_time = getattr(node, "tip_time", None)  # when the tip the block builds on came
            given = params[1].get("workid") if len(params) > 1 and isinstance(params[1], dict) else None
            if node.a.workid and given != node.a.workid:
                verdict = "workid %r, the template's was %r" % (given, node.a.workid)
            else:
                verdict = node.check(params[0] if params else "")
            node.verdicts.write(json.dumps({"height": node.height - (1 if verdict is None else 0), "verdict": verdict,
                                            "after_tip_s": None if tip_time is None else time.time() - tip_time,
                                            "at_s": time.time() - node.t0}) + "\n")
            node.verdicts.flush()
            result = verdict
        else:
            error = {"code": -32601, "message": "Method not found"}
        self.reply(200 if error is None else 500, {"result": result, "error": error, "id": rid})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--block", required=True, help="a real block, raw or .hex")
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--chain", default="regtest")
    ap.add_argument("--payout", required=True, help="the scriptPubKey (hex) every block must pay")
    ap.add_argument("--bits", default="207fffff")
    ap.add_argument("--algo", default="sha256d", choices=["sha256d", "scrypt"])
    ap.add_argument("--user", default="kiln")
    ap.add_argument("--password", default="sesame")
    ap.add_argument("--cookie", action="store_true", help="authenticate with DIR/.cookie as Bitcoin Core does")
    ap.add_argument("--no-longpoll", action="store_true")
    ap.add_argument("--no-default-commitment", action="store_true")
    ap.add_argument("--mweb", action="store_true")
    ap.add_argument("--workid", default=None, help="a BIP 22 workid that submitblock must send back")
    ap.add_argument("--busy-after-block", action="store_true",
                    help="answer the first getblocktemplate without longpollid after each accepted block with "
                         "HTTP 503, as a node whose work queue is full")
    ap.add_argument("--corrupt-txid", action="store_true", help="serve a template whose first txid is wrong")
    ap.add_argument("--new-tip-after", type=float, default=0)
    ap.add_argument("--bits-after", default=None)
    ap.add_argument("--time-limit", type=float, default=60)
    a = ap.parse_args()
    if a.cookie:
        a.userpass = "__cookie__:" + secrets.token_hex(32)
        with open(os.path.join(a.dir, ".cookie"), "w") as f:
            f.write(a.userpass)
    else:
        a.userpass = a.user + ":" + a.password
    node = Node(a)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.node = node
    with open(os.path.join(a.dir, "port.tmp"), "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(os.path.join(a.dir, "port.tmp"), os.path.join(a.dir, "port"))
    if a.new_tip_after > 0:
        def other_miner():
            time.sleep(a.new_tip_after)
            node.advance(hashlib.sha256(b"another miner's block").digest(),
                         int(a.bits_after, 16) if a.bits_after else None)
        threading.Thread(target=other_miner, daemon=True).start()
    threading.Timer(a.time_limit, lambda: os._exit(3)).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
