#!/usr/bin/env python3
"""Runs a command the way the pool tests need to judge it: with a time limit, optionally a
SIGINT after some seconds, and records its exit code, wall time, end (time.time(), the clock of
the test pool that may stop it) and peak resident memory (getrusage of the child: the kernel's own
figure, not kiln's) into files of a folder.

Usage: run_measured.py DIR LIMIT_S SIGINT_AFTER_S(0: none) STDOUT STDERR -- COMMAND..."""
import os
import resource
import signal
import subprocess
import sys
import time


def main():
    d, limit, sigint_after, out, err = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    t0 = time.monotonic()
    with open(out, "wb") as fo, open(err, "wb") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        with open(os.path.join(d, "kiln.pid.tmp"), "w") as f:  # for the test pool's stop_kiln
            f.write("%d\n" % p.pid)
        os.rename(os.path.join(d, "kiln.pid.tmp"), os.path.join(d, "kiln.pid"))
        signalled = False
        while p.poll() is None:
            now = time.monotonic() - t0
            if sigint_after > 0 and not signalled and now >= sigint_after:
                p.send_signal(signal.SIGINT)
                signalled = True
            if now >= limit:
                p.kill()
                break
            time.sleep(0.01)
        rc = p.wait()
    elapsed, end_time = time.monotonic() - t0, time.time()
    if rc < 0:
        rc = 128 - rc  # as the shell reports a death by signal
    maxrss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    for name, value in (("rc", rc), ("elapsed_ms", int(elapsed * 1000)), ("maxrss_kb", maxrss_kb)):
        with open(os.path.join(d, name), "w") as f:
            f.write("%d\n" % value)
    with open(os.path.join(d, "end_time"), "w") as f:  # the test pool's clock: how soon its SIGINT ended kiln
        f.write("%.3f\n" % end_time)


if __name__ == "__main__":
    main()
