#!/bin/sh
# rdb-cc-flags.sh: prints the flags rdb-cc adds to every compile, for
# scripts that run gcc -S themselves to get the assembly rdb-cc would hand
# altr: -fPIE (for the static-pie link) and the flags that keep the
# compiler off rdb's registers, read from driver/reserve_flags.def, the
# list rdb-cc is built with.  Use: RDBCC_FLAGS=$(sh .../rdb-cc-flags.sh)
set -eu
def=$(cd "$(dirname "$0")/.." && pwd)/driver/reserve_flags.def
flags=$(sed -n 's/^"\(-[^"]*\)",$/\1/p' "$def" | tr '\n' ' ')
[ -n "$flags" ] || { echo "rdb-cc-flags: no flags in $def" >&2; exit 1; }
echo "-fPIE ${flags% }"
