#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Small socket buffers (-w) set on the server before the TCP handshake.
# A receive buffer shrunk after accept() left the sender with a segment
# size (half the 64 KiB window announced in the handshake) that never fit
# the receiver's window again: the sender then waited 200 ms for its
# persist timer before every send, 0.3 MiB/s instead of hundreds.
. "${srcdir:-.}/tests/lib.sh"

start_server
run() { # NAME ARGS...
	name=$1; shift
	timeout 30 "$XPERF" -p "$PORT" --json "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; fail "$name: exit status"; }
}

# 1 s at -w 8K moved 0.1-0.8 MiB before the fix, 20 MiB or more after
# (on a loaded 2-CPU machine); 4 MiB sits well between the two.
run w8k -c 127.0.0.1 -t TCP_STREAM -l 1 -m 4096 -w 8192
check "$TMP/w8k.json" 'e["sum_received"]["bytes"] >= 4 << 20' "-w 8K stream stalls"
# the sender's segments fit the window the receiver can offer (the bug
# showed mss 32768: half of the 64 KiB first window)
check "$TMP/w8k.json" 'e["tcp_info"]["local"]["mss_bytes"] <= 8192' "sender segment size above the window"
# the sizes granted, as each end's kernel reports them: Linux doubles the
# 8K asked (within rmem_max / wmem_max, far above 16K on any Linux)
for side in client server; do
	for b in sndbuf rcvbuf; do
		check "$TMP/w8k.json" "e['$side']['${b}_granted_bytes'] == 16384" "$side $b granted"
	done
done

# the server's send buffer alone (TCP_MAERTS), and the test's own data
# port used by every connection of a TCP_CRR test
run maerts -c 127.0.0.1 -t TCP_MAERTS -l 1 -m 4096 -w 8192
check "$TMP/maerts.json" 'e["sum_received"]["bytes"] >= 4 << 20' "-w 8K TCP_MAERTS"
# a window of 64 KiB or less: the lone stream flow's worker blocks in its
# calls (direct mode), the receiving client here, and every byte arrives
check "$TMP/maerts.json" 'e["worker_mode"] == "direct"' "-w 8K TCP_MAERTS client in direct mode"
check "$TMP/w8k.json" 'e["worker_mode"] == "direct" and "64 KiB or less" in e["worker_mode_reason"] and e["sum_received"]["bytes"] == e["sum_sent"]["bytes"]' "-w 8K TCP_STREAM sender in direct mode, and the report says why"
run crr -c 127.0.0.1 -t TCP_CRR -l 1 -w 8192
check "$TMP/crr.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "TCP_CRR on the test's data port"

# IPv6: the data listener binds to the control connection's address
if "$XPERF" -c ::1 -p "$PORT" -t TCP_RR -l 0.2 >/dev/null 2>&1; then
	run v6 -c ::1 -6 -t TCP_STREAM -l 1 -m 4096 -w 8192
	check "$TMP/v6.json" 'e["sum_received"]["bytes"] >= 4 << 20' "-w 8K over IPv6"
else
	echo "small_buffers: no IPv6 loopback here, IPv6 case not run"
fi

# Whole segments with a window that is not scaled (proto/PROTOCOL.md 5.2):
# each end's data leaves in segments of its full MSS.  With the plain
# 16-byte hello the client's requests left as 8 full segments and a
# 16-byte sliver each (7282 bytes a segment on average against an MSS of
# 8192), at half netperf's rate.  Read off ss(8) while the test runs.
if command -v ss >/dev/null 2>&1; then
	timeout 30 "$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 3 -m 65536 -w 16384 --json \
		>"$TMP/align.json" 2>"$TMP/align.err" &
	apid=$!
	sleep 1.5
	# this test's sockets only (make check runs others beside it), by inode:
	# workers hold theirs in descriptor tables of their own (/proc/PID/task)
	inos=$(for p in $SERVER_PID $(pgrep -P "$apid"); do
		ls -l /proc/"$p"/task/*/fd/ 2>/dev/null; done | sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p' | sort -u | tr '\n' ' ')
	ss -tine >"$TMP/align.ss" 2>&1
	wait "$apid" || { cat "$TMP/align.err" >&2; fail "alignment run: exit status"; }
	python3 -c '
import re, sys
inos = set(sys.argv[2].split())
flows, ours = [], False
for l in open(sys.argv[1]):
    if not l.startswith(("\t", " ")):
        m = re.search(r" ino:(\d+) ", l)
        ours = bool(m) and m.group(1) in inos
        continue
    m = re.search(r" mss:(\d+) .*bytes_sent:(\d+) .*data_segs_out:(\d+)", l)
    if ours and m and int(m.group(2)) >= 1 << 20:
        flows.append([int(g) for g in m.groups()])
print("small_buffers: mss, bytes sent, data segments:", flows)
if len(flows) != 2:
    sys.exit("want the test flow from each end, found %d" % len(flows))
for mss, sent, segs in flows:
    if sent / segs < 0.95 * mss:
        sys.exit("%.0f bytes a segment with an MSS of %d" % (sent / segs, mss))' "$TMP/align.ss" "$inos" ||
		fail "-w 16K -m 64K TCP_RR: segments below the MSS (a window edge off the messages)"
	check "$TMP/align.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "alignment run"
else
	echo "small_buffers: no ss(8) here, segment sizes not checked"
fi

# without -w no data port of its own: the server's port serves as before
run plain -c 127.0.0.1 -t TCP_STREAM -l 0.5
check "$TMP/plain.json" 'e["sum_received"]["bytes"] > 0' "default buffers"
# ...where a stream stays on epoll (blocking moved less there)
check "$TMP/plain.json" 'e["worker_mode"] == "epoll" and "kernel\x27s buffers" in e["worker_mode_reason"]' "default buffers: epoll, and the report says why"
run w256k -c 127.0.0.1 -t TCP_STREAM -l 0.5 -w 256K
check "$TMP/w256k.json" 'e["worker_mode"] == "epoll"' "-w 256K: epoll"
echo "small_buffers: ok"
