#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --fill is on the wire: while a client sends with --fill FILE (a
# distinctive ASCII pattern), tcpdump on loopback sees the pattern in the
# packets toward the server, for every test the client sends in (stream
# data, RR and TCP_CRR requests, UDP datagrams after their header), and
# through the netperf drop-in's -F; the server's own sends stay zeros (a
# TCP_RR's responses never hold it).  Needs root and tcpdump: skipped
# (77) without them.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "fill_wire: needs root (tcpdump on lo)"
command -v tcpdump >/dev/null || skip "fill_wire: tcpdump is not installed (apt-get install tcpdump)"

PAT=XPERF-FILL-7f3a9c-PATTERN
printf '%s.' "$PAT" >"$TMP/fill"	# 26 bytes: every 200 bytes of data hold a copy
start_server

# capture NAME FILTER CMD...: runs CMD while tcpdump prints the first 200
# bytes of each packet matching FILTER (lo, the server's port) into
# $TMP/NAME.cap, as ASCII
capture() {
	name=$1 filter=$2
	shift 2
	tcpdump -i lo -n -U -A -s 200 -c 400 "port $PORT and $filter" >"$TMP/$name.cap" \
		2>"$TMP/$name.tcpdump" &
	td=$!
	for _ in $(seq 50); do
		grep -q "listening on" "$TMP/$name.tcpdump" 2>/dev/null && break
		sleep 0.1
	done
	grep -q "listening on" "$TMP/$name.tcpdump" ||
		{ kill $td 2>/dev/null; skip "fill_wire: tcpdump cannot capture on lo: $(cat "$TMP/$name.tcpdump")"; }
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
		{ kill $td 2>/dev/null; cat "$TMP/$name.err" >&2; fail "$name: exit $? for $*"; }
	sleep 0.3
	kill $td 2>/dev/null
	wait $td 2>/dev/null
}

# on_wire NAME FILTER CMD...: the pattern is in the packets FILTER matches
on_wire() {
	name=$1
	capture "$@"
	n=$(grep -c -- "$PAT" "$TMP/$name.cap")
	[ "$n" -gt 0 ] || fail "$name: --fill's pattern not in any of $(grep -c 'IP ' "$TMP/$name.cap") captured packets"
	echo "fill_wire: $name: the pattern in $n packets"
}

X() { "$XPERF" -c 127.0.0.1 -p "$PORT" -l 1 --fill "$TMP/fill" "$@"; }
on_wire tcp_stream "tcp and dst port $PORT" X -t TCP_STREAM -m 16K
on_wire tcp_stream_sendfile "tcp and dst port $PORT" X -t TCP_STREAM --sendfile -m 16K
on_wire tcp_rr "tcp and dst port $PORT" X -t TCP_RR -m 100 -M 100
on_wire tcp_crr "tcp and dst port $PORT" X -t TCP_CRR -m 100
on_wire udp_stream "udp and dst port $PORT" X -t UDP_STREAM -m 1000 -b 10M
on_wire udp_rr "udp and dst port $PORT" X -t UDP_RR -m 100 -M 8
on_wire bidir "tcp and dst port $PORT" X -t TCP_STREAM --bidir -m 16K

# the server's sends are zeros: TCP_RR responses, and --bidir's other way
capture tcp_rr_back "tcp and src port $PORT" X -t TCP_RR -m 100 -M 100
[ "$(grep -c -- "$PAT" "$TMP/tcp_rr_back.cap")" = 0 ] || fail "the server's TCP_RR responses hold the client's fill"
grep -q "IP 127.0.0.1.$PORT >" "$TMP/tcp_rr_back.cap" || fail "tcp_rr_back: no response captured"

# netperf's -F lfill, through the drop-in
NP() { "$XPERF" --netperf-args -H 127.0.0.1 -p "$PORT" -l 1 -P 0 -F "$TMP/fill" "$@"; }
on_wire np_stream "tcp and dst port $PORT" NP -t TCP_STREAM -- -m 16K
on_wire np_udp_rr "udp and dst port $PORT" NP -t UDP_RR -- -r 100,8 -e 1
echo "fill_wire: ok"
