#!/bin/sh
# check-lib.sh LIBRDB_A: librdb.a defines every symbol it uses (no call can
# reach the program's instrumented libc), and its code needs no absolute
# relocation (R_X86_64_64, GOT) that musl's self-relocation would have to
# apply first: __rdb_start runs before it; and it has no .data or .bss.  The syscall table (pointers in
# .data.rel.ro, used only after start-up) is the one allowed exception.
set -u
lib=$1
fail=0
undef=$(nm -u "$lib" | awk 'NF==2{print $2}' | sort -u)
defined=$(nm --defined-only "$lib" | awk 'NF==3{print $3}' | sort -u)
for s in $undef; do
	# linker-defined bounds of sections (librdb.h RDB_INIT, unhook.c)
	case $s in __start_rdb_init|__stop_rdb_init|__ehdr_start) continue ;;
	__start_rdb_hooks_[rw]|__stop_rdb_hooks_[rw]|__start_rdb_hooks_rc|__stop_rdb_hooks_rc) continue ;;
	# (ran.c: the code-ran bytes and their map, docs/hooks.md)
	__start_rdb_ran|__stop_rdb_ran|__start_rdb_ranmap|__stop_rdb_ranmap) continue ;;
	esac
	if ! echo "$defined" | grep -qx "$s"; then
		echo "FAIL librdb uses $s, defined outside it"; fail=1
	fi
done
bad=$(readelf -rW "$lib" | awk '
	/^File:/ { f = $2 }
	/^Relocation section/ { sec = $3 }
	/R_X86_64_/ && $3 !~ /^R_X86_64_(PC32|PLT32|PC64)$/ && f !~ /rdb_syscalls_gen/ && sec !~ /eh_frame|debug/ { print f, sec, $3, $5 }')
if [ -n "$bad" ]; then
	echo "FAIL relocations that need the image relocated first:"; echo "$bad"; fail=1
fi
# State lives at RDB_STATE_ADDR only (rt.h): a .data or .bss byte of
# librdb is the program's memory, hashed by --verify, and a snapshot child
# that writes it sends its own value as the interval's start value when a
# value range takes in that byte (ranges merge across small gaps).
state=$(readelf -SW "$lib" | sed 's/\[ */[/' | awk '
	/^File:/ { f = $2 }
	$2 ~ /^\.(data|bss)/ && $2 !~ /^\.data\.rel\.ro/ && $6 !~ /^0+$/ { print f, $2, $6 }')
if [ -n "$state" ]; then
	echo "FAIL writable data in librdb (keep state in RT, rt.h):"; echo "$state"; fail=1
fi
[ $fail = 0 ] && echo "ok librdb: self-contained, PC-relative only, no .data/.bss"
exit $fail
