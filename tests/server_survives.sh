#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The server keeps serving through hostile and broken clients: garbage
# bytes, a truncated control message, an oversized length, a wrong protocol
# version, a silent control connection, requests over its limits, and a
# client killed mid-test.  Each is logged in one line; a real test still
# succeeds afterwards.
. "${srcdir:-.}/tests/lib.sh"

start_server --idle-timeout 1 --max-flows 8 --max-msg 1M
ok_test() {
	"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 0.5 --json >"$TMP/ok.json" 2>"$TMP/ok.err" ||
		fail "server stopped serving after: $1 ($(cat "$TMP/ok.err"))"
	check "$TMP/ok.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "test after $1"
}

poke() { # WHAT PYTHON-BODY: talk to the server with a raw socket s
	python3 - "$PORT" "$2" <<'PY' || fail "probe '$1' could not run"
import socket, struct, sys, time
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port), timeout=5)
def hdr(version, typ, length): return struct.pack(">IHHI", 0x58504354, version, typ, length)
def read_all():
    out = b""
    try:
        while True:
            b = s.recv(4096)
            if not b: break
            out += b
    except (socket.timeout, ConnectionResetError):
        pass
    return out
exec(sys.argv[2])
s.close()
PY
	ok_test "$1"
}

log_has() { # PATTERN WHAT
	for _ in $(seq 30); do grep -q "$1" "$TMP/server.log" && return 0; sleep 0.1; done
	fail "server log has no line for $2 (want /$1/)"
}

poke "garbage" 's.sendall(b"GET / HTTP/1.0\r\n\r\n"); read_all()'
log_has "not an xperf peer" "garbage"
poke "truncated message" 's.sendall(hdr(1, 1, 100) + b"\x00\x01"); s.shutdown(socket.SHUT_WR); read_all()'
log_has "connection closed by peer" "truncated message"
poke "oversized length" 's.sendall(hdr(1, 1, 1 << 30)); r = read_all(); assert b"exceeds" in r, r'
log_has "exceeds maximum" "oversized length"
poke "wrong version" 's.sendall(hdr(9, 1, 0)); r = read_all(); assert b"version 9" in r, r'
log_has "version 9" "wrong version"
poke "silent control connection" 's.sendall(hdr(1, 1, 0)[:4]); time.sleep(1.6); read_all()'
log_has "no answer within" "silent control connection"
poke "random bytes" 'import random; random.seed(7); s.sendall(b"XPCT" + bytes(random.getrandbits(8) for _ in range(3000))); read_all()'
poke "unknown data cookie" 's.sendall(struct.pack(">IQI", 0x58504454, 12345, 0)); read_all()'
log_has "unknown test" "unknown data cookie"
# the padded data hello (proto/PROTOCOL.md 5.2): a pad over the bound, a
# pad cut short by the peer, and a whole one with no such test; one log
# line a second at most for such events, hence the pauses
sleep 1.1
poke "padded hello, pad over the bound" 's.sendall(struct.pack(">IQII", 0x58504450, 12345, 0, 70000)); read_all()'
log_has "bad padded data hello" "padded hello, pad over the bound"
sleep 1.1
poke "padded hello cut short" 's.sendall(struct.pack(">IQII", 0x58504450, 12345, 0, 8000) + bytes(100)); s.shutdown(socket.SHUT_WR); read_all()'
log_has "inside a padded data hello" "padded hello cut short"
sleep 1.1
n0=$(grep -c "unknown test" "$TMP/server.log")
poke "padded hello, unknown cookie" 's.sendall(struct.pack(">IQII", 0x58504450, 54321, 0, 100) + bytes(100)); read_all()'
for _ in $(seq 30); do [ "$(grep -c "unknown test" "$TMP/server.log")" -gt "$n0" ] && break; sleep 0.1; done
[ "$(grep -c "unknown test" "$TMP/server.log")" -gt "$n0" ] ||
	fail "server log has no new line for a padded hello with an unknown cookie"

# requests over the limits are refused with a reason, not served
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -P 9 -l 1 2>"$TMP/err" && fail "9 flows accepted over --max-flows 8"
grep -q "max-flows" "$TMP/err" || fail "flow limit message: $(cat "$TMP/err")"
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_STREAM -m 2M -l 1 2>"$TMP/err" && fail "2M messages accepted over --max-msg 1M"
grep -q "max-msg" "$TMP/err" || fail "message limit message: $(cat "$TMP/err")"
ok_test "limits"

# a client killed in the middle of each kind of test
for t in TCP_STREAM TCP_MAERTS TCP_RR TCP_CRR UDP_STREAM UDP_RR; do
	"$XPERF" -c 127.0.0.1 -p "$PORT" -t $t -l 20 >/dev/null 2>&1 &
	pid=$!
	sleep 0.7
	kill -9 $pid
	wait $pid 2>/dev/null
	log_has "test abandoned" "killed $t client"
	ok_test "client of $t killed"
done
kill -0 "$SERVER_PID" || fail "server died"

# -1 serves one test and exits 0
stop_server
start_server -1
ok_test "one-off"
for _ in $(seq 30); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$SERVER_PID" 2>/dev/null && fail "-1 server still running after its test"
wait "$SERVER_PID"; rc=$?
[ $rc = 0 ] || fail "-1 server exit status $rc"
SERVER_PID=

# daemon with a pid file
PORT=$(free_port)
"$XPERF" -s -D -p "$PORT" --pidfile "$TMP/pid" --logfile "$TMP/daemon.log" || fail "daemon start"
for _ in $(seq 30); do [ -s "$TMP/pid" ] && break; sleep 0.1; done
dpid=$(cat "$TMP/pid")
EXTRA_CLEANUP="kill $dpid 2>/dev/null"
kill -0 "$dpid" || fail "daemon not running"
ok_test "daemon"
kill "$dpid"
# SIGTERM ends the daemon (it may linger as a zombie of whoever adopted it)
for _ in $(seq 30); do
	state=$(awk '{print $3}' "/proc/$dpid/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] && break
	sleep 0.1
done
[ -z "$state" ] || [ "$state" = Z ] || fail "daemon still running 3 s after SIGTERM"
EXTRA_CLEANUP=
echo "server_survives: ok"
