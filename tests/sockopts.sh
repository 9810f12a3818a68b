#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Socket- and path-level options between two network namespaces, each
# proved on the wire (tcpdump) or by what the sockets say (ss, the JSON
# report): --tos/--dscp both ways, --set-mss in the SYN, -C per side,
# --cport and -B as source ports, --bind-dev on a second veth, TCP_CRR
# --fastopen data in the SYN, --mptcp (skipped without MPTCP), --sendfile,
# --flowlabel, --connect-timeout.  Needs root, ip, tcpdump and ss; skipped
# (77) otherwise.
#
#   A (client)  so-a1 10.77.1.1 fd77:1::1 ==== so-b1 10.77.1.2 fd77:1::2  B (server,
#               so-a2 10.77.2.1           ==== so-b2 10.77.2.2           10.77.9.9 on lo)
# A reaches 10.77.9.9 through so-a1 (and, at a lower preference, so-a2).
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "sockopts: needs root"
for c in ip tcpdump ss; do
	command -v $c >/dev/null || skip "sockopts: needs $c"
done
A=sockopts-a-$$
B=sockopts-b-$$
TD_PID=
EXTRA_CLEANUP='[ -n "$TD_PID" ] && kill $TD_PID 2>/dev/null; ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null'
ip netns add "$A" 2>/dev/null || skip "sockopts: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add so-a1 netns "$A" type veth peer name so-b1 netns "$B" 2>/dev/null ||
	skip "sockopts: no veth support in this kernel"
ip link add so-a2 netns "$A" type veth peer name so-b2 netns "$B" || fail "second veth"
ip -n "$A" addr add 10.77.1.1/24 dev so-a1 && ip -n "$B" addr add 10.77.1.2/24 dev so-b1 &&
	ip -n "$A" addr add 10.77.2.1/24 dev so-a2 && ip -n "$B" addr add 10.77.2.2/24 dev so-b2 &&
	ip -n "$A" addr add fd77:1::1/64 dev so-a1 nodad &&
	ip -n "$B" addr add fd77:1::2/64 dev so-b1 nodad || fail "addresses"
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
for d in so-a1 so-a2; do ip -n "$A" link set "$d" up; done
for d in so-b1 so-b2; do ip -n "$B" link set "$d" up; done
ip -n "$B" addr add 10.77.9.9/32 dev lo
ip -n "$A" route add 10.77.9.9 via 10.77.1.2 dev so-a1
ip -n "$A" route add 10.77.9.9 via 10.77.2.2 dev so-a2 metric 100
# 10.77.5.5 leads into B, which neither owns nor forwards it: a SYN dropped
ip -n "$A" route add 10.77.5.5 via 10.77.1.2
ip netns exec "$A" sysctl -qw net.ipv4.tcp_fastopen=3
ip netns exec "$B" sysctl -qw net.ipv4.tcp_fastopen=3

NS_EXEC="ip netns exec $B"
start_server -v
INA="ip netns exec $A"

cli() { # NAME ARGS...: the client in A; JSON in $TMP/NAME.json
	name=$1; shift
	$INA "$XPERF" -c "${HOST:-10.77.9.9}" -p "$PORT" -l 1 --json "$@" \
		>"$TMP/$name.json" 2>"$TMP/$name.err" || { cat "$TMP/$name.err" >&2; fail "$name: exit $?"; }
}

# cap_start NAME FILTER...: tcpdump -v on so-b1 (B's side of the main veth)
cap_start() {
	name=$1; shift
	ip netns exec "$B" tcpdump -i so-b1 -n -v -l "$@" >"$TMP/$name.txt" 2>"$TMP/$name.tcpdump" &
	TD_PID=$!
	for _ in $(seq 50); do
		grep -q "listening on" "$TMP/$name.tcpdump" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "tcpdump did not start: $(cat "$TMP/$name.tcpdump")"
}
cap_stop() {
	sleep 0.3
	kill "$TD_PID" 2>/dev/null
	wait "$TD_PID" 2>/dev/null
	TD_PID=
}

# pcap FILE 'python expression over P, the packets' MESSAGE.  Each packet is
# a dict: tos (IPv4 TOS or IPv6 traffic class), label (flow label), src,
# sport, dst, dport, flags ("S", "S.", "P." ...), mss (SYN option), len.
pcap() {
	python3 - "$1" "$2" <<'PY' || { echo "--- $1:" >&2; head -30 "$1" >&2; fail "$3 [$2]"; }
import re, sys
texts, cur = [], None
for line in open(sys.argv[1]):
    if line[:1].isspace() and cur is not None:
        cur += " " + line.strip()
        continue
    if cur:
        texts.append(cur)
    cur = line.rstrip()
if cur:
    texts.append(cur)
def num(pat, t, base=10):
    m = re.search(pat, t)
    return int(m.group(1), base) if m else None
def parse(t):
    m = re.search(r"\s([0-9a-f.:]+)\.(\d+) > ([0-9a-f.:]+)\.(\d+):", t)
    f = re.search(r"Flags \[([^\]]*)\]", t)
    return {"tos": num(r"\((?:tos|class) 0x([0-9a-f]+)", t, 16),
            "label": num(r"flowlabel 0x([0-9a-f]+)", t, 16),
            "src": m and m.group(1), "sport": m and int(m.group(2)),
            "dst": m and m.group(3), "dport": m and int(m.group(4)),
            "flags": f.group(1) if f else "", "mss": num(r"mss (\d+)", t),
            "len": num(r"length (\d+)$", t) or 0}
P = [parse(t) for t in texts]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# --- TOS: every data socket of both ends, TCP and UDP -------------------
cap_start tos "port $PORT"
cli tos -t TCP_RR --rate 200 --tos EF
cli tosudp -t UDP_RR --rate 200 --dscp 46
cap_stop
pcap "$TMP/tos.txt" "any(p['dport'] == $PORT and p['tos'] == 0xb8 and p['len'] > 0 and p['flags'] for p in P)" \
	"TCP data client->server with tos 0xb8"
pcap "$TMP/tos.txt" "any(p['sport'] == $PORT and p['tos'] == 0xb8 and p['len'] > 0 and p['flags'] for p in P)" \
	"TCP data server->client with tos 0xb8"
pcap "$TMP/tos.txt" "any(p['dport'] == $PORT and p['tos'] == 0xb8 and not p['flags'] for p in P)" \
	"UDP client->server with tos 0xb8"
pcap "$TMP/tos.txt" "any(p['sport'] == $PORT and p['tos'] == 0xb8 and not p['flags'] for p in P)" \
	"UDP server->client with tos 0xb8"
pcap "$TMP/tos.txt" "any(p['tos'] == 0 for p in P)" "the control connection keeps TOS 0"
check "$TMP/tos.json" 'd["start"]["test_start"]["tos"] == 184' "start.test_start.tos"

# --- MSS: the SYN advertises it; both ends send no larger ------------------
cap_start mss "tcp[tcpflags] & tcp-syn != 0 and tcp port $PORT"
cli mss -t TCP_STREAM --set-mss 1000
cap_stop
pcap "$TMP/mss.txt" "any(p['flags'] == 'S' and p['dport'] == $PORT and p['mss'] == 1000 for p in P)" \
	"a client SYN with MSS option 1000"
check "$TMP/mss.json" '0 < e["tcp_info"]["local"]["mss_bytes"] <= 1000 and 0 < e["tcp_info"]["remote"]["mss_bytes"] <= 1000' \
	"both ends' send MSS at most 1000"
check "$TMP/mss.json" '0 < e["tcp_info"]["local"]["advmss_bytes"] <= 1000' "client advmss at most 1000"
cli nomss -t TCP_STREAM
check "$TMP/nomss.json" 'e["tcp_info"]["remote"]["mss_bytes"] > 1000' "without --set-mss the MSS is the veth's"

# --- congestion control, per side --------------------------------------
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
defa=$($INA sysctl -n net.ipv4.tcp_congestion_control)
defb=$(ip netns exec "$B" sysctl -n net.ipv4.tcp_congestion_control)
ALGO=
for c in reno cubic; do
	case " $avail " in *" $c "*) [ "$c" != "$defb" ] && [ -z "$ALGO" ] && ALGO=$c ;; esac
done
[ -n "$ALGO" ] || skip "sockopts: neither reno nor cubic besides the default ($avail)"
cli ccdef -t TCP_STREAM
check "$TMP/ccdef.json" "e['client']['congestion'] == '$defa' and e['server']['congestion'] == '$defb'" \
	"default congestion control reported per side"
cli cc -t TCP_MAERTS -C "$ALGO"
check "$TMP/cc.json" "e['client']['congestion'] == e['server']['congestion'] == e['sender_tcp_congestion'] == '$ALGO'" \
	"-C $ALGO on both ends"
cli cccrr -t TCP_CRR -C "$ALGO"
check "$TMP/cccrr.json" "e['client']['congestion'] == e['server']['congestion'] == '$ALGO'" "TCP_CRR -C $ALGO"
# the server's own socket says so too
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_STREAM -l 2 -C "$ALGO" >"$TMP/ccss.out" 2>&1 &
cpid=$!
sleep 1
ip netns exec "$B" ss -tin "sport = :$PORT" >"$TMP/ccss.txt"
wait $cpid || fail "-C $ALGO background run"
grep -q " $ALGO " "$TMP/ccss.txt" || { cat "$TMP/ccss.txt" >&2; fail "ss on the server does not show $ALGO"; }
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_RR -l 1 -C nosuchcc >"$TMP/nocc.out" 2>"$TMP/nocc.err"
rc=$?
[ $rc = 1 ] || fail "-C nosuchcc: exit $rc, want 1"
grep -q "'nosuchcc' is not available.*$ALGO" "$TMP/nocc.err" || fail "-C nosuchcc message: $(cat "$TMP/nocc.err")"
echo "sockopts: congestion control $ALGO both ends (defaults client $defa, server $defb)"

# --- source ports (--cport) and address (-B ADDR:PORT) --------------------
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_STREAM -l 2 -P 2 --cport 40000 -B 10.77.1.1:41000 \
	>"$TMP/cport.out" 2>&1 &
cpid=$!
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t UDP_STREAM -b 10M -l 2 -P 2 --cport 42000 \
	>"$TMP/cportu.out" 2>&1 &
upid=$!
sleep 1
$INA ss -tn "dst 10.77.9.9:$PORT" >"$TMP/cport.ss"
$INA ss -un "dst 10.77.9.9:$PORT" >>"$TMP/cport.ss"
wait $cpid || fail "--cport TCP run: $(cat "$TMP/cport.out")"
wait $upid || fail "--cport UDP run: $(cat "$TMP/cportu.out")"
for p in 40000 40001 41000 42000 42001; do
	grep -q "10.77.1.1:$p " "$TMP/cport.ss" || { cat "$TMP/cport.ss" >&2; fail "no socket from port $p"; }
done

# --- --bind-dev: a second veth that the traffic must not use -------------
txb() { $INA cat "/sys/class/net/$1/statistics/tx_bytes"; }
a1=$(txb so-a1); a2=$(txb so-a2)
cli nodev -t TCP_STREAM
d1=$(( $(txb so-a1) - a1 )); d2=$(( $(txb so-a2) - a2 ))
[ $d1 -gt 1000000 ] && [ $d2 -lt 100000 ] || fail "without --bind-dev: so-a1 $d1 B, so-a2 $d2 B"
a1=$(txb so-a1); a2=$(txb so-a2)
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_STREAM -l 2 --bind-dev so-a2 >"$TMP/dev.out" 2>&1 &
cpid=$!
sleep 1
$INA ss -tn "dst 10.77.9.9:$PORT" >"$TMP/dev.ss"
wait $cpid || fail "--bind-dev run: $(cat "$TMP/dev.out")"
d1=$(( $(txb so-a1) - a1 )); d2=$(( $(txb so-a2) - a2 ))
[ $d2 -gt 1000000 ] && [ $d1 -lt 100000 ] || fail "--bind-dev so-a2: so-a1 $d1 B, so-a2 $d2 B"
[ "$(grep -c '%so-a2:' "$TMP/dev.ss")" = 2 ] || { cat "$TMP/dev.ss" >&2; fail "control and data sockets not both bound to so-a2"; }
echo "sockopts: --bind-dev so-a2 sent $d2 B on so-a2, $d1 B on so-a1"

# --- TCP Fast Open (TCP_CRR): data in the SYN ------------------------------
cap_start tfo -c 40 "tcp[tcpflags] & tcp-syn != 0 and tcp port $PORT"
cli tfo -t TCP_CRR --fastopen
cap_stop
check "$TMP/tfo.json" 'e["client"]["fastopen_syn_data"] > 0 and e["server"]["fastopen_syn_data"] > 0' \
	"connections whose SYN carried data"
check "$TMP/tfo.json" 'e["client"]["fastopen_syn_data"] == e["server"]["fastopen_syn_data"]' \
	"both ends count the same Fast Open connections"
pcap "$TMP/tfo.txt" "any(p['flags'] == 'S' and p['dport'] == $PORT and p['len'] >= 17 for p in P)" \
	"a SYN carrying the hello and the request"
cli notfo -t TCP_CRR
check "$TMP/notfo.json" 'e["server"]["fastopen_syn_data"] == 0' "no Fast Open without --fastopen"
ip netns exec "$B" sysctl -qw net.ipv4.tcp_fastopen=1
$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_CRR -l 1 --fastopen >"$TMP/tfooff.out" 2>"$TMP/tfooff.err"
rc=$?
ip netns exec "$B" sysctl -qw net.ipv4.tcp_fastopen=3
[ $rc = 1 ] && grep -q "net.ipv4.tcp_fastopen" "$TMP/tfooff.err" ||
	fail "--fastopen against a server without the sysctl bit: exit $rc, $(cat "$TMP/tfooff.err")"
echo "sockopts: Fast Open SYN data on $(jget "$TMP/tfo.json" end.client.fastopen_syn_data) connections"

# --- sendfile: the same bytes as send ----------------------------------
cli sf -t TCP_STREAM --sendfile
check "$TMP/sf.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "TCP_STREAM --sendfile bytes exact"
cli sfm -t TCP_MAERTS --sendfile
check "$TMP/sfm.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "TCP_MAERTS --sendfile bytes exact"
if command -v strace >/dev/null; then
	# embedded mode: the server that sends TCP_MAERTS is in this process
	# (LeakSanitizer cannot stop a traced process's threads: no leak check)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=sendfile \
		-o "$TMP/sf.strace" "$XPERF" -t TCP_MAERTS -l 0.5 --sendfile >/dev/null 2>"$TMP/sf.err" ||
		fail "TCP_MAERTS --sendfile under strace: $(cat "$TMP/sf.err")"
	grep -q "sendfile(" "$TMP/sf.strace" || fail "no sendfile(2) call with --sendfile"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=sendfile \
		-o "$TMP/nosf.strace" "$XPERF" -t TCP_STREAM -l 0.5 >/dev/null 2>&1
	! grep -q "sendfile(" "$TMP/nosf.strace" || fail "sendfile(2) called without --sendfile"
fi
echo "sockopts: TCP_STREAM send $(jget "$TMP/nodev.json" end.sum_received.bits_per_second) bit/s, sendfile $(jget "$TMP/sf.json" end.sum_received.bits_per_second) bit/s"

# --- IPv6 flow label -------------------------------------------------------
sleep 1 # IPv6 neighbours
cap_start fl -c 30 "ip6 and tcp port $PORT"
HOST=fd77:1::2 cli fl -6 -t TCP_RR --rate 100 --flowlabel 74565 --tos 0xb8
cap_stop
pcap "$TMP/fl.txt" "any(p['dport'] == $PORT and p['label'] == 0x12345 for p in P)" \
	"client packets with flow label 0x12345"
pcap "$TMP/fl.txt" "any(p['sport'] == $PORT and p['tos'] == 0xb8 and p['len'] > 0 for p in P)" \
	"IPv6 server data with traffic class 0xb8"

# --- --connect-timeout ---------------------------------------------------------
t0=$(date +%s%N)
$INA "$XPERF" -c 10.77.5.5 -p "$PORT" -t TCP_RR -l 1 --connect-timeout 0.5 >"$TMP/ct.out" 2>"$TMP/ct.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc = 1 ] && grep -q "timed out" "$TMP/ct.err" || fail "--connect-timeout: exit $rc, $(cat "$TMP/ct.err")"
[ $ms -ge 400 ] && [ $ms -lt 3000 ] || fail "--connect-timeout 0.5 took $ms ms"

# --- MPTCP (last: it restarts the server) ----------------------------------
if ! [ -r /proc/sys/net/mptcp/enabled ]; then
	echo "sockopts: MPTCP part SKIPPED: this kernel has no MPTCP (/proc/sys/net/mptcp)"
else
	grep -q "MPTCP and TCP" "$TMP/server.log" || fail "server did not listen with MPTCP"
	cli mptcp -t TCP_STREAM --mptcp -P 2
	check "$TMP/mptcp.json" 'e["client"]["mptcp_flows"] == 2 and e["server"]["mptcp_flows"] == 2' \
		"both data connections MPTCP on both ends"
	check "$TMP/mptcp.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "MPTCP bytes exact"
	cli mptcpcrr -t TCP_CRR --mptcp
	check "$TMP/mptcpcrr.json" 'e["client"]["mptcp_flows"] > 0 and e["server"]["mptcp_flows"] > 0' \
		"TCP_CRR over MPTCP"
	cli nomptcp -t TCP_STREAM
	check "$TMP/nomptcp.json" 'e["client"]["mptcp_flows"] == 0' "plain TCP without --mptcp"
	stop_server
	ip netns exec "$B" sysctl -qw net.mptcp.enabled=0
	start_server
	grep -q "MPTCP" "$TMP/server.log" && fail "server listens with MPTCP while it is off"
	$INA "$XPERF" -c 10.77.9.9 -p "$PORT" -t TCP_STREAM -l 1 --mptcp >"$TMP/nompl.out" 2>"$TMP/nompl.err"
	rc=$?
	[ $rc = 1 ] && grep -q "plain TCP" "$TMP/nompl.err" ||
		fail "--mptcp against a TCP-only server: exit $rc, $(cat "$TMP/nompl.err")"
	echo "sockopts: MPTCP $(jget "$TMP/mptcp.json" end.sum_received.bits_per_second) bit/s over 2 flows"
fi
echo "sockopts: ok"
