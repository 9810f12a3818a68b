# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for the integration tests (sourced by tests/*.sh).
# Environment: XPERF (binary), srcdir (source tree); both set by `make check`.
XPERF=${XPERF:-./xperf}
srcdir=${srcdir:-.}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xperf-test.XXXXXX")
SERVER_PID=
trap 'cleanup' EXIT

# Tests whose oracles are timings (the WAN paths: a round trip against
# its configured delay, a rate against its link) set XP_ALONE=1 before
# sourcing this file and run with the machine to themselves: they take
# the suite's lock exclusively, every other shell test takes it shared,
# so `make check` running two at a time runs them alone.
XP_LOCK=${XP_LOCK:-${TMPDIR:-/tmp}/xperf-test-suite.lock}
if command -v flock >/dev/null && exec 9>>"$XP_LOCK"; then
	# (bounded: a process a test left behind holds it too)
	flock "$([ -n "${XP_ALONE:-}" ] && echo -x || echo -s)" -w 900 9 ||
		echo "note: $XP_LOCK still held after 15 minutes: running anyway" >&2
fi

cleanup() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
	[ -n "$EXTRA_CLEANUP" ] && eval "$EXTRA_CLEANUP"
	[ -n "$KEEP" ] && cp "$TMP/server.log" /tmp/last-server.log; rm -rf "$TMP"
}

fail() {
	echo "FAIL: $*" >&2
	[ -f "$TMP/server.log" ] && { echo "--- server log:" >&2; tail -20 "$TMP/server.log" >&2; }
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# skip_sanitized WHAT: a test whose oracles are rates and round trips of a
# path xperf itself carries (its delay line, its probes) is skipped on a
# sanitizer build, where every frame and transaction costs several times
# as much: the plain build's suite runs it.
skip_sanitized() {
	if command -v ldd >/dev/null && ldd "$XPERF" 2>/dev/null | grep -Eq 'lib(asan|ubsan|tsan)'; then
		skip "$1: timing oracles, not run on a sanitizer build (the plain suite runs it)"
	fi
}

command -v python3 >/dev/null || fail "python3 is needed to read JSON (apt-get install python3)"

# free_port: a TCP+UDP port number nobody listens on right now.
free_port() {
	python3 - <<'PY'
import socket
while True:
    t = socket.socket(); t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("0.0.0.0", p)); print(p); break
    except OSError:
        pass
    finally:
        t.close(); u.close()
PY
}

# start_server [ARGS...]: xperf -s on a free port in the background; sets
# PORT and SERVER_PID; waits until it accepts connections.
start_server() {
	PORT=$(free_port)
	[ -f "$TMP/server.log" ] && cat "$TMP/server.log" >>"$TMP/server.old.log" && : >"$TMP/server.log"
	$NS_EXEC "$XPERF" -s -p "$PORT" "$@" >>"$TMP/server.log" 2>&1 &
	SERVER_PID=$!
	for _ in $(seq 50); do
		grep -q "listening on port" "$TMP/server.log" 2>/dev/null && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || fail "server did not start"
		sleep 0.1
	done
	fail "server not listening after 5 s"
}

stop_server() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
	SERVER_PID=
}

# jq-like: jget FILE 'end.rr.transactions' prints the value.
jget() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d = d[int(k)] if isinstance(d, list) else d[k]
print(d)' "$1" "$2" || fail "no key $2 in $1"
}

# check FILE 'python expression over d' MESSAGE: assert on the JSON.
check() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["end"]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" || {
		echo "--- $1:" >&2; cat "$1" >&2; fail "$3 [$2]"; }
}
