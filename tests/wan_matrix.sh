#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The WAN matrix (tests/wan_matrix.py): xperf's six tests over 1, 20 and
# 100 ms round trips, 0, 0.1 and 1 % loss and a 100 Mbit/s link, held to
# oracles xperf does not compute and run beside stock iperf3, sockperf
# (and netperf when NETPERF_DIR holds a build) on the same paths.  Needs
# root, network namespaces, packet sockets (the delay line), iperf3 and
# sockperf, and a build without sanitizers; skipped (77) otherwise.  About
# 4.5 minutes.
XP_ALONE=1
. "${srcdir:-.}/tests/lib.sh"
skip_sanitized wan_matrix

[ "$(id -u)" = 0 ] || skip "wan_matrix: needs root"
for t in ip iperf3 sockperf python3; do
	command -v $t >/dev/null || skip "wan_matrix: needs $t"
done
probe=xperf-wmprobe-$$
ip netns add "$probe" 2>/dev/null || skip "wan_matrix: cannot create network namespaces here"
ip netns exec "$probe" python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)' \
	2>/dev/null
st=$?
ip netns del "$probe"
[ "$st" = 0 ] || skip "wan_matrix: no packet sockets (AF_PACKET) for the delay line"
XPERF=$XPERF TMP=$TMP python3 "${srcdir:-.}/tests/wan_matrix.py" || fail "wan_matrix: a bound broke (above)"
echo "wan_matrix: ok"
