"""Ctrl-C stops long calls: a child process starts one, gets SIGINT and must raise KeyboardInterrupt
(or what its own SIGINT handler raises) within a second, where the call would run for minutes."""
import signal
import subprocess
import sys
import time

import pytest

HEADER = ("0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f61"
          "7fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c")
CALLS = {
    # a target nothing meets, over the whole 2^32 nonce space: hours on a CPU
    "scan": f"kiln.scan('{HEADER}', target=1, device='cpu')",
    "scrypt": "kiln.scrypt(b'pw', salt=b'salt', n=2**16, r=8, p=1000, maxmem=2**30)",  # 64 MiB a lane
    # 4 GiB of zero pages (never touched, so never resident): seconds of SHA3-512
    "hash_batch": "kiln.hash_batch(np.zeros((65536, 65536), np.uint8), 'sha3-512', 'cpu')",
    "pagerank": ("rng = np.random.default_rng(0)\n"
                 "kiln.pagerank(rng.integers(0, 100000, 1000000), rng.integers(0, 100000, 1000000), tol=0,"
                 " max_iter=10**6, device='cpu')"),
}
CHILD = """
import signal, sys, time
import numpy as np
import kiln
class Custom(Exception):
    pass
if {custom}:
    def handler(sig, frame):
        raise Custom
    signal.signal(signal.SIGINT, handler)
print("go", flush=True)
t = time.monotonic()
try:
{call}
    print("finished")
except KeyboardInterrupt:
    print("interrupted %.3f" % (time.monotonic() - t))
except Custom:
    print("custom %.3f" % (time.monotonic() - t))
"""


def interrupt(call, custom=False, delay=0.5):
    body = "\n".join("    " + line for line in call.splitlines())
    p = subprocess.Popen([sys.executable, "-c", CHILD.format(call=body, custom=custom)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "go"
    time.sleep(delay)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    return out.strip(), time.monotonic() - sent, err


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_stops_the_call(name):
    out, after, err = interrupt(CALLS[name])
    assert out.startswith("interrupted"), (out, err)
    assert after < 2.0, after


def test_the_programs_own_handler_runs():
    out, after, err = interrupt(CALLS["scan"], custom=True)
    assert out.startswith("custom"), (out, err)
    assert after < 2.0


def test_calls_run_normally_after_an_interrupt():
    code = ("import kiln, signal, os, threading\n"
            "threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
            f"try:\n    {CALLS['scan']}\nexcept KeyboardInterrupt:\n    pass\n"
            f"print(kiln.scan('{HEADER}', start=2083236890, count=10, device='cpu'))\n"
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.stdout.split() == ["[2083236893]", "True"], out.stderr
