#!/bin/sh
# Install every Debian 12 package rdb needs to build, test and benchmark.
# (chromium and python3: record-check-timeline loads rdb timeline's page headless
# and reads its DOM and screenshot; python3 and patch: project-lua applies
# Debian's patches and types at lua -i on a pseudo terminal.)
# Run as root (or through sudo). Idempotent: when everything is already
# installed it only asks dpkg-query and touches neither the network nor apt.
set -eu

PKGS="build-essential cmake make flex bison pkg-config libelf-dev libdw-dev check
libcapstone-dev libzstd-dev clang valgrind afl++ gdb dpkg-dev binutils git
ca-certificates debian-archive-keyring xz-utils gzip tar findutils diffutils
time tcl musl-tools libclang-rt-14-dev autoconf help2man chromium python3
automake libtool dejagnu patch"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "setup-debian: all packages present"
	exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "setup-debian: need root to install:$missing" >&2
		exit 1
	fi
fi

echo "setup-debian: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086 # word splitting of the list is wanted
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
