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

# What rdb-cc adds to a preprocessor call: its flags and the sysroot's
# headers (RDB_MUSL set by fake_musl) before gcc's own.
sysroot_cpp_flags() {
	echo "$("$here/../../scripts/rdb-cc-flags.sh") -nostdinc -isystem $RDB_MUSL/include -isystem $(gcc -print-file-name=include)"
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
	# -E and -M see the sysroot's headers, as the compile does, so the
	# reference is gcc with the same include folders and flags
	fake_musl
	echo 'int from_sysroot_stdio;' > fake/include/stdio.h
	ref=$(sysroot_cpp_flags)
	printf '#include <stdio.h>\n#define X FOO\nint x = X;\n' > p.c
	for flags in "-E" "-E -DFOO=3" "-M" "-MM" "-E -P -dM"; do
		# shellcheck disable=SC2086
		gcc $flags $ref p.c > gcc.out 2>&1; gst=$?
		# shellcheck disable=SC2086
		"$RDBCC" $flags p.c > rdb.out 2>&1; rst=$?
		[ $rst -eq $gst ] || fail "$flags: status $rst vs $gst"
		cmp -s gcc.out rdb.out || { diff gcc.out rdb.out >&2; fail "$flags: output differs from gcc's with the sysroot's headers"; }
	done
	"$RDBCC" -E -o rdb.i p.c && grep -q from_sysroot_stdio rdb.i ||
		fail "-E -o: stdio.h did not come from the sysroot"
	pass ;;

sysroot-view)
	# what only the host has (glibc's execinfo.h and libanl) is absent
	# for rdb-cc in every mode, so configure scripts find it absent
	need_link
	printf '#include <execinfo.h>\nint main(void){return 0;}\n' > ex.c
	gcc -E ex.c > /dev/null 2>&1 || fail "the host has no execinfo.h: the check below could not fail"
	gcc hello.c -o hello-gcc -lanl 2>/dev/null || fail "the host has no -lanl: the check below could not fail"
	"$RDBCC" -E ex.c > /dev/null 2>&1 && fail "-E found the host's execinfo.h"
	"$RDBCC" -M ex.c > /dev/null 2>&1 && fail "-M found the host's execinfo.h"
	"$RDBCC" -c ex.c 2>/dev/null && fail "-c found the host's execinfo.h"
	"$RDBCC" hello.c -o h1 -lanl 2> err && fail "-lanl linked the host's libanl.a"
	grep -q 'cannot find -lanl' err || fail "-lanl: message: $(cat err)"
	# libelf's host archive links into a musl program when found at all
	printf 'unsigned elf_version(unsigned);\nint main(void){return !elf_version(1);}\n' > el.c
	"$RDBCC" el.c -o h1 -lelf 2> err && fail "-lelf linked the host's libelf.a"
	grep -q 'cannot find -lelf' err || fail "-lelf: message: $(cat err)"
	for lib in /usr/lib/x86_64-linux-gnu/libanl.a /usr/lib/x86_64-linux-gnu/libanl.so; do
		[ -e "$lib" ] || continue
		"$RDBCC" hello.c "$lib" -o h2 2> err && fail "$lib was linked"
		grep -q 'host library\|shared library' err || fail "$lib: message: $(cat err)"
	done
	# what the sysroot and -L folders hold links
	"$RDBCC" hello.c -o h3 -lm -lpthread -l:libc.a && [ "$(./h3)" = hello ] ||
		fail "-lm -lpthread -l:libc.a"
	mkdir -p mine
	"$RDBCC" -c plain.c -o mine/plain.o && ar rc mine/libmine.a mine/plain.o ||
		fail "building libmine.a"
	printf 'int bump(int *, int);\nint main(void){int a[2]={1,2};return bump(a,2)==1?0:1;}\n' > usemine.c
	"$RDBCC" usemine.c -Lmine -lmine -o h4 && ./h4 || fail "-Lmine -lmine"
	# the questions configure, libtool and CMake ask
	sysroot=$("$RDBCC" -print-sysroot)
	[ -f "$sysroot/include/stdio.h" ] || fail "-print-sysroot: $sysroot"
	[ "$("$RDBCC" -print-file-name=libc.a)" = "$sysroot/lib/libc.a" ] ||
		fail "-print-file-name=libc.a: $("$RDBCC" -print-file-name=libc.a)"
	[ "$("$RDBCC" -print-file-name=libanl.a)" = libanl.a ] ||
		fail "-print-file-name=libanl.a: $("$RDBCC" -print-file-name=libanl.a)"
	[ "$("$RDBCC" --print-file-name=libgcc.a)" = "$(gcc -print-file-name=libgcc.a)" ] ||
		fail "--print-file-name=libgcc.a"
	[ "$("$RDBCC" -dumpmachine)" = x86_64-linux-musl ] || fail "-dumpmachine"
	"$RDBCC" -print-search-dirs > dirs || fail "-print-search-dirs"
	grep -q "^libraries: =$sysroot/lib/" dirs || fail "-print-search-dirs: $(cat dirs)"
	grep '^libraries:' dirs | grep -q '/usr/lib/x86_64-linux-gnu\|=/lib\|:/lib' && fail "-print-search-dirs lists the host's folders"
	[ "$("$RDBCC" -dumpversion -dumpmachine | tr '\n' ' ')" = "$(gcc -dumpversion) x86_64-linux-musl " ] ||
		fail "-dumpversion -dumpmachine: $("$RDBCC" -dumpversion -dumpmachine)"
	pass ;;

autoconf)
	# a real configure script: its header checks (compile and preprocessor)
	# and library check say "no" for what only the host has (glibc's
	# execinfo.h; libelf, whose host archive would link into a musl program
	# if rdb-cc let it), and the build goes on without them; the same script
	# under gcc says "yes"
	need_link
	command -v autoconf > /dev/null || skip "autoconf is not installed (scripts/setup-debian.sh installs it)"
	cat > configure.ac <<'AC'
AC_INIT([probe], [1])
AC_PROG_CC
AC_CHECK_HEADERS([execinfo.h stdio.h])
AC_MSG_CHECKING([whether the preprocessor finds execinfo.h])
AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <execinfo.h>]])],
  [AC_MSG_RESULT([yes]); AC_DEFINE([HAVE_EXECINFO_CPP], [1], [cpp])],
  [AC_MSG_RESULT([no])])
AC_CHECK_LIB([elf], [elf_version])
AC_CONFIG_HEADERS([config.h])
AC_OUTPUT
AC
	cat > prog.c <<'PC'
#include "config.h"
#include <stdio.h>
#ifdef HAVE_EXECINFO_H
#include <execinfo.h>
#endif
int main(void) {
#if defined HAVE_EXECINFO_H || defined HAVE_EXECINFO_CPP || defined HAVE_LIBELF
	puts("host features");
#else
	puts("plain");
#endif
	return 0;
}
PC
	{ autoconf && autoheader; } 2> ac.err || fail "autoconf: $(cat ac.err)"
	mkdir g r
	(cd g && ../configure CC=gcc > out 2>&1) || fail "configure with gcc: $(tail g/out)"
	grep -q '^#define HAVE_EXECINFO_H 1' g/config.h && grep -q '^#define HAVE_EXECINFO_CPP 1' g/config.h &&
		grep -q '^#define HAVE_LIBELF 1' g/config.h || fail "gcc's configure did not find the host's features: the check could not fail"
	(cd r && ../configure CC="$RDBCC" > out 2>&1) || fail "configure with rdb-cc: $(tail r/out)"
	for d in HAVE_EXECINFO_H HAVE_EXECINFO_CPP HAVE_LIBELF; do
		grep -q "^#define $d 1" r/config.h && fail "rdb-cc's configure found $d (host only)"
	done
	grep -q '^#define HAVE_STDIO_H 1' r/config.h || fail "rdb-cc's configure did not find stdio.h"
	(cd r && "$RDBCC" -I. ../prog.c $(sed -n 's/^LIBS *= *//p' Makefile 2>/dev/null) -o prog) || fail "building after configure"
	[ "$(r/prog)" = plain ] || fail "the program built with host features: $(r/prog)"
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
	# shellcheck disable=SC2046
	gcc $(sysroot_cpp_flags) @eargs > gcc.out 2>&1
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
	objdump -d h.o | grep -q '(%rdi,%r14,2)' || fail "h.o has no write hook"
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

deb)
	# the Debian package, unpacked into a fresh root, builds, records and
	# replays a program from there, with its man pages
	need_link
	build=$(dirname "$bindir")
	[ -f "$build/CPackConfig.cmake" ] || fail "no CPackConfig.cmake in $build"
	cpack --config "$build/CPackConfig.cmake" -B "$work/cpack" > cpack.log 2>&1 ||
		{ tail -n 20 cpack.log >&2; fail "cpack"; }
	deb=$(ls "$work"/cpack/rdb_*_amd64.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || fail "cpack made no rdb_*_amd64.deb: $(ls "$work/cpack")"
	dpkg-deb -I "$deb" > info || fail "dpkg-deb -I"
	grep -q '^ Depends:.*gcc' info || fail "the package does not depend on gcc: $(cat info)"
	dpkg-deb -x "$deb" root || fail "dpkg-deb -x"
	r=$work/root/usr
	for t in rdb rdb-cc altr rdb-iot rdb-cc-pkg; do
		[ -x "$r/bin/$t" ] || fail "the package has no bin/$t"
		ls "$r/share/man/man1/$t.1"* > /dev/null 2>&1 || fail "no man page for $t"
	done
	man -l "$(ls "$r"/share/man/man1/rdb-cc.1* | head -n 1)" 2>/dev/null | grep -q 'sysroot' ||
		fail "rdb-cc's man page does not carry its --help text"
	[ ! -e "$r/lib/rdb/musl/share/rdb-cc-pkg" ] && [ ! -e "$r/lib/rdb/musl/lib/libz.a" ] ||
		fail "the package carries libraries rdb-cc-pkg added to the build's sysroot"
	(cd / && "$r/bin/rdb-cc" -O2 "$work/hello.c" -o "$work/hi") || fail "the packaged rdb-cc"
	[ "$("$r/bin/rdb-cc" -print-sysroot)" = "$r/lib/rdb/musl" ] || fail "the packaged rdb-cc's sysroot: $("$r/bin/rdb-cc" -print-sysroot)"
	"$r/bin/rdb" record -o tr -- ./hi > rec.out 2>&1 || { cat rec.out >&2; fail "the packaged rdb record"; }
	"$r/bin/rdb" replay --verify tr > rep.out 2>&1 || { cat rep.out >&2; fail "the packaged rdb replay"; }
	grep -q '^hello$' rep.out || fail "the packaged replay printed: $(cat rep.out)"
	"$r/bin/rdb-cc-pkg" list | grep -q '^zlib ' || fail "the packaged rdb-cc-pkg has no recipes"
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
