#!/bin/sh
# musl-syscalls.sh MUSL_SRC_DIR: prints musl-syscalls.txt's list for the musl
# source tree given (the names musl can pass to the x86-64 kernel).
set -eu
m=${1:?usage: musl-syscalls.sh MUSL_SRC_DIR}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
sed -n 's/^#define __NR_\([a-z0-9_]*\).*/\1/p' "$m/arch/x86_64/bits/syscall.h.in" | sort -u > "$t/x86"
{
  grep -ohE '\bSYS_[a-z0-9_]+' -r "$m/src" "$m/ldso" "$m/crt" "$m/arch/x86_64" | sed 's/^SYS_//'
  grep -ohE 'socketcall(_cp)?\([a-z0-9_]+' -r "$m/src" | sed -E 's/.*\(//'
} | sort -u > "$t/used"
comm -12 "$t/used" "$t/x86"
