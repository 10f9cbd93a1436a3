#!/bin/sh
# lua.sh RDB_CC BUILD_DIR: Lua 5.4 from Debian's lua5.4 source package
# (the orig tarball with Debian's two CVE fixes, patches 0004 and 0005;
# not its libtool build, 0001, nor 0002, whose module paths need a header
# Debian's build makes, nor 0003, for C++), built by Lua's own Makefile
# (`make linux-readline`) with CC=rdb-cc on rdb-cc-pkg's readline and
# ncurses (instrumented; pkg-libs adds them first).  The source package
# has no test suite: its `make test` (lua -v) runs, then luac compiles
# the workload and lua runs the bytecode.  A workload of ours
# (lua-workload.lua: strings, tables, closures, coroutines, gc churn)
# prints what a gcc build of the same sources prints, and is recorded and
# replayed with --verify, whole and from the middle.  Then `lua -i` on a
# pseudo terminal (pty-drive.py): a line typed gets its answer, and the
# up arrow brings it back from readline's history (without readline, lua
# reads the escape sequence as Lua and fails); the same session recorded
# replays with --verify to the same answers.
set -eu
. "$(dirname "$0")/common.sh"
proj_init lua5.4 "$@"
pkg=$(dirname "$CC")/rdb-cc-pkg
proj_run pkg "$pkg" add readline
sysroot=$("$CC" -print-sysroot)
[ -f "$sysroot/include/readline/readline.h" ] || proj_die "readline is not in the sysroot $sysroot"
command -v python3 > /dev/null || proj_die "no python3 (scripts/setup-debian.sh installs it)"
drive=$proj_repo/tests/projects/pty-drive.py
workload=$proj_repo/tests/projects/lua-workload.lua

tarball=$(proj_fetch lua5.4 'lua5.4_*.orig.tar.*')
debian=$(proj_fetch lua5.4 'lua5.4_*.debian.tar.*')
proj_unpack "$tarball" "$work/src"
rm -rf "$work/debian"
mkdir -p "$work/debian"
tar -xf "$debian" -C "$work/debian" || proj_die "cannot unpack $debian"
for p in "$work"/debian/debian/patches/000[45]-*.patch; do
	patch -d "$work/src" -p1 -i "$p" > "$work/patch.log" 2>&1 ||
		proj_die "Debian's patch $(basename "$p") does not apply: $(tail -n 3 "$work/patch.log")"
done
rm -rf "$work/gsrc"
cp -a "$work/src" "$work/gsrc"

# Lua's Makefile: CC replaced (its default is gcc -std=gnu99), readline's
# static archive needs ncurses' tinfo after it (MYLIBS), probe.o linked in
# (MYLDFLAGS), -g added (MYCFLAGS); -O2 and the rest are Lua's own.
cd "$work/src"
proj_run make make -j2 linux-readline CC="$CC -std=gnu99" MYCFLAGS=-g \
	MYLDFLAGS="$probe" MYLIBS=-ltinfo
grep -q 'DLUA_USE_READLINE' "$work/make.log" || proj_die "the build did not define LUA_USE_READLINE"
proj_check_bin "$work/src/src/lua" luaV_execute
proj_check_bin "$work/src/src/lua" rl_insert_text
proj_check_bin "$work/src/src/lua" tgetent
proj_check_bin "$work/src/src/luac" luaY_parser
export RDB_PROBE_LOG="$probe_log"
proj_run test make test
grep -q '^Lua 5\.4\.4 ' "$work/test.log" || proj_die "make test: $(tail -n 3 "$work/test.log")"
./src/luac -o "$work/workload.luac" "$workload" || proj_die "luac cannot compile the workload"
./src/lua "$work/workload.luac" > "$work/luac.out" || proj_die "lua cannot run luac's bytecode"
./src/lua "$workload" > "$work/rdb.out" || proj_die "the workload failed under the rdb-cc build"
unset RDB_PROBE_LOG

cd "$work/gsrc"
proj_run gcc-make make -j2 linux
"$work/gsrc/src/lua" "$workload" > "$work/gcc.out" || proj_die "the workload failed under the gcc build"
[ "$(tail -n 1 "$work/gcc.out")" = end ] || proj_die "the gcc build's workload did not end: $(tail -n 3 "$work/gcc.out")"
cmp -s "$work/gcc.out" "$work/rdb.out" ||
	proj_die "the rdb-cc build printed something else than gcc's (see $work/gcc.out, $work/rdb.out)"
cmp -s "$work/gcc.out" "$work/luac.out" || proj_die "luac's bytecode printed something else (see $work/luac.out)"
proj_note "workload: the rdb-cc build and luac's bytecode print what gcc's prints ($(wc -l < "$work/gcc.out") lines)"

cd "$work"
proj_record_replay lua-workload /dev/null "$work/src/src/lua" "$workload"

# lua -i on a terminal: the banner, a prompt, an answer; the up arrow and
# return run the line again (readline's history); control-D ends it.
# (Each expect looks after the last one's match; readline's bracketed
# paste sequences may stand before a prompt.)
session() {
	log=$1
	shift
	python3 "$drive" "$log" 'expect:> ' 'send:x = 6 * 7\n' 'expect:> ' \
		'send:print(x, "is the answer")\n' 'expect:42\tis the answer\r?\n[^\n]*> ' \
		'send:\e[A\n' 'expect:42\tis the answer\r?\n[^\n]*> ' \
		'send:\x04' -- "$@"
}
session "$work/pty.log" "$work/src/src/lua" -i ||
	proj_die "lua -i on a terminal: $(tail -c 300 "$work/pty.log")"
grep -q 'Lua 5\.4\.4' "$work/pty.log" || proj_die "lua -i printed no banner: $(head -c 300 "$work/pty.log")"
t=$work/rr-pty
rm -rf "$t"
# (the session is mostly waiting for keys: intervals by instructions)
session "$work/pty-rec.log" "$rdb" record --checksum --every-sic 20000 -o "$t" -- "$work/src/src/lua" -i ||
	proj_die "lua -i on a terminal under rdb record: $(tail -c 300 "$work/pty-rec.log")"
"$rdb" replay --verify "$t" < /dev/null > "$t.rep.out" 2> "$t.rep.err" ||
	proj_die "rdb replay --verify of the terminal session failed: $(head -n 3 "$t.rep.err")"
# readline's redisplay of the line the up arrow brought back, then its answer
[ "$(grep -c '> print(x, "is the answer")' "$t.rep.out")" = 2 ] &&
	[ "$(grep -c '42.*is the answer' "$t.rep.out")" = 2 ] ||
	proj_die "the replay of the terminal session did not show the line and its answer twice (see $t.rep.out)"
proj_replay_middle "$t" "$t.rep.out" "the terminal session"
proj_note "lua -i on a pty: readline's history runs the line again; recorded ($n intervals), replayed whole and from $k with --verify"
proj_check_probe 3
echo "PASS lua5.4"
