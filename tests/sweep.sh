#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# xperf beside iperf3 (and netperf when NETPERF_DIR is set) over loopback,
# point by point across socket buffers (-w) and message sizes (-m), each
# tool given the same buffer, message size and CPU placement (client on
# CPU 0, server on CPU 1).  Fails if xperf moves less than half of what
# the best peer moves at any point (a failing point is measured again, up
# to best of three for every tool, as the machine is shared); prints every
# point and the worst one.
#
#   TCP_STREAM  xperf -t TCP_STREAM -m M -w W  iperf3 -l M -w W
#                                               netperf -t TCP_STREAM -- -m M -s W -S W
#   TCP_MAERTS  xperf -t TCP_MAERTS -m M -w W  iperf3 -R -l M -w W
#                                               netperf -t TCP_MAERTS -- -m ,M -s W -S W
#   TCP_RR      xperf -t TCP_RR -m M -w W      netperf -t TCP_RR -- -r M,M -s W -S W
# W=0 means "not set" (kernel defaults and autotuning) for every tool.
# Streams: xperf sets TCP_NODELAY (its default), so the peers are given it
# too (iperf3 -N, netperf -D); RR: none of them sets it.
#
# SWEEP=full: W in 4K 8K 16K 64K 256K 0, M in 1 64 1K 4K 64K 128K 1M, the
# three tests, 1 s per point (about 8 minutes with both peers).
# Default (make check): -w 8K -m 4K both ways, where the server's buffers,
# set after the handshake, stalled TCP_STREAM (0.003 of the peers); 10-20 s.
# The grid is left to `make sweep`: on a shared 2-CPU machine its small
# points (-m 1, 64) swing by 2-10x from run to run for every tool.  `make sweep` runs the
# full grid.  SWEEP_SECS overrides the seconds per point.
. "${srcdir:-.}/tests/lib.sh"

SWEEP=${SWEEP:-quick}
SECS=${SWEEP_SECS:-1}
HAVE_IPERF3=
command -v iperf3 >/dev/null 2>&1 && HAVE_IPERF3=1
NP=
[ -n "$NETPERF_DIR" ] && [ -x "$NETPERF_DIR/netperf" ] && [ -x "$NETPERF_DIR/netserver" ] &&
	NP=$NETPERF_DIR
[ -n "$HAVE_IPERF3" ] || [ -n "$NP" ] ||
	skip "no peer to compare with: neither iperf3 on PATH nor NETPERF_DIR"
[ -n "$HAVE_IPERF3" ] || echo "sweep: iperf3 not on PATH: compared with netperf only"
[ -n "$NP" ] || echo "sweep: NETPERF_DIR not set: compared with iperf3 only, TCP_RR not compared"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"

C=0 S=1
[ "$(nproc)" -ge 2 ] || S=0

# Peers' servers, on ports of their own, killed by PID at the end.
PIDS=
EXTRA_CLEANUP='for p in $PIDS; do kill $p 2>/dev/null; done'
if [ -n "$HAVE_IPERF3" ]; then
	IPORT=$(free_port)
	iperf3 -s -p "$IPORT" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
fi
if [ -n "$NP" ]; then
	NPORT=$(free_port)
	"$NP/netserver" -D -p "$NPORT" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
fi
sleep 0.3

bytes() { # 4K -> 4096, 1M -> 1048576
	case $1 in
	*K) echo $(( ${1%K} * 1024 )) ;;
	*M) echo $(( ${1%M} * 1048576 )) ;;
	*) echo "$1" ;;
	esac
}

# Each prints bits/s (streams) or transactions/s (RR), or nothing.
json_val() { # FILE KEY
	python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    for k in sys.argv[2].split("."):
        d = d[k]
    print(float(d))
except Exception:
    pass' "$1" "$2"
}

run_xperf() { # TEST W M
	w=; [ "$2" = 0 ] || w="-w $2"
	# shellcheck disable=SC2086
	timeout $((SECS + 20)) "$XPERF" -t "$1" -l "$SECS" -m "$3" $w --cpus $C --remote-cpus $S \
		--json >"$TMP/x.json" 2>"$TMP/x.err"
	case $1 in
	TCP_RR) json_val "$TMP/x.json" end.rr.transactions_per_second ;;
	*) json_val "$TMP/x.json" end.sum_received.bits_per_second ;;
	esac
}

run_iperf3() { # TEST W M
	[ -n "$HAVE_IPERF3" ] && [ "$1" != TCP_RR ] || return 0
	w=; [ "$2" = 0 ] || w="-w $2"
	r=; [ "$1" = TCP_MAERTS ] && r=-R
	# shellcheck disable=SC2086
	timeout $((SECS + 20)) iperf3 -c 127.0.0.1 -p "$IPORT" -t "$SECS" -l "$3" $w $r -N \
		-A $C,$S -J >"$TMP/i.json" 2>&1
	json_val "$TMP/i.json" end.sum_received.bits_per_second
}

run_netperf() { # TEST W M
	[ -n "$NP" ] || return 0
	s=; [ "$2" = 0 ] || s="-s $2 -S $2"
	case $1 in
	TCP_RR) t="-r $3,$3" ;;
	TCP_MAERTS) t="-m ,$3 -D" ;; # ",M": the remote (sending) side's size
	*) t="-m $3 -D" ;;
	esac
	# shellcheck disable=SC2086
	out=$(timeout $((SECS + 20)) "$NP/netperf" -H 127.0.0.1 -p "$NPORT" -l "$SECS" -T $C,$S \
		-P 0 -t "$1" -- $t $s -o THROUGHPUT 2>/dev/null | tail -1)
	case $out in
	*[!0-9.]* | "") ;;
	*) [ "$1" = TCP_RR ] && echo "$out" || python3 -c "print(float('$out') * 1e6)" ;;
	esac
}

max() { # largest of the arguments that are numbers, or nothing
	python3 -c '
import sys
v = [float(a) for a in sys.argv[1:] if a]
print(max(v) if v else "")' "$@"
}

# measure TEST W M: sets X, I, N (empty when a tool did not run)
measure() {
	X=$(run_xperf "$@"); I=$(run_iperf3 "$@"); N=$(run_netperf "$@")
}

RESULTS=$TMP/results
: >"$RESULTS"
point() { # TEST W M
	wb=$(bytes "$2"); mb=$(bytes "$3")
	measure "$1" "$wb" "$mb"
	best=$(max "$I" "$N")
	[ -n "$best" ] || { echo "sweep: $1 -w $2 -m $3: no peer result, point skipped"; return 0; }
	tries=1
	while [ "$tries" -lt 3 ] &&
		[ "$(python3 -c "print(int(float('${X:-0}') < 0.5 * $best))")" = 1 ]; do
		# measured again, best of up to three for every tool: the machine is shared
		x1=$X i1=$I n1=$N
		measure "$1" "$wb" "$mb"
		X=$(max "$x1" "$X"); I=$(max "$i1" "$I"); N=$(max "$n1" "$N")
		best=$(max "$I" "$N")
		tries=$((tries + 1))
	done
	echo "$1 $2 $3 ${X:-0} ${I:--} ${N:--} $best" >>"$RESULTS"
}

if [ "$SWEEP" = full ]; then
	for t in TCP_STREAM TCP_MAERTS TCP_RR; do
		for w in 4K 8K 16K 64K 256K 0; do
			for m in 1 64 1K 4K 64K 128K 1M; do
				point $t $w $m
			done
		done
	done
else
	point TCP_STREAM 8K 4K
	point TCP_MAERTS 8K 4K
fi

python3 - "$RESULTS" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
if not rows:
    print("sweep: no point measured"); sys.exit(77)
def fmt(t, v):
    if v == "-": return "-"
    v = float(v)
    return f"{v:.0f}/s" if t == "TCP_RR" else f"{v / 1e6:.4g}M"
print(f"{'test':10} {'-w':>5} {'-m':>5} {'xperf':>10} {'iperf3':>10} {'netperf':>10} {'ratio':>6}")
worst, failed = None, 0
for t, w, m, x, i, n, best in rows:
    r = float(x) / float(best) if float(best) > 0 else float("inf")
    bad = r < 0.5
    failed += bad
    if worst is None or r < worst[0]: worst = (r, t, w, m)
    print(f"{t:10} {w:>5} {m:>5} {fmt(t, x):>10} {fmt(t, i):>10} {fmt(t, n):>10} {r:6.2f}{'  < 0.5 FAIL' if bad else ''}")
r, t, w, m = worst
print(f"sweep: worst point {t} -w {w} -m {m}: xperf at {r:.2f} of the best peer; "
      f"{failed} of {len(rows)} points below 0.5")
sys.exit(1 if failed else 0)
PY
