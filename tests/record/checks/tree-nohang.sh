#!/bin/sh
# tree-nohang.sh RDB RDB_CC: record-check-tree-nohang (tests/record/checks/).
# rdb-cc programs started below a program not built with rdb-cc (here
# sh, issue 22's report): a shell list and a pipeline of three.  Each
# must run and print as it does unrecorded, and rdb record must end, not
# wait on a channel nobody answers (it did: the second program blocked
# reading the HELLO the first had taken).  A hang is a failure after 60 s.
. "$(dirname "$0")/lib.sh"
build tree tree
./tree hi a > /dev/null || fail "tree does not run unrecorded"
printf 'one\ntwo\n' > in.txt
script='./tree hi a; ./tree hi b | cat; ./tree tag A < in.txt | ./tree tag B | ./tree tag C'
sh -c "$script" > native.out 2> native.err || fail "the pipeline fails natively"
timeout -k 5 60 "$RDB" record -o t -- sh -c "$script" > rec.out 2> rec.err
st=$?
[ $st -ne 124 ] && [ $st -ne 137 ] || { cat rec.err; fail "rdb record hung (killed after 60 s)"; }
[ $st -eq 0 ] || { cat rec.err; fail "rdb record exited $st"; }
cmp -s native.out rec.out || { diff native.out rec.out; fail "recorded output differs from the native run's"; }
expect rec.out "^C .* B .* A .* one$"
pass
