/* prog.h: helpers shared by the test programs (tests/programs/NAME.c).
 * Each program prints lines that do not depend on time, pids, addresses
 * or the C library's own wording (glibc and musl differ in strerror,
 * %La, qsort's order of equal keys), and ends with "ok NAME", or
 * "FAIL NAME: n checks failed" and exit status 1.  run.sh diffs the
 * output of two builds; issue 4 records and replays them. */
#ifndef PROG_H
#define PROG_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int prog_failures;

/* A failed check prints where it failed (stdout, so a diff shows it). */
#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			printf("check failed: %s:%d: %s\n", __FILE__,        \
			       __LINE__, #cond);                             \
			prog_failures++;                                     \
		}                                                            \
	} while (0)

/* FNV-1a, 64 bits: checksums of buffers. */
static inline uint64_t fnv(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;
	if (!h)
		h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

/* A small deterministic generator (xorshift64*). */
static inline uint64_t rng(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* errno as a name, not strerror's text (which differs between libcs). */
static inline const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EPIPE: return "EPIPE";
	case ESPIPE: return "ESPIPE";
	case ECHILD: return "ECHILD";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case EACCES: return "EACCES";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ERANGE: return "ERANGE";
	case EDOM: return "EDOM";
	case ENOSYS: return "ENOSYS";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return "E?";
	}
}

/* A fresh directory under $TMPDIR (or /tmp); its name is never printed. */
static inline char *prog_tmpdir(char *buf, size_t n, const char *tag)
{
	const char *t = getenv("TMPDIR");
	snprintf(buf, n, "%s/rdbprog-%s-XXXXXX", t && *t ? t : "/tmp", tag);
	if (!mkdtemp(buf)) {
		printf("mkdtemp failed: %s\n", errname(errno));
		exit(2);
	}
	return buf;
}

static inline int prog_done(const char *name)
{
	if (prog_failures) {
		printf("FAIL %s: %d checks failed\n", name, prog_failures);
		return 1;
	}
	printf("ok %s\n", name);
	return 0;
}

#endif
