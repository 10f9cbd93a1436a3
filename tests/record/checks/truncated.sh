#!/bin/sh
# truncated.sh RDB RDB_CC: record-check-truncated (tests/record/checks/).
. "$(dirname "$0")/lib.sh"
build readfile prog
printf 'abc\n' > input.txt
"$RDB" record -o t -- ./prog input.txt > /dev/null 2>&1 || fail "record"
size=$(wc -c < t/syscalls)
head -c $((size - 5)) t/syscalls > s && mv s t/syscalls
! "$RDB" replay t > r.out 2> r.err || fail "replay of a truncated trace succeeded"
expect r.err "^rdb: t/syscalls: offset [0-9]*: truncated frame"
! "$RDB" info t > i.out 2> i.err || fail "info of a truncated trace succeeded"
expect i.err "t/syscalls: offset [0-9]*: truncated frame"
head -c 11 t/header > h && mv h t/header
! "$RDB" info t > i.out 2> i.err || fail "info with a truncated header"
expect i.err "^rdb: t/header: offset 0: truncated record header\|^rdb: t/header: offset 0: record of"
printf 'garbage' > t/header
! "$RDB" info t > i.out 2> i.err || fail "info with a garbage header"
expect i.err "^rdb: t/header: offset 0"
pass
