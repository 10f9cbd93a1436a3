#!/bin/sh
# driver-test.sh RDB_CC CASE: one test of rdb-cc, run in a private mktemp
# directory (kept, and named, when the test fails).  Exit 0 pass, 1 fail,
# 77 skipped (what the case needs is not built yet: the instrumented musl
# via 'cmake --build BUILD --target musl', librdb, crt).
#
# Cases that only compile use a stand-in musl (RDB_MUSL=a directory with
# an include/ of empty headers) so they run before musl is built; cases
# that link and run need the real thing.
set -u

[ $# -eq 2 ] || { echo "usage: driver-test.sh RDB_CC CASE" >&2; exit 2; }
RDBCC=$1
case=$2
here=$(cd "$(dirname "$0")" && pwd)
bindir=$(cd "$(dirname "$RDBCC")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rdb-cc-test.XXXXXX")
unset RDB_CC RDB_CC_ACTIVE RDB_CC_LIBC_BUILD RDB_MUSL RDB_CC_KEEP
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$work"; else echo "work folder kept: $work" >&2; fi' EXIT
cd "$work"

fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
# with RDB_TEST_NO_SKIP=1 (scripts/test.sh, which installs and builds all
# a case needs first) a skip is a failure
skip() {
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && fail "$* (RDB_TEST_NO_SKIP=1: no skipping)"
	echo "SKIP ($case): $*" >&2; status=77; exit 77
}
pass() { status=0; exit 0; }

# A stand-in sysroot for compile-only cases.
fake_musl() {
	mkdir -p fake/include fake/lib
	: > fake/include/stdio.h
	RDB_MUSL=$work/fake
	export RDB_MUSL
}

# Skip unless everything a link needs is there.
need_link() {
	out=$("$RDBCC" --version 2>&1 | sed -n 's/^libc: //p')
	case $out in *"(not built)"*) skip "instrumented musl not built ($out)";; esac
	printf 'int main(void){return 0;}\n' > probe.c
	if ! "$RDBCC" probe.c -o probe 2>probe.err; then
		grep -q "not found at\|not built" probe.err && skip "$(cat probe.err)"
		cat probe.err >&2
		fail "linking a trivial program failed"
	fi
}

cat > hello.c <<'EOF'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
EOF
cat > plain.c <<'EOF'
int counter;
int bump(int *p, int n) { for (int i = 0; i < n; i++) p[i] += counter++; return p[0]; }
EOF

case $case in
version)
	"$RDBCC" --version > out 2>&1 || fail "--version failed"
	grep -q '^rdb-cc .*(rdb)' out || fail "--version does not say rdb-cc: $(cat out)"
	grep -q '^gcc' out || fail "--version does not show gcc's version"
	"$RDBCC" -v > out 2>&1 || fail "-v failed"
	grep -q '^rdb-cc' out && grep -q 'gcc version' out || fail "-v: $(cat out)"
	"$RDBCC" --help | grep -q 'usage: rdb-cc' || fail "--help"
	pass ;;

syntax-error)
	fake_musl
	printf 'int f(void) { return 1 }\n' > bad.c
	gcc -c bad.c > gcc.out 2> gcc.err; gst=$?
	"$RDBCC" -c bad.c > rdb.out 2> rdb.err; rst=$?
	[ $gst -ne 0 ] || fail "gcc accepted bad.c"
	[ $rst -eq $gst ] || fail "exit status $rst, gcc's is $gst"
	cmp -s gcc.err rdb.err || { diff gcc.err rdb.err >&2; fail "messages differ from gcc's"; }
	cmp -s gcc.out rdb.out || fail "stdout differs"
	[ ! -e bad.o ] || fail "bad.o was made"
	pass ;;

preprocess)
	printf '#include <stdio.h>\n#define X FOO\nint x = X;\n' > p.c
	for flags in "-E" "-E -DFOO=3" "-M" "-MM" "-E -P -dM"; do
		# shellcheck disable=SC2086
		gcc $flags p.c > gcc.out 2>&1; gst=$?
		# shellcheck disable=SC2086
		"$RDBCC" $flags p.c > rdb.out 2>&1; rst=$?
		[ $rst -eq $gst ] || fail "$flags: status $rst vs $gst"
		cmp -s gcc.out rdb.out || fail "$flags: output differs from gcc's"
	done
	gcc -E -o gcc.i p.c && "$RDBCC" -E -o rdb.i p.c && cmp -s gcc.i rdb.i ||
		fail "-E -o differs"
	pass ;;

dry-run)
	fake_musl
	"$RDBCC" -### -O2 -c plain.c > out 2>&1 || fail "-### failed: $(cat out)"
	grep -q '"-ffixed-r15"' out || fail "no -ffixed-r15 in: $(cat out)"
	grep -q '"-mno-red-zone"' out || fail "no -mno-red-zone"
	# what scripts/rdb-cc-flags.sh prints for scripts is what rdb-cc adds
	flags=$(sh "$here/../../scripts/rdb-cc-flags.sh") || fail "rdb-cc-flags.sh failed"
	for f in $flags; do
		grep -q "\"$f\"" out || fail "no $f (scripts/rdb-cc-flags.sh) in: $(cat out)"
	done
	grep -q 'altr" "-r" ".*trace.rules"' out || fail "no altr step with trace.rules"
	grep -q '"-c" "-x" "assembler"' out || fail "no assemble step"
	[ ! -e plain.o ] || fail "-### made plain.o"
	"$RDBCC" -### plain.c -o prog > out 2>&1
	grep -q '"-static-pie"' out || fail "link is not static-pie: $(cat out)"
	grep -q 'rdb-iot" "prog"' out || fail "no rdb-iot step"
	pass ;;

shared-refused)
	fake_musl
	"$RDBCC" -shared -fPIC plain.c -o libx.so > out 2>&1 && fail "-shared accepted"
	grep -q 'rdb-cc: -shared is not supported' out || fail "message: $(cat out)"
	[ ! -e libx.so ] || fail "libx.so made"
	"$RDBCC" -m32 -c plain.c > out 2>&1 && fail "-m32 accepted"
	pass ;;

atfile)
	fake_musl
	printf -- '-DVAL=7 "-DSTR=\\"a b\\""\n-c plain.c\n-o at.o\n' > args
	"$RDBCC" @args || fail "@file compile failed"
	[ -s at.o ] || fail "no at.o"
	printf '#include <stdio.h>\nint v = VAL; const char *s = STR;\n' > q.c
	printf -- '-E -DVAL=7 "-DSTR=\\"a b\\"" q.c\n' > eargs
	gcc @eargs > gcc.out 2>&1
	"$RDBCC" @eargs > rdb.out 2>&1
	cmp -s gcc.out rdb.out || fail "-E through @file differs from gcc"
	printf -- '-O2 @args\n' > nested
	rm -f at.o
	"$RDBCC" @nested && [ -s at.o ] || fail "nested @file"
	pass ;;

compile)
	fake_musl
	"$RDBCC" -O2 -c plain.c || fail "-c failed"
	objdump -h plain.o | grep -q '\.rdb_iot' || fail "plain.o has no .rdb_iot"
	objdump -d plain.o | grep -q 'r15' || fail "plain.o has no SIC increments"
	"$RDBCC" -O2 -S plain.c -o plain.s || fail "-S failed"
	grep -q 'lea 1(%r15), %r15' plain.s || fail "-S output is not instrumented"
	mkdir -p sub
	"$RDBCC" -MD -c plain.c -o sub/x.o || fail "-MD -c failed"
	head -n 1 sub/x.d | grep -q '^sub/x.o: plain.c' || fail "dependency file: $(cat sub/x.d)"
	"$RDBCC" -MMD -MF deps.d -MT mytarget -c plain.c || fail "-MF/-MT"
	grep -q '^mytarget: plain.c' deps.d || fail "-MF/-MT: $(cat deps.d)"
	# an assembly input is instrumented too; a .S is preprocessed first
	printf '\t.text\n\t.globl g\ng:\n\tmov (%%rdi), %%eax\n\tret\n' > g.s
	printf '#define REG %%rdi\n\t.text\n\t.globl h\nh:\n\tmovl $1, (REG)\n\tret\n' > h.S
	"$RDBCC" -c g.s h.S || fail "-c g.s h.S failed"
	objdump -d g.o | grep -q '(%rdi,%r14' || fail "g.o has no read hook"
	objdump -d h.o | grep -q '%gs:' || fail "h.o has no write hook"
	pass ;;

loop-check)
	RDB_CC_ACTIVE=1 "$RDBCC" -c plain.c > out 2>&1 && fail "ran with RDB_CC_ACTIVE set"
	grep -q 'calling itself' out || fail "message: $(cat out)"
	pass ;;

clang)
	command -v clang >/dev/null || skip "no clang"
	fake_musl
	if RDB_CC=clang "$RDBCC" -c plain.c > out 2>&1; then
		objdump -d plain.o | grep -q '\.rdb_iot\|r15' || fail "clang build not instrumented"
	else
		grep -q 'cannot reserve %r12-%r15' out || fail "message: $(cat out)"
	fi
	pass ;;

missing-musl)
	RDB_MUSL=$work/nowhere "$RDBCC" -c plain.c > out 2>&1 && fail "compiled without musl"
	grep -q 'instrumented musl is not built' out || fail "message: $(cat out)"
	grep -q -- '--target musl' out || fail "message does not say how: $(cat out)"
	pass ;;

hello)
	need_link
	"$RDBCC" -O2 hello.c -o hello || fail "rdb-cc hello.c failed"
	[ "$(./hello)" = hello ] || fail "./hello printed '$(./hello 2>&1)'"
	"$bindir/rdb-iot" --dump hello | head -n 1 | grep -q ', resolved,' ||
		fail "hello's .rdb_iot is not resolved: $("$bindir/rdb-iot" --dump hello | head -n 1)"
	(cd / && "$RDBCC" "$work/hello.c" -o "$work/hello2") || fail "from another directory"
	[ "$(./hello2)" = hello ] || fail "hello2"
	pass ;;

mixed)
	need_link
	printf 'int twice(int x) { return 2 * x; }\n' > two.c
	"$RDBCC" -c two.c || fail "two.c"
	printf '\t.text\n\t.globl three\nthree:\n\tlea (%%rdi,%%rdi,2), %%eax\n\tret\n' > three.s
	cat > main.c <<'EOF'
#include <stdio.h>
int twice(int), three(int);
int main(void) { printf("%d %d\n", twice(5), three(5)); return 0; }
EOF
	"$RDBCC" main.c three.s two.o -o mixed || fail "link of .c .s .o"
	[ "$(./mixed)" = "10 15" ] || fail "./mixed printed '$(./mixed)'"
	ar rc libtwo.a two.o
	"$RDBCC" main.c three.s -L. -ltwo -lm -o mixed2 || fail "link with -L. -ltwo -lm"
	[ "$(./mixed2)" = "10 15" ] || fail "./mixed2"
	pass ;;

tls-extern)
	# a __thread variable of another file: initial-exec accesses
	# (x@gottpoff); a hook's lea of that operand did not link
	need_link
	printf '__thread int tv = 7;\n' > tlsdef.c
	printf 'extern __thread int tv;\nint printf(const char *, ...);\nint main(void) { tv += 3; printf("%%d\\n", tv); return 0; }\n' > tlsuse.c
	for o in -O0 -O2; do
		"$RDBCC" $o tlsuse.c tlsdef.c -o tls || fail "link with $o"
		[ "$(./tls)" = 10 ] || fail "./tls ($o) printed '$(./tls)'"
	done
	pass ;;

make)
	need_link
	mkdir proj && cd proj || fail "mkdir"
	for i in 1 2 3 4 5 6; do
		printf 'int f%d(int x) { return x + %d; }\n' $i $i > f$i.c
	done
	cat > main.c <<'EOF'
#include <stdio.h>
int f1(int), f2(int), f3(int), f4(int), f5(int), f6(int);
int main(void) { printf("%d\n", f1(f2(f3(f4(f5(f6(0))))))); return 0; }
EOF
	cat > Makefile <<'EOF'
OBJS = main.o f1.o f2.o f3.o f4.o f5.o f6.o
prog: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS)
%.o: %.c
	$(CC) $(CFLAGS) -MMD -c -o $@ $<
-include $(OBJS:.o=.d)
EOF
	make -j2 CC="$RDBCC" CFLAGS=-O2 > make.log 2>&1 || { cat make.log >&2; fail "make -j2"; }
	[ "$(./prog)" = 21 ] || fail "./prog printed '$(./prog)'"
	[ -f f3.d ] || fail "no f3.d"
	make -q CC="$RDBCC" CFLAGS=-O2 prog || fail "not up to date after build"
	pass ;;

redzone)
	# Hand-written assembly keeping a value in the red zone across hooks
	# that push (flags live) and call (a 16-byte store's helper).
	need_link
	cat > rz.s <<'EOF'
	.text
	.globl rz
	.type rz, @function
rz:
	movq $12345, -8(%rsp)
	cmpq $0, %rdi
	movq %rdi, 16(%rdi)
	movdqu %xmm0, 32(%rdi)
	je 1f
	movq -8(%rsp), %rax
	ret
1:	xorl %eax, %eax
	ret
	.size rz, .-rz
	.section .note.GNU-stack,"",@progbits
EOF
	cat > rzmain.c <<'EOF'
#include <stdio.h>
long rz(long *p);
long buf[16];
int main(void) { printf("%ld\n", rz(buf)); return 0; }
EOF
	"$RDBCC" -O2 rzmain.c rz.s -o rz > build.log 2>&1 || { cat build.log >&2; fail "build"; }
	[ "$(./rz)" = 12345 ] || fail "red zone value lost: ./rz printed '$(./rz)'"
	pass ;;

setjmp)
	need_link
	cat > sj.c <<'EOF'
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
static unsigned long sic(void) { unsigned long v; __asm__ volatile("mov %%r15, %0" : "=r"(v)); return v; }
static void deep(int n) { if (n) deep(n - 1); else longjmp(env, 7); }
int main(void)
{
	volatile int round = 0;
	volatile unsigned long before = 0;
	int v = setjmp(env);
	if (v) {
		unsigned long after = sic();
		/* longjmp must not roll the SIC back to setjmp's value */
		printf("back %d %s\n", v, after > before ? "sic-forward" : "sic-rolled-back");
	}
	if (round++ < 3) {
		before = sic();
		deep(10);
	}
	return 0;
}
EOF
	"$RDBCC" -O1 sj.c -o sj || fail "build"
	./sj > out || fail "./sj exited $?"
	[ "$(cat out)" = "$(printf 'back 7 sic-forward\nback 7 sic-forward\nback 7 sic-forward')" ] ||
		fail "./sj printed: $(cat out)"
	pass ;;

install)
	need_link
	build=$(dirname "$bindir")
	cmake --install "$build" --prefix "$work/prefix" > install.log 2>&1 ||
		{ cat install.log >&2; fail "cmake --install"; }
	"$work/prefix/bin/rdb-cc" --version | grep -q "rules: $work/prefix/share/rdb/rules/trace.rules" ||
		fail "installed rdb-cc does not use the installed rules: $("$work/prefix/bin/rdb-cc" --version)"
	(cd / && "$work/prefix/bin/rdb-cc" -O2 "$work/hello.c" -o "$work/hi") || fail "installed rdb-cc"
	[ "$(./hi)" = hello ] || fail "./hi"
	# the installed rdb records and debugs the replay with gdb on its own
	# (no library of rdb's in gdb: rdb is its target)
	echo continue > c.gdb
	"$work/prefix/bin/rdb" record --gdb-batch c.gdb -o t -- ./hi > gdb.out 2>&1 ||
		{ cat gdb.out >&2; fail "installed rdb record --gdb"; }
	[ "$(grep -c "^hello$" gdb.out)" = 2 ] ||
		{ cat gdb.out >&2; fail "installed rdb record --gdb: not hello recorded and replayed"; }
	pass ;;

iot-cli)
	iot=$bindir/rdb-iot
	"$iot" --help | grep -q 'usage: rdb-iot' || fail "--help"
	echo text > notelf
	"$iot" notelf > out 2>&1 && fail "accepted a text file"
	[ "$(cat out)" = "rdb-iot:notelf: not an ELF file" ] || fail "message: $(cat out)"
	printf 'int main(void){return 0;}\n' > m.c
	gcc m.c -o plainexe || fail "gcc"
	"$iot" plainexe || fail "an executable without .rdb_iot is not an error"
	"$iot" --dump plainexe | grep -q 'no .rdb_iot section' || fail "--dump without section"
	pass ;;

*)
	echo "driver-test.sh: unknown case $case" >&2
	exit 2 ;;
esac
