#!/bin/sh
# truss.sh RDB RDB_CC: record-check-truss (tests/record/checks/).
. "$(dirname "$0")/lib.sh"
build readfile prog
printf 'abc\n' > input.txt
"$RDB" record -o t -- ./prog input.txt > /dev/null 2>&1 || fail "record"
"$RDB" truss t > t.out || fail "truss"
expect t.out "^#[0-9]* open(0x[0-9a-f]*, [0-9]*, [0-9]*) = [0-9]*$"
expect t.out "^#[0-9]* read([0-9]*, 0x[0-9a-f]*, [0-9]*) = 4 <1 region written>$"
expect t.out "^#[0-9]* writev(1, 0x[0-9a-f]*, 2) = 7$"
expect t.out "^#[0-9]* close([0-9]*) = 0$"
expect t.out "^+++ exited with 0 +++$"
"$RDB" record -o t2 -- ./prog missing.txt > /dev/null 2>&1
"$RDB" truss t2 > t.out || fail "truss"
expect t.out "= -1 ENOENT (No such file or directory)"
pass
