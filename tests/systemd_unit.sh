#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# server/xperf.service (built from server/xperf.service.in): systemd
# accepts it (`systemd-analyze verify`, with ExecStart pointed at the
# xperf just built since the installed one may not exist yet), and it keeps
# its hardening.  Skipped (77) without systemd-analyze.
. "${srcdir:-.}/tests/lib.sh"

UNIT=${UNIT:-server/xperf.service}
command -v systemd-analyze >/dev/null 2>&1 ||
	{ echo "systemd_unit: SKIP: no systemd-analyze"; exit 77; }
[ -r "$UNIT" ] || fail "no $UNIT (make builds it)"
grep -q '@bindir@' "$UNIT" && fail "$UNIT: @bindir@ not substituted"

for key in DynamicUser=yes NoNewPrivileges=yes CapabilityBoundingSet= \
	PrivateTmp=yes ProtectSystem=strict ProtectHome=yes Restart=on-failure \
	'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK' 'ExecStart=.*/xperf -s$'; do
	grep -q -x -e "$key" "$UNIT" || fail "$UNIT lacks $key"
done
nofile=$(sed -n 's/^LimitNOFILE=//p' "$UNIT")
[ "${nofile:-0}" -ge 65536 ] || fail "LimitNOFILE=$nofile: too low for many flows"

# the unit with this build's binary; a unit file's name is its unit name
mkdir "$TMP/unit"
sed "s|^ExecStart=.*|ExecStart=$XPERF -s|" "$UNIT" >"$TMP/unit/xperf.service"
# --man=no: Documentation=man:xperf(1) is not installed yet
systemd-analyze verify --man=no "$TMP/unit/xperf.service" >"$TMP/verify" 2>&1
rc=$?
if grep -q -i -e "failed to.*bus" -e "No such file or directory.*systemd" "$TMP/verify" &&
	[ $rc -ne 0 ]; then
	echo "systemd_unit: SKIP: systemd-analyze cannot run here: $(head -3 "$TMP/verify")"
	exit 77
fi
# verify also loads the units installed on this machine: a warning about
# one of those (e.g. irtt.service's "User=nobody", pulled in with flent's
# recommends) is shown, not counted against xperf.service
grep -v "xperf" "$TMP/verify" | sed 's/^/systemd_unit: about another unit: /'
grep "xperf" "$TMP/verify" >"$TMP/ours"
[ $rc -eq 0 ] && [ ! -s "$TMP/ours" ] || fail "systemd-analyze verify (exit $rc): $(cat "$TMP/verify")"
# the exposure score, when this systemd can compute it offline (>= 250)
score=$(systemd-analyze security --offline=true "$TMP/unit/xperf.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for xperf.service: \([0-9.]*\).*/\1/p')
if [ -n "$score" ]; then
	awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' ||
		fail "systemd-analyze security: exposure $score, want at most 2.0"
fi
echo "systemd_unit: verify clean; exposure ${score:-not computed}"
