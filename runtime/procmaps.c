/* procmaps.c: the program's mappings in the covered range, read from
 * /proc/self/maps with raw syscalls (the kernel's own list is the one
 * truth; the runtime does not keep a copy that could drift). */
#include "rt.h"

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

static int has_suffix(const char *s, const char *e, const char *want)
{
	size_t n = rdb_strlen(want);
	return (size_t)(e - s) >= n && !rdb_memcmp(e - n, want, n);
}

/* One line: "start-end perms offset dev inode   path". */
static int parse(const char *s, const char *e, struct rdb_tf_map *m)
{
	const char *p = s;
	m->start = hex(&p);
	if (*p++ != '-')
		return 0;
	m->end = hex(&p);
	if (*p++ != ' ' || e - p < 4)
		return 0;
	m->prot = (p[0] == 'r' ? 1u : 0) | (p[1] == 'w' ? 2u : 0) | (p[2] == 'x' ? 4u : 0);
	p += 4;
	int field = 0;
	uint64_t inode = 0;
	while (p < e && field < 4) { /* offset dev inode */
		while (p < e && *p == ' ')
			p++;
		const char *f = p;
		while (p < e && *p != ' ')
			p++;
		if (++field == 3)
			for (const char *q = f; q < p; q++)
				inode = inode * 10 + (uint64_t)(*q - '0');
		if (field == 3)
			break;
	}
	if (m->start < RDB_COVER_LO || m->end > RDB_COVER_HI)
		return 0;
	/* (a file's path may end in "]" too: it has an inode) */
	if (!inode && has_suffix(s, e, "[stack]"))
		m->kind = RDB_TF_MAP_STACK;
	else if (!inode && e > s && e[-1] == ']' && !has_suffix(s, e, "[heap]"))
		m->kind = RDB_TF_MAP_SPECIAL; /* [vdso], [vvar], [vvar_vclock], ... */
	else if (m->start >= RT->start.image_lo && m->end <= RT->start.image_hi)
		m->kind = RDB_TF_MAP_IMAGE;
	else if (m->start >= RDB_BRK_BASE && m->end <= RDB_BRK_BASE + RDB_BRK_SIZE)
		m->kind = RDB_TF_MAP_BRK;
	else if (inode)
		m->kind = RDB_TF_MAP_FILE;
	else
		m->kind = RDB_TF_MAP_ANON;
	return 1;
}

/* RT->procmaps.maps[n], just parsed: the image's .bss and an anonymous mapping
 * the kernel put right after it, merged into one line, become two
 * entries, the image's part and the mapping (restored as anonymous memory
 * by a replay from the middle, where the fresh image has its .bss
 * already: mapping it again failed with EEXIST).  The index of the last
 * entry (the table has room for n + 2). */
static size_t split_bss(size_t n)
{
	struct rdb_tf_map *m = RT->procmaps.maps;
	if (m[n].kind != RDB_TF_MAP_ANON || m[n].start < RT->start.image_lo ||
	    m[n].start >= RT->start.image_hi || m[n].end <= RT->start.image_hi)
		return n;
	m[n + 1] = m[n];
	m[n].end = m[n + 1].start = RT->start.image_hi;
	m[n].kind = RDB_TF_MAP_IMAGE;
	return n + 1;
}

/* A line longer than the buffer (a long file path) keeps its first HEAD
 * bytes (every field before the path) and its last TAIL bytes (parse's
 * suffix checks); the middle of the path is skipped. */
#define HEAD 256
#define TAIL 64

/* /proc/self/maps, also when the program holds every fd its soft limit
 * allows (a program may: the runtime's own fds lie above): the limit is
 * raised by one for the open, if the hard limit lets it, then set back
 * (the fd stays valid). */
static long open_maps(void)
{
	long fd = rdb_sys4(__NR_openat, -100, "/proc/self/maps", RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	uint64_t lim[2], up[2];
	if (fd != -24 /* EMFILE */ ||
	    rdb_sys4(__NR_prlimit64, 0, 7 /* RLIMIT_NOFILE */, 0, lim) < 0 || lim[0] >= lim[1])
		return fd;
	up[0] = lim[0] + 1;
	up[1] = lim[1];
	if (rdb_sys4(__NR_prlimit64, 0, 7, up, 0) < 0)
		return fd;
	fd = rdb_sys4(__NR_openat, -100, "/proc/self/maps", RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	rdb_sys4(__NR_prlimit64, 0, 7, lim, 0);
	return fd;
}

int rdb_procmaps(void)
{
	long fd = open_maps();
	if (fd < 0) {
		rdb_printf("rdb: cannot open /proc/self/maps (error %ld)\n", -fd);
		return 0;
	}
	char *buf = RT->procmaps.mapsbuf; /* not on the (maybe alternate) signal stack */
	const size_t cap_buf = sizeof RT->procmaps.mapsbuf;
	_Static_assert(sizeof RT->procmaps.mapsbuf >= 2 * (HEAD + TAIL), "mapsbuf");
	size_t have = 0, n = 0;
	int ok = 1;
	for (;;) {
		long r = rdb_sys3(__NR_read, fd, buf + have, cap_buf - have);
		if (r == -RDB_EINTR)
			continue;
		if (r < 0) {
			rdb_printf("rdb: cannot read /proc/self/maps (error %ld)\n", -r);
			ok = 0;
			break;
		}
		have += (size_t)r;
		size_t done = 0;
		for (size_t i = 0; i < have && ok; i++)
			if (buf[i] == '\n') {
				if (!rdb_grow(RDB_G_MAPS, (n + 2) * sizeof RT->procmaps.maps[0]))
					ok = 0; /* (the caller says what stops) */
				else if (parse(buf + done, buf + i, &RT->procmaps.maps[n]))
					n = split_bss(n) + 1;
				done = i + 1;
			}
		if (r == 0 || !ok)
			break;
		if (done == 0 && have == cap_buf) {
			/* no end of line in a full buffer: keep the line's head and
			 * its last TAIL bytes so far, read on */
			for (size_t i = 0; i < TAIL; i++)
				buf[HEAD + i] = buf[have - TAIL + i];
			have = HEAD + TAIL;
			continue;
		}
		for (size_t i = done; i < have; i++)
			buf[i - done] = buf[i];
		have -= done;
	}
	rdb_sys1(__NR_close, fd);
	RT->procmaps.nmaps = n;
	return ok && rdb_shared_kinds(); /* MAP_SHARED ones: shared.c */
}

/* Maps come in address order (the kernel's, and so the recording's). */
const struct rdb_tf_map *rdb_map_find(const struct rdb_tf_map *m, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a < m[mid].start)
			hi = mid;
		else if (a >= m[mid].end)
			lo = mid + 1;
		else
			return &m[mid];
	}
	return 0;
}
