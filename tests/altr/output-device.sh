#!/bin/sh
# output-device.sh ALTR RULES: -o naming a fifo (or /dev/null) is written
# in place; the node must still be a fifo afterwards and the reader must get
# the output.  (altr once renamed its temporary file over /dev/null.)
set -eu
altr=$1
rules=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '\t.text\n\tmovq (%%rax), %%rbx\n' > "$work/in.s"
mkfifo "$work/fifo"
cat "$work/fifo" > "$work/got" &
"$altr" -r "$rules" -o "$work/fifo" "$work/in.s"
wait
[ -p "$work/fifo" ] || { echo "FAIL: $work/fifo is no longer a fifo"; exit 1; }
cmp "$work/in.s" "$work/got" || { echo "FAIL: reader got different text"; exit 1; }
echo "ok: output to a fifo written in place"
