/*
 * iot.h: the instrumentation offset table (.rdb_iot, docs/iot.md) and the
 * link-time pass that resolves it.  rdb-iot is a thin command line over
 * these; tests/driver/test_iot.c tests them directly.
 */
#ifndef RDB_IOT_H
#define RDB_IOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One 16-byte entry, little-endian, as altr emits it and the pass leaves it. */
struct rdb_iot_entry {
	int64_t start;   /* before: target - &entry.start; after: image offset */
	uint32_t len;    /* bytes of the instrumented sequence */
	uint32_t flags;  /* RDB_IOT_RESOLVED after the pass; other bits kept */
};
#define RDB_IOT_ENTRY_SIZE 16
#define RDB_IOT_RESOLVED 0x80000000u
#define RDB_IOT_FLAGS_DEAD 1u /* altr: no status flag is live in the group */
#define RDB_IOT_SECTION ".rdb_iot"

/* An executable range of the image, as image offsets [lo, hi). */
struct rdb_iot_range {
	uint64_t lo, hi;
};

struct rdb_iot_table {
	char *path;
	struct rdb_iot_entry *e;
	size_t n;
	uint64_t vaddr;          /* of the section */
	uint64_t file_off;       /* of the section in the file */
	uint64_t base;           /* image base: lowest PT_LOAD page */
	struct rdb_iot_range *exec;
	size_t nexec;
	bool present;            /* the file has a .rdb_iot section */
	bool resolved;           /* every entry has RDB_IOT_RESOLVED */
};

/* Error text is written to err (at most errlen bytes, "FILE: message"). */
int rdb_iot_load(const char *path, struct rdb_iot_table *t, char *err, size_t errlen);
/* Converts to image offsets (unless already resolved), sorts, checks that
 * each entry lies in an executable range and none overlap, and marks each
 * resolved.  Pure: touches only t. */
int rdb_iot_resolve(struct rdb_iot_table *t, char *err, size_t errlen);
/* Writes t's entries back over the section, in place. */
int rdb_iot_store(const struct rdb_iot_table *t, char *err, size_t errlen);
void rdb_iot_free(struct rdb_iot_table *t);

#endif
