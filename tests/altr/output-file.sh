#!/bin/sh
# output-file.sh ALTR RULES: the file altr writes with -o gets the mode a
# new file gets under the umask (altr writes a temporary file and renames
# it; mkstemp made those 0600), and a large input (mapped, not read:
# altr_map_file) translates as the same text read from stdin, whether it
# ends inside a page or exactly at a page's end.
set -eu
altr=$1
rules=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '\t.text\n\tmovq (%%rax), %%rbx\n' > "$work/in.s"
for m in 022 077 002; do
	rm -f "$work/out.s"
	(umask $m && "$altr" -r "$rules" -o "$work/out.s" "$work/in.s")
	want=$(printf '%o' $((0666 & ~0$m)))
	got=$(stat -c %a "$work/out.s")
	[ "$got" = "$want" ] || fail "umask $m: output mode $got, want $want"
done
echo "ok: output mode follows the umask"

# 1.5 MB of instructions and labels (a file this big is mapped), then one
# padded to a whole number of pages.
awk 'BEGIN { printf "\t.text\n"
	for (i = 0; i < 60000; i++)
		printf ".L%d:\n\tmovq %d(%%rax), %%rbx\n\taddl $1, (%%rcx)\n", i, 8 * i }' > "$work/big.s"
size=$(wc -c < "$work/big.s")
pad=$(( (4096 - size % 4096) % 4096 ))
[ $pad -ge 2 ] || pad=$((pad + 4096))
{ cat "$work/big.s"; printf '#'; head -c $((pad - 2)) /dev/zero | tr '\0' x; printf '\n'; } > "$work/page.s"
[ $(( $(wc -c < "$work/page.s") % 4096 )) -eq 0 ] || fail "page.s is not whole pages"
head -c $((size - 1)) "$work/big.s" > "$work/nonl.s" # no final newline
for f in big page nonl; do
	"$altr" -r "$rules" -o "$work/$f.mapped" "$work/$f.s"
	"$altr" -r "$rules" -o "$work/$f.read" - < "$work/$f.s"
	cmp -s "$work/$f.mapped" "$work/$f.read" || fail "$f.s: mapped and read outputs differ"
	[ -s "$work/$f.mapped" ] || fail "$f.s: empty output"
done
echo "ok: large inputs (mapped) translate as read from stdin"
