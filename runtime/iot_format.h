/* iot_format.h: the .rdb_iot section's entry (docs/iot.md), the one
 * definition its three users share: altr emits the entries (altr/emit.c
 * emit_iot), rdb-iot resolves them at link time (driver/iot.c) and the
 * runtime reads them (runtime/iot.c).  Freestanding: <stdint.h> only. */
#ifndef RDB_IOT_FORMAT_H
#define RDB_IOT_FORMAT_H

#include <stdint.h>

/* One 16-byte entry, little-endian: an instrumentation sequence. */
struct rdb_iot_entry {
	int64_t start;   /* altr: target - &entry.start; after rdb-iot: image offset */
	uint32_t len;    /* bytes of the instrumented sequence */
	uint32_t flags;  /* RDB_IOT_FLAGS_DEAD; RDB_IOT_RESOLVED after the pass */
};
#define RDB_IOT_ENTRY_SIZE 16
#define RDB_IOT_RESOLVED 0x80000000u
#define RDB_IOT_FLAGS_DEAD 1u /* altr: no status flag is live in the group */
#define RDB_IOT_SECTION ".rdb_iot"

_Static_assert(sizeof(struct rdb_iot_entry) == RDB_IOT_ENTRY_SIZE, "a .rdb_iot entry");

#endif
