#!/bin/sh
# make-corpus.sh BUILD_DIR: build the identity round-trip corpus in
# BUILD_DIR/corpus: musl 1.2.3's C sources compiled to assembly by gcc and
# clang at -O0/-O2/-O3 (with -g, -fPIC and -ffunction-sections toggled per
# file so every combination occurs), musl's hand-written x86-64 assembly, and
# the C programs in tests/programs/ and examples/. Each musl file is compiled
# once, by the compiler and level that rotate over the files (each of the
# six covers a sixth of musl, with every combination of the toggles; all
# six for each file took 17 minutes of a 2-core VM's CI run, one gcc and
# one clang compile each 631 s of a loaded one, half of that now), our
# programs at all six. musl is fetched (once)
# into BUILD_DIR/musl. Outputs are cached: a file is only recompiled when its
# source is newer, and a stamp makes a no-change run return at once.
# Files that fail to compile, or whose assembly GNU as (the assembler rdb
# uses) rejects, are skipped and counted. Uses 2 jobs; set JOBS.
set -eu

die() { echo "make-corpus: $*" >&2; exit 1; }

# Bump when the flags or the file set change: a new version rebuilds all.
version=5

# Worker mode: each argument is "OUT|COMPILER|SRC|FLAGS". Compile to a
# temporary file, check that `as --64` accepts it, and rename, so an
# interrupted run leaves no half files.
if [ "${1:-}" = --worker ]; then
	shift
	failfile=$1
	shift
	for job; do
		out=${job%%|*}; rest=${job#*|}
		cc=${rest%%|*}; rest=${rest#*|}
		src=${rest%%|*}; flags=${rest#*|}
		case $cc in
		copy) cp "$src" "$out.tmp" ;;
		cpp) gcc -E -P -o "$out.tmp" "$src" $flags ;;
		*) # shellcheck disable=SC2086 # flag lists are split on purpose
			$cc -S -w -o "$out.tmp" $flags "$src" ;;
		esac >/dev/null 2>&1 && as --64 -o "$out.o" "$out.tmp" >/dev/null 2>&1 &&
			rm -f "$out.o" && mv "$out.tmp" "$out" ||
			{ rm -f "$out.tmp" "$out.o"; echo "$src $cc${flags%% -std=*}" >> "$failfile"; }
	done
	exit 0
fi

[ $# -eq 1 ] || die "usage: make-corpus.sh BUILD_DIR"
mkdir -p "$1" || die "cannot create $1"
build=$(cd "$1" && pwd)
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$build/corpus
stamp=$corpus/.stamp
jobs=${JOBS:-2}

# Fast path: nothing changed since the last complete run.
if [ "$(cat "$corpus/.version" 2>/dev/null)" != "$version" ]; then
	rm -rf "$corpus"
elif [ -f "$stamp" ] && [ "$stamp" -nt "$self" ]; then
	newer=$(find "$repo/tests/programs" "$repo/examples" -name '*.c' -newer "$stamp" 2>/dev/null | head -n 1)
	if [ -z "$newer" ]; then
		echo "make-corpus: up to date: $(cat "$stamp")"
		exit 0
	fi
fi

command -v gcc >/dev/null || die "gcc not found (run scripts/setup-debian.sh)"
command -v clang >/dev/null || die "clang not found (run scripts/setup-debian.sh)"

"$repo/libc-wrap/fetch-musl.sh" "$build/musl"
src=$build/musl/musl-1.2.3

# musl's generated headers, from its own configure and Makefile rules.
mb=$build/musl-corpus-build
if [ ! -f "$mb/obj/include/bits/syscall.h" ] || [ ! -f "$mb/obj/src/internal/version.h" ]; then
	mkdir -p "$mb"
	(cd "$mb" && "$src/configure" --target=x86_64 CC=gcc >configure.log 2>&1 &&
		make -s obj/include/bits/alltypes.h obj/include/bits/syscall.h \
			obj/src/internal/version.h >make.log 2>&1) ||
		die "musl configure/header generation failed, see $mb/configure.log and $mb/make.log"
fi
musl_cflags="-std=c99 -nostdinc -ffreestanding -D_XOPEN_SOURCE=700 -I$src/arch/x86_64 -I$src/arch/generic -I$mb/obj/src/internal -I$src/src/include -I$src/src/internal -I$mb/obj/include -I$src/include"

configs="gcc-O0 gcc-O2 gcc-O3 clang-O0 clang-O2 clang-O3"
for c in $configs asm; do mkdir -p "$corpus/$c"; done
echo "$version" > "$corpus/.version"
# clang's -S output carries .addrsig directives only its integrated
# assembler knows; GNU as rejects them.
clang_flags=-fno-addrsig
: > "$corpus/failed.txt"

jobfile=$corpus/.jobs
: > "$jobfile"
# add OUT CC SRC FLAGS: queue a job unless OUT is newer than SRC.
add() {
	if [ ! -f "$1" ] || [ "$3" -nt "$1" ]; then
		echo "$1|$2|$3|$4" >> "$jobfile"
	fi
}
# variant N CONFIGNO: set v to the extra flags for the N-th file in a
# config, so -g, -fPIC and -ffunction-sections each cover a different share
# of files. (No subshells in these loops: they run 8,000 times.)
variant() {
	v=
	[ $((($1 + $2) % 2)) -ne 0 ] || v="$v -g"
	[ $((($1 / 2 + $2) % 3)) -ne 0 ] || v="$v -fPIC"
	[ $((($1 + $2) % 5)) -ne 0 ] || v="$v -ffunction-sections -fdata-sections"
}

# musl's C sources: what its Makefile globs (src/*, mallocng, crt, ldso)
# plus the x86_64 C overrides.
cd "$src"
ls src/*/*.c src/malloc/mallocng/*.c crt/*.c ldso/*.c src/*/x86_64/*.c \
	2>/dev/null | sort |
	awk '{ n = $0; sub(/\.c$/, "", n); gsub("/", "_", n); print $0, n }' > "$corpus/.musl-c"
n=0
while read -r f name; do
	k=0
	for c in $configs; do
		cc=${c%-*} opt=-${c#*-}
		[ "$cc" = clang ] && opt="$opt $clang_flags"
		# config n mod 6; the toggles turn with n / 6, so that within
		# a config they take every combination
		if [ $k -eq $((n % 6)) ]; then
			variant $((n / 6)) $k
			add "$corpus/$c/musl_$name.s" "$cc" "$src/$f" "$opt$v $musl_cflags"
		fi
		k=$((k + 1))
	done
	n=$((n + 1))
done < "$corpus/.musl-c"

# musl's hand-written assembly, x86_64 and x32 (64-bit mode too).
for f in src/*/x86_64/*.s crt/x86_64/*.s src/*/x32/*.s crt/x32/*.s \
	src/*/x86_64/*.S crt/x86_64/*.S; do
	[ -f "$f" ] || continue
	name=$(echo "${f%.*}" | tr / _)
	case $f in
	*.S) add "$corpus/asm/musl_$name.s" cpp "$src/$f" "-I$src/arch/x86_64 -I$src/src/internal" ;;
	*) add "$corpus/asm/musl_$name.s" copy "$src/$f" "" ;;
	esac
done

# Our own C programs, with the system headers.
nprog=0
for f in "$repo"/tests/programs/*.c "$repo"/examples/*.c; do
	[ -f "$f" ] || continue
	d=$(basename "$(dirname "$f")")
	name=$(basename "${f%.c}")
	k=0
	for c in $configs; do
		cc=${c%-*} opt=-${c#*-}
		[ "$cc" = clang ] && opt="$opt $clang_flags"
		variant $nprog $k
		add "$corpus/$c/${d}_$name.s" "$cc" "$f" "$opt$v"
		k=$((k + 1))
	done
	nprog=$((nprog + 1))
done

todo=$(wc -l < "$jobfile")
echo "make-corpus: $todo files to compile with $jobs jobs (musl C files: $n, programs: $nprog)"
start=$(date +%s)
if [ "$todo" -gt 0 ]; then
	# Workers append whole short lines to one failure list (O_APPEND).
	xargs -d '\n' -P "$jobs" -n 40 "$self" --worker "$corpus/failed.txt" < "$jobfile" ||
		die "compile workers failed"
fi
failed=$(wc -l < "$corpus/failed.txt")
total=$(find "$corpus" -name '*.s' | wc -l)
summary="$total .s files in $corpus; $failed failed to compile or assemble and were skipped this run (list: $corpus/failed.txt)"
echo "make-corpus: $summary; $(($(date +%s) - start)) s"
echo "$summary" > "$stamp"
