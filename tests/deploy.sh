#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The container image, built for real: `podman build` of deploy/Containerfile
# (the build stage from deploy/build-base.sh's debootstrapped Debian, so no
# registry is needed), then the final image's root file system exported
# from a container that is created, never run, and its binary tested: it
# is static, small, the image's whole content, and it serves and measures
# on loopback with the DaemonSet's and the Job's own arguments, resolves
# names from the image's /etc (hosts, and DNS for Service names) as the
# image's user, and merges the results.
#
# Opt-in: DEPLOY_TEST=1 (it needs root, podman and debootstrap, and takes
# about 4 minutes on a machine without the base image, 1 minute with it).
# .ci/run runs it once, outside `make check`.  DEPLOY_BUILD_IMAGE names
# another build-stage image (e.g. docker.io/library/debian:bookworm where
# a registry can be reached).  The base image is kept for the next run.
. "${srcdir:-.}/tests/lib.sh"

[ "${DEPLOY_TEST:-0}" = 1 ] ||
	skip "the image build is opt-in: DEPLOY_TEST=1 make check TESTS=tests/deploy.sh (tests/deploy_manifests.sh checks the manifests every time)"
[ "$(id -u)" = 0 ] || skip "podman build and debootstrap need root"
command -v podman >/dev/null || skip "podman is missing (apt-get install podman)"
python3 -c 'import yaml' 2>/dev/null || skip "python3 has no yaml module (apt-get install python3-yaml)"

base=${DEPLOY_BUILD_IMAGE:-localhost/xperf-build-base:bookworm}
tag=localhost/xperf-deploy-test:$$
EXTRA_CLEANUP='podman rm -f "$cid" >/dev/null 2>&1; podman rmi -f "$tag" >/dev/null 2>&1; [ -z "$DNS_PID" ] || kill "$DNS_PID" 2>/dev/null'
cid=
DNS_PID=

# 1. The image: the base (made here if missing), then the build.  podman's
# default OCI isolation cannot run a build step in this sandbox (crun:
# "cgroups in hybrid mode not supported"); chroot isolation can.
case $base in
localhost/*)
	timeout 900 "$srcdir/deploy/build-base.sh" "$base" || fail "deploy/build-base.sh $base" ;;
esac
t0=$(date +%s)
timeout 900 podman build --isolation=chroot --layers=false \
	--build-arg BUILD_IMAGE="$base" \
	--ignorefile "$srcdir/deploy/Containerfile.dockerignore" \
	-f "$srcdir/deploy/Containerfile" -t "$tag" "$srcdir" >"$TMP/build.log" 2>&1 ||
	{ tail -30 "$TMP/build.log" >&2; fail "podman build"; }
echo "podman build: $(($(date +%s) - t0)) s"
grep -q "Using 'getaddrinfo' in statically linked" "$TMP/build.log" &&
	echo "  (the linker's getaddrinfo warning: expected, see deploy/Containerfile)"
size=$(podman image inspect --format '{{.Size}}' "$tag")
echo "image $tag: $size bytes; podman images says: $(podman images --format '{{.Size}}' "$tag")"
[ "$size" -lt 4000000 ] || fail "image is $size bytes, more than 4 MB"
conf=$(podman image inspect --format '{{.Config.User}} {{.Config.Entrypoint}} {{.Config.Cmd}} {{.Config.ExposedPorts}}' "$tag")
echo "image config: $conf"
case $conf in
"65532:65532 [/xperf] [-s] map[5310/tcp:{} 5310/udp:{}]") ;;
*) fail "image config: $conf" ;;
esac

# 2. Its root file system, from a container created but never started.
cid=$(podman create "$tag") || fail "podman create"
mkdir "$TMP/rootfs"
podman export "$cid" | tar -x -C "$TMP/rootfs" || fail "podman export"
root=$TMP/rootfs
files=$(cd "$root" && find . -type f | sort | tr '\n' ' ')
echo "image files: $files"
[ "$files" = "./etc/group ./etc/nsswitch.conf ./etc/passwd ./xperf " ] || fail "unexpected files in the image"
bin=$root/xperf
if readelf -l "$bin" | grep -q INTERP || readelf -d "$bin" | grep -q NEEDED; then
	fail "$bin has a program interpreter or needs shared libraries"
fi
ldd_out=$(ldd "$bin" 2>&1 || true)
case $ldd_out in
*"not a dynamic executable"*) ;;
*) fail "ldd: $ldd_out" ;;
esac
command -v file >/dev/null && echo "file: $(file -b "$bin")"
echo "ldd: $(echo "$ldd_out" | tr -d '\n'); size $(wc -c <"$bin") bytes"
[ "$("$bin" --version)" = "$("$XPERF" --version)" ] || fail "image binary: $("$bin" --version)"
"$bin" --version

# 3. Serve and measure on loopback with the manifests' own arguments:
# the DaemonSet's server (its --port replaced), the Job's clients with
# their env ($(XPERF_TARGET) and $(XPERF_SECONDS) replaced), three at once.
manifest_args() { # FILE KIND [NAME=VALUE...]: the container's args, expanded
	_f=$srcdir/deploy/$1 _k=$2
	shift 2
	python3 - "$_f" "$_k" "$@" <<'PY'
import re, sys, yaml
path, kind, over = sys.argv[1], sys.argv[2], dict(a.split("=", 1) for a in sys.argv[3:])
for d in yaml.safe_load_all(open(path)):
    if d and d["kind"] == kind:
        c = d["spec"]["template"]["spec"]["containers"][0]
        env = {e["name"]: e.get("value", "") for e in c.get("env", [])}
        env.update(over)
        args = [re.sub(r"\$\((\w+)\)", lambda m: env[m.group(1)], a) for a in c["args"]]
        for i, a in enumerate(args):
            print(over["PORT"] if i and args[i - 1] in ("-p", "--port") and "PORT" in over else a)
PY
}
PORT=$(free_port)
server_args=$(manifest_args server/xperf-server-daemonset.yaml DaemonSet PORT="$PORT" | tr '\n' ' ')
echo "server: xperf $server_args"
# shellcheck disable=SC2086
"$bin" $server_args >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do
	grep -q "listening on port $PORT" "$TMP/server.log" && break
	kill -0 "$SERVER_PID" 2>/dev/null || fail "the DaemonSet's server did not start"
	sleep 0.1
done
grep -q "listening on port $PORT" "$TMP/server.log" || fail "the DaemonSet's server is not listening"
job_args() { manifest_args client/xperf-client-job.yaml Job XPERF_SECONDS=1 "$@" | tr '\n' ' '; }
echo "clients: xperf $(job_args XPERF_TARGET=127.0.0.1) -p $PORT"
pids=
for i in 0 1 2; do
	# shellcheck disable=SC2046
	"$bin" $(job_args XPERF_TARGET=127.0.0.1) -p "$PORT" >"$TMP/c$i.json" &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "a client with the Job's arguments failed"; done
sum=0
for i in 0 1 2; do sum=$((sum + $(jget "$TMP/c$i.json" end.rr.transactions))); done
"$bin" merge --json "$TMP"/c?.json >"$TMP/merged.json" || fail "xperf merge (image binary)"
merged=$(jget "$TMP/merged.json" end.rr.transactions)
[ "$sum" -gt 0 ] && [ "$merged" = "$sum" ] || fail "merged $merged transactions, the clients made $sum"
echo "3 clients at once: $sum transactions, merged by the image's xperf: $merged, p99 $(jget "$TMP/merged.json" end.rr.latency_us.p99) us"
# shellcheck disable=SC2046
"$bin" $(job_args XPERF_TARGET=127.0.0.1 XPERF_TEST=UDP_RR) -p "$PORT" >"$TMP/udp.json" ||
	fail "UDP_RR against the DaemonSet's server"
check "$TMP/udp.json" 'e["rr"]["transactions"] > 0' "UDP_RR transactions"
"$bin" -t TCP_RR -l 1 --json >"$TMP/self.json" || fail "xperf -t TCP_RR -l 1 (server in the process)"
check "$TMP/self.json" 'e["rr"]["transactions"] > 0' "loopback TCP_RR"
echo "UDP_RR through port $PORT: $(jget "$TMP/udp.json" end.rr.transactions) transactions; xperf -t TCP_RR -l 1: $(jget "$TMP/self.json" end.rr.transactions)"

# 4. Names, from the image's own root as its user (chroot): /etc/hosts
# (which the runtime mounts in a pod), and a Kubernetes Service name
# through the DNS search path (a stand-in DNS server on 127.0.0.1:53).
command -v chroot >/dev/null || skip "chroot is missing (the rest passed)"
printf '127.0.0.1 localhost xperf-hosts-name\n::1 localhost\n' >"$root/etc/hosts"
as_image_user() { chroot --userspec=65532:65532 "$root" /xperf "$@"; }
as_image_user -c xperf-hosts-name -p "$PORT" -t TCP_RR -l 0.3 >/dev/null 2>"$TMP/err" ||
	fail "name from the image's /etc/hosts: $(cat "$TMP/err")"
if as_image_user -c xperf-nosuch-name.invalid -p "$PORT" -t TCP_RR -l 0.3 >/dev/null 2>"$TMP/err"; then
	fail "a name in neither /etc/hosts nor DNS resolved"
fi
echo "as uid 65532 in the image root: /etc/hosts names resolve; unknown ones fail ($(cat "$TMP/err"))"
cat >"$TMP/dns.py" <<'PY'
# A DNS server for one name: xperf-server.fleet.svc.cluster.local -> 127.0.0.1
# (A); everything else NXDOMAIN.  Stops after 30 s or 200 queries.
import socket, struct, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
print("ready", flush=True)
s.settimeout(1)
end, n = time.time() + 30, 0
while time.time() < end and n < 200:
    try:
        q, peer = s.recvfrom(512)
    except socket.timeout:
        continue
    n += 1
    i, labels = 12, []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode()); i += 1 + q[i]
    name, qtype = ".".join(labels), struct.unpack("!H", q[i + 1:i + 3])[0]
    print(name, qtype, flush=True)
    hit = name == "xperf-server.fleet.svc.cluster.local"
    ans = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 5, 4) + socket.inet_aton("127.0.0.1") if hit and qtype == 1 else b""
    hdr = struct.pack("!HHHHHH", q[0] << 8 | q[1], 0x8180 | (0 if hit else 3), 1, 1 if ans else 0, 0, 0)
    s.sendto(hdr + q[12:i + 5] + ans, peer)
PY
python3 -u "$TMP/dns.py" >"$TMP/dns.log" 2>&1 &
DNS_PID=$!
for _ in $(seq 50); do grep -q ready "$TMP/dns.log" && break; kill -0 "$DNS_PID" 2>/dev/null || break; sleep 0.1; done
grep -q ready "$TMP/dns.log" || { echo "port 53 on 127.0.0.1 is taken: the DNS check is left out"; exit 0; }
printf 'nameserver 127.0.0.1\nsearch fleet.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n' >"$root/etc/resolv.conf"
# The Job's arguments as they are: XPERF_TARGET is the Service name.
# shellcheck disable=SC2046
as_image_user $(job_args XPERF_SECONDS=0.3) -p "$PORT" >"$TMP/dns.json" 2>"$TMP/err" ||
	fail "the Job's target $(job_args | cut -d' ' -f2) through DNS: $(cat "$TMP/err"); DNS saw: $(cat "$TMP/dns.log")"
grep -q '^xperf-server.fleet.svc.cluster.local 1$' "$TMP/dns.log" || fail "no DNS query for the Service name"
echo "the Job's target '$(job_args | cut -d' ' -f2)' resolved through the DNS search path as in a pod: $(jget "$TMP/dns.json" end.rr.transactions) transactions"
