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

/* The entry (struct rdb_iot_entry), its flags and the section's name. */
#include "../runtime/iot_format.h"

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
