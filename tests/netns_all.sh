#!/bin/sh
# Every test type between two network namespaces joined by a veth pair,
# as between two hosts.  Needs root and `ip netns`; skipped (77) otherwise.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "netns_all: needs root"
command -v ip >/dev/null || skip "netns_all: needs iproute2 (ip)"
A=xpt-a-$$
B=xpt-b-$$
EXTRA_CLEANUP="ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null"
ip netns add "$A" 2>/dev/null || skip "netns_all: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add xpv$$a netns "$A" type veth peer name xpv$$b netns "$B" ||
	skip "netns_all: no veth support in this kernel"
ip -n "$A" addr add 10.231.0.1/24 dev xpv$$a
ip -n "$B" addr add 10.231.0.2/24 dev xpv$$b
ip -n "$A" addr add fd00:231::1/64 dev xpv$$a nodad 2>/dev/null
ip -n "$B" addr add fd00:231::2/64 dev xpv$$b nodad 2>/dev/null
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set xpv$$a up
ip -n "$B" link set xpv$$b up

NS_EXEC="ip netns exec $B"
start_server
cli() { # NAME ARGS...
	name=$1; shift
	ip netns exec "$A" "$XPERF" -c "${HOST:-10.231.0.2}" -p "$PORT" -l 1 --json "$@" \
		>"$TMP/$name.json" 2>"$TMP/$name.err" || { cat "$TMP/$name.err" >&2; fail "$name over veth"; }
}
cli stream -t TCP_STREAM
check "$TMP/stream.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "TCP_STREAM over veth exact"
cli maerts -t TCP_MAERTS -P 2
check "$TMP/maerts.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "TCP_MAERTS over veth exact"
cli rr -t TCP_RR -m 64
check "$TMP/rr.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "TCP_RR over veth counts agree"
cli crr -t TCP_CRR
check "$TMP/crr.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "TCP_CRR over veth counts agree"
cli udp -t UDP_STREAM
check "$TMP/udp.json" 'e["udp"]["packets_received"] > 0 and e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"]' "UDP_STREAM over veth loss accounting"
cli udprr -t UDP_RR
check "$TMP/udprr.json" 'e["rr"]["transactions"] > 0 and e["udp"]["packets_sent"] == e["rr"]["transactions"] + e["udp"]["lost"]' "UDP_RR over veth"
if ip -n "$B" -6 addr show dev xpv$$b | grep -q fd00:231::2; then
	sleep 1 # let IPv6 neighbours settle
	HOST=fd00:231::2 cli rr6 -t TCP_RR -6
	check "$TMP/rr6.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "TCP_RR over veth, IPv6"
	HOST=fd00:231::2 cli udp6 -t UDP_STREAM -6
	check "$TMP/udp6.json" 'e["udp"]["packets_received"] > 0' "UDP_STREAM over veth, IPv6"
fi
echo "netns_all: ok"
