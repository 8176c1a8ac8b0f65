#!/bin/bash
# kiln mine --pool: option errors exit 2 with a one-line message naming the problem, before any
# connection; --help exits 0. Skipped (77) when kiln was built without pool support.
kiln=$1
fail=0
if "$kiln" mine --pool none --user x 2>&1 | grep -q "without pool support"; then
    echo "kiln built without pool support: skipping"
    exit 77
fi
expect() { # expect CODE PATTERN ARGS...
    local code=$1 pattern=$2
    shift 2
    local err rc
    err=$(timeout 20 "$kiln" mine "$@" 2>&1 > /dev/null)
    rc=$?
    if [ "$rc" -ne "$code" ] || ! grep -qi -- "$pattern" <<< "$err"; then
        echo "FAIL: kiln mine $* -> exit $rc, stderr: $err (want exit $code and /$pattern/)"
        fail=1
    else
        echo "ok: kiln mine $* -> $code"
    fi
}
expect 2 "unknown scheme" --pool http://127.0.0.1:3333 --user u
expect 2 "unknown scheme" --pool stratum+https://127.0.0.1:3333 --user u
expect 2 "cafile /nonexistent/ca.pem: No such file" --pool stratum+ssl://127.0.0.1:3333 --user u --cafile /nonexistent/ca.pem
expect 2 "cannot load CA certificates" --pool stratum+ssl://127.0.0.1:3333 --user u --cafile "$0"
expect 2 "apply to TLS pools" --pool stratum+tcp://127.0.0.1:3333 --user u --cafile "$0"
expect 2 "apply to TLS pools" --pool stratum+tcp://127.0.0.1:3333 --user u --no-verify
expect 2 "not both" --pool stratum+tls://127.0.0.1:3333 --user u --no-verify --cafile "$0"
expect 2 "bad port" --pool stratum+tcp://127.0.0.1:99999 --user u
expect 2 "missing port" --pool stratum+tcp://127.0.0.1 --user u
expect 2 "needs --user" --pool stratum+tcp://127.0.0.1:3333
expect 2 "unknown option '--bogus'" --pool stratum+tcp://127.0.0.1:3333 --user u --bogus
expect 2 "bad --duration" --pool stratum+tcp://127.0.0.1:3333 --user u --duration -1
expect 2 "bad --work-nonces" --pool stratum+tcp://127.0.0.1:3333 --user u --work-nonces 0
expect 2 "unknown mining algorithm" --pool stratum+tcp://127.0.0.1:3333 --user u --algo md5
expect 2 "option --pool needs a value" --user u --pool
expect 2 "must be UTF-8" --pool stratum+tcp://127.0.0.1:3333 --user $'\xff'
expect 2 "at most 8" $(for i in 1 2 3 4 5 6 7 8 9; do echo --pool stratum+tcp://127.0.0.1:$i; done) --user u
expect 3 "cuda" --pool stratum+tcp://127.0.0.1:3333 --user u --device cuda:99
if "$kiln" mine --user u --pool=stratum+tcp://127.0.0.1:3333 --help | grep -q "stratum+tcp"; then
    echo "ok: --help in pool mode"
else
    echo "FAIL: --help in pool mode"
    fail=1
fi
exit $fail
