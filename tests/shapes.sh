#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The test-shape features between two network namespaces, each checked
# against something xperf does not count itself: UDP_MAERTS loss against
# the kernel's receive-buffer drops, -R against TCP_MAERTS and UDP_MAERTS,
# --bidir against both ends' counts, the jitter against a tbf schedule of
# known spacing, --omit, -n and -k against a packet capture and the
# kernel's UDP counters, and end.streams[] against the totals.  Needs
# root, ip, tc, nstat and tcpdump; skipped (77) otherwise.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "shapes: needs root"
for tool in ip tc nstat tcpdump; do
	command -v $tool >/dev/null || skip "shapes: needs $tool"
done
A=shapes-a-$$
B=shapes-b-$$
VA=shapes-$$a
VB=shapes-$$b
CAP_PID=
EXTRA_CLEANUP='[ -n "$CAP_PID" ] && kill "$CAP_PID" 2>/dev/null; ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null'
ip netns add "$A" 2>/dev/null || skip "shapes: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add "$VA" netns "$A" type veth peer name "$VB" netns "$B" ||
	skip "shapes: no veth support in this kernel"
ip -n "$A" addr add 10.232.0.1/24 dev "$VA"
ip -n "$B" addr add 10.232.0.2/24 dev "$VB"
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set "$VA" up
ip -n "$B" link set "$VB" up

NS_EXEC="ip netns exec $B"
start_server
cli() { # NAME ARGS...: a client in A, JSON into $TMP/NAME.json
	name=$1; shift
	ip netns exec "$A" "$XPERF" -c 10.232.0.2 -p "$PORT" --json "$@" \
		>"$TMP/$name.json" 2>"$TMP/$name.err" || { cat "$TMP/$name.err" >&2; fail "$name: $*"; }
}
# ctr NS NAME: the kernel's counter NAME in namespace NS, absolute
ctr() {
	ip netns exec "$1" nstat -asz "$2" | awk -v k="$2" '$1 == k { print $2 }'
}
# A capture on A's veth (both directions) of the server port.
cap_start() {
	ip netns exec "$A" tcpdump -n -U --immediate-mode -s 128 -i "$VA" -w "$TMP/$1.pcap" port "$PORT" \
		2>"$TMP/$1.tcpdump" &
	CAP_PID=$!
	for _ in $(seq 50); do
		grep -q "listening on" "$TMP/$1.tcpdump" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "tcpdump did not start"
}
cap_stop() {
	sleep 0.2
	kill -INT "$CAP_PID"
	wait "$CAP_PID"
	CAP_PID=
	# every packet the filter took was written, none dropped
	python3 - "$TMP/$1.tcpdump" <<'PY' || fail "$1: the capture lost packets: $(cat "$TMP/$1.tcpdump")"
import re, sys
t = open(sys.argv[1]).read()
n = {k: int(v) for v, k in re.findall(r"(\d+) packets (captured|received by filter|dropped by kernel)", t)}
sys.exit(0 if n.get("captured") == n.get("received by filter") and n.get("dropped by kernel") == 0 else 1)
PY
	python3 "$TMP/pcap.py" "$TMP/$1.pcap" >"$TMP/$1.cap" || fail "$1: cannot read the capture"
}
# capcheck NAME 'expression over c (the capture) and e (end)' MESSAGE
capcheck() {
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
e = json.load(open(sys.argv[2]))["end"]
v = eval(sys.argv[3])
sys.exit(0 if v else 1)' "$TMP/$1.cap" "$TMP/$1.json" "$2" ||
		{ cat "$TMP/$1.cap" >&2; fail "$3 [$2]"; }
}

# The capture, summed: per TCP direction of a connection its payload
# bytes from the sequence numbers (retransmissions not counted twice) and
# whether it opened with the data hello ("XPDT"); UDP datagrams counted
# by sender and payload size.
cat >"$TMP/pcap.py" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
link = struct.unpack("<I", d[20:24])[0]
skip = {1: 14, 113: 16, 276: 20}[link]
off, tcp, udp = 24, {}, {}
while off + 16 <= len(d):
    incl = struct.unpack("<I", d[off + 8:off + 12])[0]
    p = d[off + 16 + skip:off + 16 + incl]
    off += 16 + incl
    if len(p) < 20 or p[0] >> 4 != 4:
        continue
    ihl, tot, proto = (p[0] & 15) * 4, struct.unpack("!H", p[2:4])[0], p[9]
    src, l4 = ".".join(map(str, p[12:16])), p[ihl:]
    if proto == 17:
        k = "%s/%d" % (src, struct.unpack("!H", l4[4:6])[0] - 8)
        udp[k] = udp.get(k, 0) + 1
        continue
    sp, dp, seq = struct.unpack("!HHI", l4[:8])
    doff, flags = (l4[12] >> 4) * 4, l4[13]
    f = tcp.setdefault("%s:%d>%d" % (src, sp, dp), {"isn": None, "bytes": 0, "hello": False})
    if flags & 2:
        f["isn"] = seq
    n = tot - ihl - doff
    if n <= 0 or f["isn"] is None:
        continue
    rel = (seq - f["isn"] - 1) % (1 << 32)
    f["bytes"] = max(f["bytes"], rel + n)
    if rel == 0 and l4[doff:doff + 4] == b"XPDT":
        f["hello"] = True
# each data connection: client->server and server->client bytes
data = []
for k, f in tcp.items():
    if f["hello"]:
        src, rest = k.split(":")
        sp, dp = rest.split(">")
        back = [g for kk, g in tcp.items() if kk.endswith(":%s>%s" % (dp, sp))]
        data.append({"c2s": f["bytes"], "s2c": back[0]["bytes"] if back else 0})
print(json.dumps({"data": data, "udp": udp}))
PY

# 1. UDP_MAERTS: the client's receive buffer (SO_RCVBUF at its minimum)
# drops; loss is exactly what the kernel dropped there.
r0=$(ctr "$A" UdpRcvbufErrors)
cli maerts_loss -t UDP_MAERTS -l 1 --rcvbuf 1 -b 200M --no-gso -m 1000
r1=$(ctr "$A" UdpRcvbufErrors)
check "$TMP/maerts_loss.json" "e['udp']['lost'] > 0 and e['udp']['lost'] == $r1 - $r0" \
	"UDP_MAERTS loss = the client's receive-buffer drops ($((r1 - r0)))"
check "$TMP/maerts_loss.json" 'e["udp"]["direction"] == "server_to_client" and e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"] and e["udp"]["packets_sent"] == e["server"]["datagrams_sent"] and e["udp"]["packets_received"] == e["client"]["datagrams_received"]' "UDP_MAERTS: sent by the server, received by the client"
check "$TMP/maerts_loss.json" 'e["streams"][0]["lost"] == e["udp"]["lost"] and e["streams"][0]["server"]["packets_sent"] == e["udp"]["packets_sent"]' "UDP_MAERTS: the flow's loss is the total"

# 2. -R: the reverse twin, from the table
cli rev_tcp -t TCP_STREAM -R -l 1 -P 2
check "$TMP/rev_tcp.json" 'd["start"]["test_start"]["test"] == "TCP_MAERTS" and d["start"]["test_start"]["reverse"] and e["client"]["bytes_sent"] == 0 and e["sum_sent"]["bytes"] == e["server"]["bytes_sent"] == e["sum_received"]["bytes"] == e["client"]["bytes_received"] > 0' "TCP_STREAM -R is TCP_MAERTS"
cli rev_udp -t UDP_STREAM -R -l 1 -b 50M
check "$TMP/rev_udp.json" 'd["start"]["test_start"]["test"] == "UDP_MAERTS" and e["client"]["datagrams_sent"] == 0 and e["udp"]["packets_received"] == e["client"]["datagrams_received"] > 0' "UDP_STREAM -R is UDP_MAERTS"

# 3. --bidir: both ways at once, each direction counted alike on both ends
cli bidir_tcp -t TCP_STREAM --bidir -P 2 -l 1
check "$TMP/bidir_tcp.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] == e["client"]["bytes_sent"] == e["server"]["bytes_received"] > 0 and e["sum_sent_bidir_reverse"]["bytes"] == e["sum_received_bidir_reverse"]["bytes"] == e["server"]["bytes_sent"] == e["client"]["bytes_received"] > 0' "--bidir TCP: each direction exact on both ends"
check "$TMP/bidir_tcp.json" 'len(e["streams"]) == 4 and [s["direction"] for s in e["streams"]] == ["client_to_server"] * 2 + ["server_to_client"] * 2 and sum(s["client"]["bytes_sent"] for s in e["streams"]) == e["sum_sent"]["bytes"] and sum(s["server"]["bytes_received"] for s in e["streams"]) == e["sum_received"]["bytes"] and sum(s["server"]["bytes_sent"] for s in e["streams"]) == e["sum_sent_bidir_reverse"]["bytes"] and sum(s["client"]["bytes_received"] for s in e["streams"]) == e["sum_received_bidir_reverse"]["bytes"]' "--bidir TCP: end.streams add up to the totals"
cli bidir_udp -t UDP_STREAM --bidir -P 2 -l 1 -b 50M
check "$TMP/bidir_udp.json" 'all(u["packets_received"] > 0 and u["lost"] == u["packets_sent"] - u["packets_received"] for u in (e["udp"], e["udp_bidir_reverse"])) and e["udp"]["packets_sent"] == e["client"]["datagrams_sent"] and e["udp_bidir_reverse"]["packets_sent"] == e["server"]["datagrams_sent"] and e["sum_bidir"]["bytes_received"] == e["client"]["bytes_received"] + e["server"]["bytes_received"]' "--bidir UDP: each direction's datagrams"
check "$TMP/bidir_udp.json" 'sum(s["lost"] for s in e["streams"]) == e["udp"]["lost"] + e["udp_bidir_reverse"]["lost"] and sum(s["client"].get("packets_sent", 0) for s in e["streams"]) == e["udp"]["packets_sent"]' "--bidir UDP: end.streams add up"

# 4. Jitter against a known schedule: the sender sends 80 datagrams of
# 1000 B at once (-w 1M holds them all), and a tbf of 800 kbit/s on its
# veth lets one 1042-byte frame (with the UDP, IP and Ethernet headers)
# through every 10.42 ms.  The send times are (nearly) equal and the
# kernel's receive times 10.42 ms apart, so every D is 10.42 ms and RFC
# 3550's J, from 0 over 79 differences, ends at 10.42 x (1 - (15/16)^79)
# = 10.36 ms; neither end's scheduling enters (a paced sender's stalls on
# a loaded machine would).
for n in "$A" "$B"; do
	v=$VA; [ "$n" = "$B" ] && v=$VB
	tc -n "$n" qdisc add dev "$v" root tbf rate 800kbit burst 1100 limit 200kb ||
		skip "shapes: no tbf qdisc here"
done
for t in UDP_STREAM UDP_MAERTS; do
	cli jitter_$t -t $t -k 80 -m 1000 -w 1M
	got=$(jget "$TMP/jitter_$t.json" end.udp.jitter_ms)
	echo "shapes: $t jitter $got ms, expected 10.36 (the schedule: 10.42)"
	check "$TMP/jitter_$t.json" 'abs(e["udp"]["jitter_ms"] - 10.42) <= 1.042 and e["udp"]["packets_received"] == 80' "$t: jitter $got ms within 10% of the tbf's 10.42 ms"
	check "$TMP/jitter_$t.json" 'e["streams"][0]["client" if e["udp"]["direction"] == "server_to_client" else "server"]["jitter_ms"] == e["udp"]["jitter_ms"]' "$t: the flow's jitter is the mean"
done
for n in "$A" "$B"; do
	v=$VA; [ "$n" = "$B" ] && v=$VB
	tc -n "$n" qdisc del dev "$v" root
done
cli jitter_short -t UDP_STREAM -l 0.3 -m 8 -b 10M
check "$TMP/jitter_short.json" 'e["udp"]["jitter_ms"] is None and e["udp"]["packets_received"] > 0' "8-byte datagrams: no jitter"

# 5. --omit: what the first 0.5 s moved is counted on neither end, and
# the capture's bytes are exactly those counted plus those omitted.
cap_start omit
cli omit -t TCP_STREAM -O 0.5 -l 0.5 -b 400M
cap_stop omit
check "$TMP/omit.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0 and e["client"]["omitted_bytes_sent"] == e["server"]["omitted_bytes_received"] > 0.3 * e["sum_sent"]["bytes"] and d["start"]["test_start"]["omit_s"] == 0.5' "--omit TCP: omitted on both ends, the rest exact"
capcheck omit 'len(c["data"]) == 1 and c["data"][0]["c2s"] == 16 + e["sum_sent"]["bytes"] + e["client"]["omitted_bytes_sent"]' "--omit TCP: the wire's bytes = hello + measured + omitted"
u0=$(ctr "$A" UdpOutDatagrams)
cap_start omit_udp
cli omit_udp -t UDP_STREAM -O 0.5 -l 0.5 -b 20M --no-gso -m 1000
cap_stop omit_udp
u1=$(ctr "$A" UdpOutDatagrams)
check "$TMP/omit_udp.json" 'e["udp"]["packets_sent"] > 0 and e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"] and e["client"]["omitted_bytes_sent"] > 0 and e["server"]["bytes_received"] == 1000 * e["udp"]["packets_received"]' "--omit UDP: loss of the measured datagrams"
capcheck omit_udp "c['udp']['10.232.0.1/1000'] == e['udp']['packets_sent'] + e['client']['omitted_bytes_sent'] // 1000 == $u1 - $u0 - c['udp']['10.232.0.1/16'] - c['udp'].get('10.232.0.1/24', 0)" "--omit UDP: the kernel sent the measured and the omitted datagrams (and the hello and its confirm), no more"

# 6. -n and -k: exactly that much, by the capture and the kernel
cap_start nbytes
cli nbytes -t TCP_STREAM -n 3000001 -P 3
cap_stop nbytes
check "$TMP/nbytes.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] == 3000001 and sorted(s["client"]["bytes_sent"] for s in e["streams"]) == [1000000, 1000000, 1000001]' "-n 3000001 over 3 flows"
capcheck nbytes 'sorted(x["c2s"] for x in c["data"]) == [16 + 1000000, 16 + 1000000, 16 + 1000001]' "-n: the wire carried exactly the hello and each flow's share"
cap_start nmaerts
cli nmaerts -t TCP_MAERTS -n 2M -P 2 -l 20
cap_stop nmaerts
capcheck nmaerts 'sorted(x["s2c"] for x in c["data"]) == [1048576, 1048576] and e["sum_received"]["bytes"] == 2097152' "-n with the server sending (DONE)"
o0=$(ctr "$A" UdpOutDatagrams)
cap_start kudp
cli kudp -t UDP_STREAM -k 5001 -P 2 --no-gso -m 1000 -b 50M
cap_stop kudp
o1=$(ctr "$A" UdpOutDatagrams)
capcheck kudp "c['udp'].get('10.232.0.1/1000') == 5001 == e['udp']['packets_sent'] and $o1 - $o0 == 5001 + c['udp'].get('10.232.0.1/16', 0) + c['udp'].get('10.232.0.1/24', 0)" "-k 5001: the kernel sent 5001 datagrams (and the hellos and confirms)"
o0=$(ctr "$B" UdpOutDatagrams)
cap_start kmaerts
cli kmaerts -t UDP_MAERTS -k 3000 -P 2 -m 500 -b 20M --no-gso
cap_stop kmaerts
o1=$(ctr "$B" UdpOutDatagrams)
capcheck kmaerts "e['udp']['packets_sent'] == 3000 == c['udp']['10.232.0.2/500'] == $o1 - $o0 - c['udp']['10.232.0.2/16'] - c['udp'].get('10.232.0.2/24', 0) and e['udp']['lost'] == 3000 - e['udp']['packets_received']" "-k with the server sending (DONE): 3000 datagrams by the server's kernel (and the handshake's challenge and echo)"
cap_start krr
cli krr -t TCP_RR -k 2000 -P 2 -m 100 -M 200
cap_stop krr
check "$TMP/krr.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] == 2000 and d["start"]["test_start"]["warmup_s"] == 0 and sum(s["client"]["transactions"] for s in e["streams"]) == sum(s["server"]["transactions"] for s in e["streams"]) == 2000' "-k 2000 TCP_RR"
capcheck krr 'sum(x["c2s"] for x in c["data"]) == 2 * 16 + 2000 * 100 and sum(x["s2c"] for x in c["data"]) == 2000 * 200' "-k: 2000 requests and responses on the wire"
echo "shapes: ok"
