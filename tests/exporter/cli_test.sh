#!/bin/sh
# rocekit exporter CLI: exit codes (2 for a bad regex, a missing --root or textfile directory, a
# malformed --listen, an address in use), the one-shot textfile, and --textfile --interval
# rewriting until SIGTERM (exit 0), and the HTTP routes of --listen (200 for GET/HEAD /metrics with
# or without a query string, 405 with Allow for other methods, 404 for other paths, SIGTERM -> exit
# 0). Usage: cli_test.sh ROCEKIT SOURCE_DIR
set -u
ROCEKIT=$1
SRC=$2
TREE=$SRC/testdata/sysroots/cx4lx-4port
TMP=$(mktemp -d)
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() {  # expect_rc CODE MESSAGE-SUBSTRING ARGS...
  want=$1; msg=$2; shift 2
  "$ROCEKIT" exporter "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
  [ "$rc" = "$want" ] || fail "exporter $* exited $rc, expected $want ($(cat "$TMP/err"))"
  grep -qF -- "$msg" "$TMP/err" || fail "exporter $*: stderr lacks '$msg': $(cat "$TMP/err")"
}
expect_rc 2 "invalid regex" --exclude-device '(' --textfile "$TMP" --root "$TREE"
expect_rc 2 "/nonexistent-root: not a directory" --root /nonexistent-root --textfile "$TMP"
expect_rc 2 "$TMP/missing: not a directory" --root "$TREE" --textfile "$TMP/missing"
expect_rc 2 "expected ADDR:PORT" --listen 1.2.3.4 --root "$TREE"
# A duration must be finite and at most a year (inf used to overflow the sleep: a busy loop deaf
# to SIGTERM); --interval only repeats a text file.
expect_rc 2 "rocekit: error: --interval: 'inf' is not a duration" --root "$TREE" --textfile "$TMP" --interval inf
expect_rc 2 "rocekit: error: --interval: '99999999' is outside 0s to 1 year" --root "$TREE" --textfile "$TMP" --interval 99999999
expect_rc 2 "rocekit: error: --interval: '1e300' is not a duration" --root "$TREE" --textfile "$TMP" --interval 1e300
expect_rc 2 "rocekit: error: --interval: '0x10' is not a duration" --root "$TREE" --textfile "$TMP" --interval 0x10
expect_rc 2 "rocekit: error: --state-interval: 'nan' is not a duration" --root "$TREE" --textfile "$TMP" --state-interval nan
expect_rc 2 "rocekit: error: --interval: '-1' is not a duration" --root "$TREE" --textfile "$TMP" --interval -1
expect_rc 2 "rocekit: error: --state-interval: '2y' is not a duration" --root "$TREE" --textfile "$TMP" --state-interval 2y
expect_rc 2 "only with --textfile" --root "$TREE" --interval 5
"$ROCEKIT" exporter --version | grep -q '^0\.' || fail "exporter --version"
# An address in use: a listener held by python for the duration of the call.
python3 - "$ROCEKIT" "$TREE" <<'PY' || fail "address in use did not exit 2"
import socket, subprocess, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
r = subprocess.run([sys.argv[1], "exporter", "--listen", "127.0.0.1:%d" % s.getsockname()[1],
                    "--root", sys.argv[2]], capture_output=True, text=True, timeout=30)
sys.exit(0 if r.returncode == 2 and "cannot listen" in r.stderr else 1)
PY
echo "ok: exit 2 for bad regex, missing --root, missing textfile dir, malformed --listen, address in use"

# One-shot textfile: the file is there, whole, with a real value; no temp file left.
"$ROCEKIT" exporter --root "$TREE" --textfile "$TMP" || fail "one-shot textfile exited $?"
grep -q '^rocekit_out_of_buffer_drops_total{device="mlx5_0",port="1",netdev="eth01"} 135$' "$TMP/rocekit.prom" || fail "rocekit.prom lacks out_of_buffer 135"
[ "$(ls -A "$TMP" | grep -v -e '^rocekit.prom$' -e '^out$' -e '^err$' -e '^holder$')" = "" ] || fail "temp files left: $(ls -A "$TMP")"
echo "ok: one-shot --textfile wrote rocekit.prom"

# A device filter that matches nothing still writes (state metrics), but says so on stderr.
"$ROCEKIT" exporter --root "$TREE" --textfile "$TMP" --include-device 'nomatch.*' 2>"$TMP/err" \
  || fail "--include-device matching nothing exited $?"
grep -qF "leave none of the 4 RDMA devices" "$TMP/err" || fail "no warning for a filter matching nothing: $(cat "$TMP/err")"
grep -q '^rocekit_device_skipped{device="mlx5_0",reason="excluded"} 1$' "$TMP/rocekit.prom" || fail "mlx5_0 not reported as excluded"
"$ROCEKIT" exporter --root "$TREE" --textfile "$TMP" --include-device 'mlx5_0' 2>"$TMP/err" || fail "--include-device mlx5_0 exited $?"
[ ! -s "$TMP/err" ] || fail "warning although mlx5_0 matches: $(cat "$TMP/err")"
echo "ok: a device filter matching nothing is warned about"

# --interval: rewrites (rocekit_scrapes_total grows), SIGTERM -> exit 0.
"$ROCEKIT" exporter --root "$TREE" --textfile "$TMP" --interval 0.2 &
PID=$!
i=0
until grep -q '^rocekit_scrapes_total [3-9]' "$TMP/rocekit.prom" 2>/dev/null; do
  i=$((i+1)); [ $i -lt 100 ] || fail "rocekit.prom not rewritten"; sleep 0.1
done
kill -TERM "$PID"; wait "$PID"; rc=$?; PID=
[ "$rc" = 0 ] || fail "--interval exited $rc on SIGTERM"
echo "ok: --textfile --interval rewrites until SIGTERM, exit 0"

# HTTP routes on loopback (python's http.client: no curl needed).
python3 - "$ROCEKIT" "$TREE" <<'PY' || fail "HTTP routes"
import http.client, signal, socket, subprocess, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
p = subprocess.Popen([sys.argv[1], "exporter", "--listen", "127.0.0.1:%d" % port, "--root", sys.argv[2]],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
def req(method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(method, path, body=body)
    r = c.getresponse()
    out = (r.status, r.getheader("Allow") or "", r.getheader("Content-Type") or "", r.read())
    c.close()
    return out
try:
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close(); break
        except OSError:
            assert time.monotonic() < deadline and p.poll() is None, "exporter did not listen"
            time.sleep(0.1)
    st, _, ct, body = req("GET", "/metrics")
    assert st == 200 and ct.startswith("text/plain; version=0.0.4") and b"\nrocekit_" in body, (st, ct)
    st, allow, _, _ = req("POST", "/metrics", body=b"x=1")
    assert st == 405 and "GET" in allow and "HEAD" in allow, ("POST /metrics", st, allow)
    st, allow, _, _ = req("DELETE", "/")
    assert st == 405 and "GET" in allow, ("DELETE /", st, allow)
    st, _, _, body = req("GET", "/metrics?foo=1")
    assert st == 200 and b"\nrocekit_" in body, ("GET /metrics?foo=1", st)
    st, _, ct, body = req("HEAD", "/metrics")
    assert st == 200 and body == b"" and ct.startswith("text/plain"), ("HEAD /metrics", st, body[:40])
    st, _, _, body = req("GET", "/nope")
    assert st == 404 and body == b"404 page not found\n", ("GET /nope", st, body)
    st, _, ct, body = req("GET", "/")
    assert st == 200 and b'href="/metrics"' in body and ct.startswith("text/html"), ("GET /", st)
    # A client that half-closes after its request (nc -N) still gets the whole exposition
    # (evhttp used to notice the FIN while writing and drop the rest after 16 KiB).
    for version in (b"1.0", b"1.1"):
        hc = socket.create_connection(("127.0.0.1", port), 10)
        hc.sendall(b"GET /metrics HTTP/" + version + b"\r\nHost: x\r\n\r\n")
        hc.shutdown(socket.SHUT_WR)
        raw = b""
        while True:
            chunk = hc.recv(65536)
            if not chunk:
                break
            raw += chunk
        hc.close()
        head, _, hbody = raw.partition(b"\r\n\r\n")
        lengths = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
        assert len(hbody) > 16384 and hbody.endswith(b"\n") and lengths == [len(hbody)], \
            ("half-closed client", version, len(hbody), lengths)
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=15) == 0, "exit after SIGTERM"
finally:
    if p.poll() is None:
        p.kill(); p.wait()
PY
echo "ok: GET/HEAD /metrics (and ?foo=1) 200, POST /metrics and DELETE / 405 with Allow, /nope 404, half-closed client gets it all, SIGTERM exit 0"
echo PASS
