# SPDX-License-Identifier: BSD-2-Clause
# Finding 8: the client trusts the server.  (a) A fake server's impossible
# RESULT (2^63 bytes in 1 ns, CPU time 2^62 us, errors 2^64-1, worker CPUs
# "99999,-1", ncpus 0).  (b) Servers that never finish: a TCPINFO message
# every 0.5 s and never RESULT; silence after STOP; a real server frozen
# with SIGSTOP; a real server whose link is cut.  Fixed: (a) exit 1 with a
# warning (end.warnings in JSON), no negative figure, exit 0 with
# --trust-server; (b) exit non-zero within -l + warmup + 10 s.
# Sourced by tests/hostile.sh.

PATIENCE=${FULL:+40}
PATIENCE=${PATIENCE:-3}
# negatives FILE...: the negative numbers the files show (a figure such as
# "-1.000 us/KB" or a JSON value -1)
negatives() {
	"$PY" -c '
import re, sys
found = []
for f in sys.argv[1:]:
    found += re.findall(rb"(?<![\w.\-])-\d[\d.]*(?:e[+-]?\d+)?(?: ?[A-Za-z%/]+)?", open(f, "rb").read())
print(", ".join(sorted(set(x.decode() for x in found))))' "$@"
}

# (a) absurd counters
bgtool f8a "$A" fake_server.py --port 6801 --mode absurd --life 60
HOST=$ATT normal f8t "$C" 6801 15 -t TCP_STREAM -l 1
HOST=$ATT normal f8j "$C" 6801 15 -t TCP_STREAM -l 1 --json
HOST=$ATT normal f8trust "$C" 6801 15 -t TCP_STREAM -l 1 --trust-server
report 8 "fake server with impossible counters: text exit $(jv "$TMP/f8t.run" exit), --json exit $(jv "$TMP/f8j.run" exit), --trust-server exit $(jv "$TMP/f8trust.run" exit)"
sed -n 's/^  \(received\|cpu \|service\|errors\)/finding 8:   | &/p' "$TMP/f8t.out"
warn=$("$PY" -c '
import json, sys
try:
    e = json.load(open(sys.argv[1]))["end"]
except Exception as x:
    print("no JSON end (%s)" % x); sys.exit()
w = e.get("warnings")
print("%d warnings" % len(w) if isinstance(w, list) else "no end.warnings", "; worker_cpus",
      e.get("server", {}).get("worker_cpus"))' "$TMP/f8j.out")
neg=$(negatives "$TMP/f8t.out" "$TMP/f8t.err" "$TMP/f8j.out")
report 8 "JSON: $warn; negative figures shown: ${neg:-none}"
[ "$(jv "$TMP/f8t.run" exit)" = 1 ] || unmet 8 "text client accepted impossible counters: $(how f8t) (want exit 1)"
[ "$(jv "$TMP/f8j.run" exit)" = 1 ] || unmet 8 "--json client accepted impossible counters: $(how f8j) (want exit 1)"
grep -qi warn "$TMP/f8t.out" "$TMP/f8t.err" || unmet 8 "no warning in the text report for impossible server counters"
case $warn in [1-9]*" warnings"*) ;; *) unmet 8 "JSON: $warn (want a non-empty end.warnings)" ;; esac
[ -z "$neg" ] || unmet 8 "negative figures printed as if true: $neg"
[ "$(jv "$TMP/f8trust.run" exit)" = 0 ] || unmet 8 "--trust-server: $(how f8trust) (want exit 0)"

# (b) four servers that never finish, side by side
bgtool f8d "$A" fake_server.py --port 6802 --mode drip --drip 0.5 --life 90
bgtool f8s "$A" fake_server.py --port 6803 --mode silent --life 90
server f8stop 6804
STOPPED=$SPID
server f8cut 6805
CUT=$SPID
lim_s=$((12 + PATIENCE))
HOST=$ATT normal f8drip "$C" 6802 $lim_s -t TCP_STREAM -l 2 &
runs=$!
HOST=$ATT normal f8silent "$C" 6803 $lim_s -t TCP_STREAM -l 2 &
runs="$runs $!"
normal f8frozen "$C" 6804 $lim_s -t TCP_RR -l 2 &
runs="$runs $!"
normal f8cutrun "$V" 6805 $lim_s -t TCP_RR -l 2 &
runs="$runs $!"
for p in $runs; do track $p; done
sleep 1
kill -STOP $STOPPED
if command -v iptables >/dev/null; then
	ns "$V" iptables -w -I INPUT -s $SRV -j DROP
	ns "$V" iptables -w -I OUTPUT -d $SRV -j DROP
	how_cut="iptables DROP at the client"
elif ns "$V" tc qdisc add dev hostile-vic root netem loss 100% 2>/dev/null; then
	how_cut="netem loss 100% at the client"
else # neither iptables nor netem (a kernel without sch_netem): pull the cable
	ns "$V" ip link set dev hostile-vic down
	how_cut="client's link set down (no iptables, no netem)"
fi
wait $runs
kill -CONT $STOPPED
for t in "drip:TCPINFO every 0.5 s, never RESULT:12" "silent:silent after STOP:12" \
	"frozen:server SIGSTOPped 1 s in:12.4" "cutrun:link cut 1 s in ($how_cut):12.4"; do
	name=${t%%:*} rest=${t#*:}
	what=${rest%:*} dl=${rest##*:}
	report 8 "-l 2, $what: client $(how f8$name) (deadline $dl s)"
	"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if not r["killed"] and r["exit"] not in (0, None) and r["elapsed"] <= float(sys.argv[2]) + 0.5 else 1)' \
		"$TMP/f8$name.run" "$dl" || unmet 8 "$what: client $(how f8$name) (want a non-zero exit within $dl s)"
done
if command -v iptables >/dev/null; then
	ns "$V" iptables -w -D INPUT -s $SRV -j DROP
	ns "$V" iptables -w -D OUTPUT -d $SRV -j DROP
elif [ "${how_cut#netem}" != "$how_cut" ]; then
	ns "$V" tc qdisc del dev hostile-vic root
else
	ns "$V" ip link set dev hostile-vic up
fi
sstop 8 $STOPPED
sstop 8 $CUT
