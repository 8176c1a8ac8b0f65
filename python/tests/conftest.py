import pathlib

import pytest

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


@pytest.fixture(scope="session")
def data_dir():
    return DATA


def run_beside_python(fn):
    """Runs fn() in a thread while this thread keeps running Python; returns (fn's result, the
    call's duration, the longest stall of this thread). A call holding the GIL stalls this thread
    for about its whole duration."""
    import threading
    import time

    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", fn()))
    start = last = time.perf_counter()
    max_gap = 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        max_gap = max(max_gap, now - last)
        last = now
    t.join()
    return out["r"], time.perf_counter() - start, max_gap
