#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Make the build stage's base image without a container registry: a
# minimal Debian bookworm tree with the C tool chain, made by debootstrap
# from the Debian mirror and imported into podman's local store.
#
#   deploy/build-base.sh [IMAGE]        (root; IMAGE defaults to the name below)
#   podman build --isolation=chroot --build-arg BUILD_IMAGE=IMAGE ...
#
# Does nothing when IMAGE is already in the local store (--force remakes
# it).  MIRROR overrides the Debian mirror.  Takes about 2 minutes and
# 530 MB while it runs; the tree is removed afterwards.
set -euo pipefail

force=0
if [ "${1:-}" = --force ]; then
	force=1
	shift
fi
image=${1:-localhost/xperf-build-base:bookworm}
mirror=${MIRROR:-http://deb.debian.org/debian}
packages=gcc,libc6-dev,make,autoconf,automake,pkg-config,binutils

die() { echo "build-base.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
command -v podman >/dev/null || die "podman is missing (apt-get install podman)"
if [ "$force" = 0 ] && podman image exists "$image"; then
	echo "build-base.sh: $image is already there"
	exit 0
fi

tree=$(mktemp -d "${TMPDIR:-/var/tmp}/xperf-build-base.XXXXXX")
trap 'rm -rf "$tree"' EXIT
echo "build-base.sh: debootstrap bookworm ($packages) from $mirror"
debootstrap --variant=minbase --include="$packages" bookworm "$tree" "$mirror" \
	>"$tree.log" 2>&1 || { tail -20 "$tree.log" >&2; rm -f "$tree.log"; die "debootstrap failed"; }
rm -f "$tree.log"
rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/*
tar -C "$tree" -c . | podman import --quiet - "$image" >/dev/null
echo "build-base.sh: made $image"
