# SPDX-License-Identifier: BSD-2-Clause
# Finding 1: UDP reflection and amplification.  A control session opened
# from A (UDP_RR, -m 8 -M 60000); the flow's hello and its requests sent
# with that session's cookie from the victim's address B.  Fixed: not one
# byte reaches B, before GO or after, from one flow or from several.
# Sourced by tests/hostile.sh.

server f1 6101
P=6101
ns "$V" "$PY" "$HT/bcount.py" setup --server $SRV --addrs $VIC,$NET.4,$NET.5,$NET.6
ns "$S" "$PY" "$HT/bcount.py" setup --server $SRV --addrs $VIC,$NET.4,$NET.5,$NET.6 --out
CNT_V="ip netns exec $V $PY $HT/bcount.py read"
CNT_S="ip netns exec $S $PY $HT/bcount.py read"

# one flow aimed at B, 1000 requests before GO, 1000 after
ns "$A" "$PY" "$HT/forge.py" reflect --server $SRV --port $P --victim $VIC \
	--req 8 --rsp 60000 --count 1000 --rate 1000 --go --counter "$CNT_V" --sent-counter "$CNT_S" >"$TMP/f1a.json" ||
	unmet 1 "forge.py reflect did not run: $(cat "$TMP/f1a.json")"
f1_line() { # FILE PHASE ADDR: "IN B in, OUT B out (RATIO x)"
	"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r.get("phases", {}).get(sys.argv[2])
if not p:
    print("no %s phase (setup %s %s)" % (sys.argv[2], r.get("setup"), r.get("error", "")))
    sys.exit()
out = p["at_victim"].get(sys.argv[3], 0)
sent = p.get("from_server", {}).get(sys.argv[3], 0)
print("%d bytes to forged address %s (in %.1f KB from %d datagrams, out %.1f MB, %.0fx; "
      "the server sent %.1f MB, %.0fx)" % (
    out, sys.argv[3], p["in_ip"] / 1e3, p["sent"], out / 1e6, out / max(p["in_ip"], 1),
    sent / 1e6, sent / max(p["in_ip"], 1)))' "$@"
}
f1_bytes() { "$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r.get("phases", {}).get(sys.argv[2])
print(p["at_victim"].get(sys.argv[3], 0) if p else -1)' "$@"; }
report 1 "before GO, -m 8 -M 60000: $(f1_line "$TMP/f1a.json" pre $VIC)"
report 1 "after GO ($(jv "$TMP/f1a.json" after_ready) to A): $(f1_line "$TMP/f1a.json" go $VIC)"
icmp=$(jv "$TMP/f1a.json" phases.go.at_victim.icmp_unreach)
icmp0=$(jv "$TMP/f1a.json" phases.pre.at_victim.icmp_unreach)
report 1 "B's kernel sent ${icmp0:-?}+${icmp:-?} ICMP port-unreachable (before+after GO); bytes to B after them: $(f1_bytes "$TMP/f1a.json" go $VIC)"
for ph in pre go; do
	[ "$(f1_bytes "$TMP/f1a.json" $ph $VIC)" = 0 ] ||
		unmet 1 "phase $ph: $(f1_bytes "$TMP/f1a.json" $ph $VIC) bytes reached the forged address $VIC (want 0)"
done

# the largest amplification: 1-byte requests, 65507-byte responses
ns "$A" "$PY" "$HT/forge.py" reflect --server $SRV --port $P --victim $VIC --sport 41000 \
	--req 1 --rsp 65507 --count 300 --rate 1000 --counter "$CNT_V" --sent-counter "$CNT_S" >"$TMP/f1b.json"
report 1 "before GO, -m 1 -M 65507: $(f1_line "$TMP/f1b.json" pre $VIC)"
[ "$(f1_bytes "$TMP/f1b.json" pre $VIC)" = 0 ] ||
	unmet 1 "-m 1 -M 65507: $(f1_bytes "$TMP/f1b.json" pre $VIC) bytes reached $VIC (want 0)"

# one session, four flows, four forged addresses
ns "$A" "$PY" "$HT/forge.py" reflect --server $SRV --port $P --sport 42000 \
	--victim $VIC,$NET.4,$NET.5,$NET.6 --req 8 --rsp 60000 --count 20 --rate 400 \
	--counter "$CNT_V" --sent-counter "$CNT_S" >"$TMP/f1c.json"
hit=$("$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r.get("phases", {}).get("pre", {}).get("at_victim", {})
print(sum(1 for a in sys.argv[2:] if p.get(a, 0) > 0), sum(p.get(a, 0) for a in sys.argv[2:]))' \
	"$TMP/f1c.json" $VIC $NET.4 $NET.5 $NET.6)
report 1 "one session, 4 flows from 4 forged addresses: ${hit% *} of 4 addresses received data (${hit#* } bytes)"
[ "${hit% *}" = 0 ] || unmet 1 "${hit% *} of 4 forged addresses received data from one session (want 0)"
ns "$V" "$PY" "$HT/bcount.py" teardown
ns "$S" "$PY" "$HT/bcount.py" teardown
sstop 1 $SPID
