# rdb-cc-flags.sh, sourced: RDBCC_FLAGS, the flags rdb-cc adds to every
# compile (driver/rdb-cc.c: reserve_flags, and -fPIE for the static-pie
# link), for scripts that run gcc -S themselves to get the assembly
# rdb-cc would hand altr.  Keep the two lists alike.
RDBCC_FLAGS="-fPIE -ffixed-r12 -ffixed-r13 -ffixed-r14 -ffixed-r15 -mno-red-zone"
