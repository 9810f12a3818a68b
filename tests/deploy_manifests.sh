#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# deploy/ without a cluster: every manifest, kustomization and the
# Containerfile pass tests/deploy_manifests.py (parsing, what each kind
# needs, kubectl's kustomize and typed decoding), the checker fails on
# broken copies, and deploy/collect.sh, run against a stand-in kubectl
# that serves results of real clients that ran at the same time, saves
# them by index, merges them exactly and reports a failed client.
. "${srcdir:-.}/tests/lib.sh"

PY=python3
if ! python3 -c 'import yaml' 2>/dev/null; then
	if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
		PY=/usr/bin/python3
	else
		skip "python3 has no yaml module (apt-get install python3-yaml)"
	fi
fi
version=$("$XPERF" --version | awk '{print $2}')

# 1. The real deploy/ passes, and the output says what was checked.
"$PY" "$srcdir/tests/deploy_manifests.py" "$srcdir/deploy" --version "$version" \
	>"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "deploy/ manifests"; }
cat "$TMP/check.out"
if command -v kubectl >/dev/null; then
	grep -q 'deploy/hostnetwork/server = deploy/server with exactly its patch' "$TMP/check.out" ||
		fail "kubectl is here but the overlays were not rendered"
fi

# 2. The checker fails on broken copies (each names what is wrong).  The
# static checks run alone (--kubectl none) where they are what must fail.
mutate() { # FILE SED-EXPRESSION EXPECTED-MESSAGE [none]
	rm -rf "$TMP/bad" && mkdir "$TMP/bad" && cp -R "$srcdir/deploy" "$TMP/bad/" &&
		chmod -R u+w "$TMP/bad"
	sed -i "$2" "$TMP/bad/deploy/$1"
	cmp -s "$srcdir/deploy/$1" "$TMP/bad/deploy/$1" && fail "mutation '$2' changed nothing in $1"
	if "$PY" "$srcdir/tests/deploy_manifests.py" "$TMP/bad/deploy" ${4:+--kubectl "$4"} \
		>"$TMP/bad.out" 2>&1; then
		fail "deploy_manifests.py passed $1 with '$2'"
	fi
	grep -q "^FAIL.*$3" "$TMP/bad.out" || { cat "$TMP/bad.out" >&2; fail "no FAIL line with '$3'"; }
	echo "broken $1 ($2): $(grep -c '^FAIL' "$TMP/bad.out") checks fail, e.g. $(grep -m1 "^FAIL.*$3" "$TMP/bad.out")"
}
mutate client/xperf-client-job.yaml 's/parallelism: 4/parallelism: 3/' 'every client at once' none
mutate client/xperf-client-job.yaml 's/completionMode: Indexed/completionMode: NonIndexed/' 'completionMode Indexed' none
mutate server/xperf-server-daemonset.yaml 's/containerPort: 5310/containerPort: "5310"/' 'containerPort' none
mutate server/xperf-server-daemonset.yaml 's/targetPort: xperf-udp/targetPort: xperf-dgram/' 'targetPort xperf-dgram' none
mutate client/xperf-client-job.yaml 's/"-l", "$(XPERF_SECONDS)"/"-l", "$(XPERF_SECS)"/' 'XPERF_SECS' none
mutate Containerfile 's/^FROM scratch/FROM debian/' 'last FROM scratch' none
if command -v kubectl >/dev/null; then
	mutate server/xperf-server-daemonset.yaml 's/  readinessProbe:/  readinessProbes:/' 'readinessProbes dropped'
	mutate client/xperf-client-job.yaml 's#apiVersion: batch/v1#apiVersion: batch/v2#' 'typed decode'
	mutate hostnetwork/client/kustomization.yaml 's/value: ClusterFirstWithHostNet/value: Default/' 'more than its patch'
fi

# The README's offline pipeline for a many-to-one test makes that Job.
if command -v kubectl >/dev/null; then
	export KUBECONFIG=/dev/null
	kubectl kustomize "$srcdir/deploy/client" |
		kubectl set env --local -f - XPERF_TARGET=10.244.3.7 XPERF_TEST=TCP_STREAM XPERF_SECONDS=20 -o yaml |
		kubectl patch --local -f - --type merge -p '{"spec":{"completions":8,"parallelism":8}}' -o yaml \
			>"$TMP/many.yaml" || fail "the README's kubectl pipeline"
	"$PY" - "$TMP/many.yaml" "$version" <<'PY' || fail "the README's pipeline made a different Job"
import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
c = j["spec"]["template"]["spec"]["containers"][0]
env = {e["name"]: e["value"] for e in c["env"]}
assert (j["spec"]["completions"], j["spec"]["parallelism"]) == (8, 8), j["spec"]
assert env == {"XPERF_TARGET": "10.244.3.7", "XPERF_TEST": "TCP_STREAM",
               "XPERF_SECONDS": "20", "XPERF_FLOWS": "4"}, env
assert c["image"] == "localhost/xperf:" + sys.argv[2], c["image"]
PY
	echo "README pipeline (kustomize | set env | patch, offline): 8 clients at once against 10.244.3.7"
fi

# 3. collect.sh: three clients at once against one server (the results a
# fleet's pods print), served by a stand-in kubectl.
start_server
pids=
for i in 0 1 2; do
	"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 -P 2 --json >"$TMP/pod$i.log" &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "a client failed"; done
stub=$TMP/stub && mkdir -p "$stub/bin"
cat >"$stub/bin/kubectl" <<'EOF'
#!/bin/sh
# Stand-in for kubectl: answers what collect.sh asks from files in $STUB.
echo "$*" >>"$STUB/calls"
[ "$1" = -n ] && shift 2
case "$1 $2" in
"get job") echo "SuccessCriteriaMet Complete" ;;
"get pods") cat "$STUB/pods" ;;
"logs "*) cat "$STUB/$2.log" ;;
*) echo "stub kubectl: $*" >&2; exit 1 ;;
esac
EOF
chmod +x "$stub/bin/kubectl"
for i in 0 1 2; do cp "$TMP/pod$i.log" "$stub/xperf-client-$i-x.log"; done
printf '2 xperf-client-2-x Succeeded\n0 xperf-client-0-x Succeeded\n1 xperf-client-1-x Succeeded\n' >"$stub/pods"
run_collect() {
	STUB=$stub PATH="$stub/bin:$PATH" XPERF="$XPERF" \
		"$srcdir/deploy/collect.sh" -n fleet -o "$TMP/results" -w 30 >"$TMP/collect.out" 2>"$TMP/collect.err"
}
run_collect || { cat "$TMP/collect.out" "$TMP/collect.err" >&2; fail "collect.sh"; }
grep -q -- '-n fleet get pods -l job-name=xperf-client' "$stub/calls" || fail "collect.sh did not list the Job's pods in the namespace"
for i in 0 1 2; do cmp -s "$TMP/pod$i.log" "$TMP/results/$i.json" || fail "results/$i.json is not pod $i's log"; done
sum=0
for i in 0 1 2; do sum=$((sum + $(jget "$TMP/pod$i.log" end.rr.transactions))); done
merged=$(jget "$TMP/results/merged.json" end.rr.transactions)
[ "$sum" -gt 0 ] && [ "$merged" = "$sum" ] || fail "merged transactions $merged, the three clients made $sum"
grep -q '^total' "$TMP/collect.out" || fail "no merged table on stdout"
echo "collect.sh: 3 results by index, merged $merged transactions = the sum; $(grep 'started within' "$TMP/collect.err")"

# A client that failed: its log is shown, the others are merged, exit 1.
echo '{"error": "connect 10.0.0.9:5310: Connection refused"}' >"$stub/xperf-client-3-x.log"
echo '3 xperf-client-3-x Failed' >>"$stub/pods"
if run_collect; then fail "collect.sh succeeded with a failed client"; fi
grep -q 'index 3 (xperf-client-3-x) Failed' "$TMP/collect.err" || fail "the failed index is not named"
grep -q 'Connection refused' "$TMP/collect.err" || fail "the failed client's log is not shown"
[ "$(jget "$TMP/results/merged.json" end.rr.transactions)" = "$sum" ] || fail "the three good results were not merged"
echo "collect.sh: a failed client is named with its log, exit 1, the others still merged"
