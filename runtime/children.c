/* children.c: the program's own fork children while recording.  The paper
 * traces the parent only; so do we, but what a descendant writes to the
 * recording's stdout or stderr is part of the run's output, and replay has
 * no child to write it again.  So a descendant (mode 0, kid set) sends a
 * CHILD_OUTPUT record on the channel after each such write, and replay
 * writes it where it comes among the recorded process's records.
 *
 * Rules: in a fork child the channel moves to RDB_KID_FD; every process
 * that writes records (the recorded one too, from its first fork on)
 * holds a lock while it writes, so records never interleave (a stream
 * socket splits big writes).  The lock is a word in the memfd at
 * RDB_KID_LOCK_FD, which they all map: the holder's pid, taken with a
 * compare-and-swap (no syscall unless contended: a fcntl lock added a
 * syscall to each of the recorded process's, docs/perf.md), freed by
 * whoever finds the holder dead.  A descendant's records go out right after its
 * write returns and the recorded process sends each syscall's records
 * before its next syscall, so the stream order is the order of causally
 * related writes (waitpid, pipes).  A program exec'd by a descendant keeps
 * the two fds only if it was built with rdb-cc (an .rdb_iot section):
 * then its runtime starts as a descendant too. */
#include "rt.h"

#define LOCK_MAP 0x500380000000ull /* the memfd's page, in every sender */
#define LOCK_WORD ((uint32_t *)(LOCK_MAP + 64)) /* after the rdb_tf_kidinfo */
#define WAITING 0x80000000u /* someone sleeps on the word */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
/* The words of x86-64's struct stat (fstat fills a uint64_t[18]) we read. */
enum { ST_DEV = 0, ST_INO = 1 };

/* ---- the lock ----------------------------------------------------------- */

static int map_lock(void)
{
	long r = rdb_sys6(__NR_mmap, (long)LOCK_MAP, 4096, RDB_PROT_RW,
	                  RDB_MAP_SHARED | RDB_MAP_FIXED_NOREPLACE, RDB_KID_LOCK_FD, 0);
	return r == (long)LOCK_MAP;
}

/* Whether pid still runs (not gone, not a zombie that a blocked parent
 * may never reap). */
static int alive(uint32_t pid)
{
	char path[32], st[128];
	rdb_snprintf(path, sizeof path, "/proc/%u/stat", pid);
	long fd = rdb_sys4(__NR_openat, -100, (long)path, RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (fd < 0)
		return fd != -RDB_ENOENT;
	long n = rdb_sys3(__NR_read, fd, (long)st, sizeof st);
	rdb_sys1(__NR_close, fd);
	long i = n - 1;
	while (i > 0 && st[i] != ')') /* "pid (comm) S ...": comm may hold ')' */
		i--;
	return !(i > 0 && i + 2 < n && (st[i + 2] == 'Z' || st[i + 2] == 'X'));
}

static void lock_word(void)
{
	uint32_t me = RT->children.kid_pid, cur = 0;
	uint32_t *w = LOCK_WORD;
	if (__atomic_compare_exchange_n(w, &cur, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	for (;;) {
		/* contended: take it marked (others may sleep), or sleep on it */
		cur = 0;
		if (__atomic_compare_exchange_n(w, &cur, me | WAITING, 0, __ATOMIC_ACQUIRE,
		                                __ATOMIC_RELAXED))
			return;
		if (!(cur & WAITING) &&
		    !__atomic_compare_exchange_n(w, &cur, cur | WAITING, 0, __ATOMIC_RELAXED,
		                                 __ATOMIC_RELAXED))
			continue;
		uint64_t ts[2] = {0, 20000000}; /* 20 ms, then see if the holder lives */
		long r = rdb_sys6(__NR_futex, (long)w, FUTEX_WAIT, cur | WAITING, (long)ts, 0, 0);
		uint32_t owner = cur & ~WAITING;
		if (r == -110 /* ETIMEDOUT */ && owner && !alive(owner)) { /* died holding it */
			cur |= WAITING;
			__atomic_compare_exchange_n(w, &cur, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		}
	}
}

static void unlock_word(void)
{
	if (__atomic_exchange_n(LOCK_WORD, 0, __ATOMIC_RELEASE) & WAITING)
		rdb_sys6(__NR_futex, (long)LOCK_WORD, FUTEX_WAKE, 1 << 30, 0, 0, 0);
}

void rdb_kids_lock(void)
{
	if (RT->children.kid_locking && RT->children.kid_depth++ == 0)
		lock_word();
}

void rdb_kids_unlock(void)
{
	if (RT->children.kid_locking && --RT->children.kid_depth == 0)
		unlock_word();
}

/* ---- start -------------------------------------------------------------- */

static void std_ids(void)
{
	for (int i = 0; i < 2; i++) {
		uint64_t st[18];
		RT->children.kid_std_ok[i] = rdb_sys2(__NR_fstat, i + 1, st) == 0;
		RT->children.kid_std[i].dev = RT->children.kid_std_ok[i] ? st[ST_DEV] : 0;
		RT->children.kid_std[i].ino = RT->children.kid_std_ok[i] ? st[ST_INO] : 0;
	}
}

/* RLIMIT_NOFILE's soft limit, raised while the runtime makes the fork
 * children's fds: a program may set it below them, or hold every fd it
 * allows.  To past RDB_KID_LOCK_FD and one past the program's, as far as
 * the hard limit lets it; old gets the limits to set back.  0: no room
 * for RDB_KID_LOCK_FD under the hard limit. */
static int fd_room(uint64_t old[2])
{
	if (rdb_sys4(__NR_prlimit64, 0, 7 /* RLIMIT_NOFILE */, 0, old) < 0)
		return 0;
	uint64_t up[2] = {old[0] < old[1] ? old[0] + 1 : old[1], old[1]};
	if (up[0] <= RDB_KID_LOCK_FD)
		up[0] = RDB_KID_LOCK_FD + 1 < old[1] ? RDB_KID_LOCK_FD + 1 : old[1];
	if (up[0] <= RDB_KID_LOCK_FD)
		return 0;
	rdb_sys4(__NR_prlimit64, 0, 7, up, 0);
	return 1;
}

/* The recorded process forks for the first time: make the lock (its
 * memfd says what stdout and stderr are) and use it from now on.  If the
 * children's fds cannot be had (RLIMIT_NOFILE's hard limit), their output
 * could not be recorded: the recording stops here. */
void rdb_kids_prefork(void)
{
	rdb_shared_prefork();
	if (RT->children.kid_locking)
		return;
	uint64_t lim[2];
	if (!fd_room(lim)) {
		rdb_record_limit("RLIMIT_NOFILE's hard limit leaves no room for fds 1002-1003, "
		                 "which recording a fork child's output needs");
		return;
	}
	long fd = rdb_sys2(__NR_memfd_create, (long)"rdb-kids", 1 /* MFD_CLOEXEC */);
	if (fd >= 0 && fd != RDB_KID_LOCK_FD) {
		long r = rdb_sys3(__NR_dup3, fd, RDB_KID_LOCK_FD, RDB_O_CLOEXEC);
		rdb_sys1(__NR_close, fd);
		fd = r;
	}
	rdb_sys4(__NR_prlimit64, 0, 7, lim, 0);
	if (fd < 0)
		return; /* the children stay silent, as before */
	if (rdb_sys2(__NR_ftruncate, RDB_KID_LOCK_FD, 4096) < 0 || !map_lock()) {
		rdb_sys1(__NR_close, RDB_KID_LOCK_FD);
		return;
	}
	std_ids();
	struct rdb_tf_kidinfo k;
	rdb_memset(&k, 0, sizeof k);
	k.magic = RDB_TF_KID_MAGIC;
	for (int i = 0; i < 2; i++)
		if (RT->children.kid_std_ok[i])
			k.std[i].dev = RT->children.kid_std[i].dev, k.std[i].ino = RT->children.kid_std[i].ino;
	rdb_sys4(__NR_pwrite64, RDB_KID_LOCK_FD, (long)&k, sizeof k, 0);
	RT->children.kid_pid = (uint32_t)rdb_sys0(__NR_getpid);
	RT->children.kid_locking = 1;
}

/* In the new child of the recorded process (its own copy of our state).
 * A descendant that records itself (join.c) passes on the channel to the
 * recording it descends from, as a descendant that does not would. */
void rdb_kids_child_start(void)
{
	int inherited = RT->children.kid;
	RT->mode = 0;
	RT->chan.sn = 0;
	RT->intervals.snap_ok = 0;
	RT->shared.shared_forked = RT->shared.nshared; /* (back if it joins: shared.c) */
	RT->shared.nshared = 0;
	RT->children.kid_depth = 0;
	RT->children.kid_pid = (uint32_t)rdb_sys0(__NR_getpid);
	if (!inherited) {
		uint64_t lim[2];
		int room = RT->children.kid_locking && fd_room(lim);
		RT->children.kid = room && rdb_sys3(__NR_dup3, RDB_CHAN_FD, RDB_KID_FD,
		                                     RDB_O_CLOEXEC) == RDB_KID_FD;
		if (room)
			rdb_sys4(__NR_prlimit64, 0, 7, lim, 0);
		RT->children.kid_locking = RT->children.kid;
	}
	rdb_sys1(__NR_close, RDB_CHAN_FD);
	rdb_sys1(__NR_close, RDB_VALUES_FD);
	if (!RT->children.kid)
		rdb_sys1(__NR_close, RDB_KID_LOCK_FD);
}

/* Start-up without a channel (runs before musl's self-relocation: no
 * pointers in data): exec'd by a descendant, we are one too. */
void rdb_kids_exec_start(void)
{
	struct rdb_tf_kidinfo k;
	if (rdb_sys2(__NR_fcntl, RDB_KID_FD, RDB_F_GETFD) < 0 ||
	    rdb_sys4(__NR_pread64, RDB_KID_LOCK_FD, (long)&k, sizeof k, 0) != sizeof k ||
	    k.magic != RDB_TF_KID_MAGIC)
		return;
	if (!map_lock())
		return;
	rdb_sys3(__NR_fcntl, RDB_KID_FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
	rdb_sys3(__NR_fcntl, RDB_KID_LOCK_FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
	for (int i = 0; i < 2; i++) {
		RT->children.kid_std[i].dev = k.std[i].dev;
		RT->children.kid_std[i].ino = k.std[i].ino;
		RT->children.kid_std_ok[i] = k.std[i].dev || k.std[i].ino;
	}
	RT->children.kid_pid = (uint32_t)rdb_sys0(__NR_getpid);
	RT->children.kid = RT->children.kid_locking = 1;
}

/* ---- a descendant's syscalls --------------------------------------------- */

/* syscalls.spec NEWFD: dup2, dup3, fcntl(F_DUPFD*). */
long rdb_kids_wanted(long nr, const long a[6])
{
	long v[4];
	long fd = rdb_systab_fact(RDB_FACT_NEWFD, nr, a, 0, v) ? v[0] : -1;
	return (unsigned long)fd - RDB_CHAN_FD <= RDB_KID_LOCK_FD - RDB_CHAN_FD ? fd : -1;
}

int rdb_kids_hidden(long nr, const long a[6])
{
	for (long fd = RDB_CHAN_FD; fd <= RDB_KID_LOCK_FD; fd++)
		if (rdb_systab_uses_fd(nr, a, fd))
			return 1;
	return 0;
}

/* Whether the file at path is an ELF built with rdb-cc (an .rdb_iot
 * section): its runtime will take the fds over. */
static int is_rdb_elf(const char *path)
{
	long fd = rdb_sys4(__NR_openat, -100, (long)path, RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	uint64_t addr, size;
	int found = rdb_elf_iot_section((int)fd, &addr, &size);
	rdb_sys1(__NR_close, fd);
	return found;
}

/* Which of the recording's streams fd writes to (1, 2), or 0. */
static int std_stream(long fd)
{
	uint64_t st[18];
	if (rdb_sys2(__NR_fstat, fd, st) < 0)
		return 0;
	int out = RT->children.kid_std_ok[0] && st[ST_DEV] == RT->children.kid_std[0].dev &&
	          st[ST_INO] == RT->children.kid_std[0].ino;
	int err = RT->children.kid_std_ok[1] && st[ST_DEV] == RT->children.kid_std[1].dev &&
	          st[ST_INO] == RT->children.kid_std[1].ino;
	if (out && err)
		return (int)fd;
	return out ? 1 : err ? 2 : 0;
}

static int send_all(const void *p, size_t n) { return rdb_send_all(RDB_KID_FD, p, n) < 0 ? -1 : 0; }

/* Records of at most 16 KiB, each one sendto of a whole record: the
 * kernel queues that as one piece or not at all, so a child killed while
 * it sends leaves no half record in the stream. */
#define PIECE (16u << 10)
static int send_piece(int stream, const char *p, size_t n)
{
	struct {
		struct rdb_tf_rec h;
		struct rdb_tf_child_output c;
	} m = {{RDB_TF_CHILD_OUTPUT, 0}, {(int32_t)RT->children.kid_pid, stream}};
	char *buf = (char *)RT->shared.shared_buf; /* unused in a child (shared.c) */
	_Static_assert(RDB_SHARED_BUF >= PIECE, "piece buffer");
	while (n) {
		size_t k = n < PIECE - sizeof m ? n : PIECE - sizeof m;
		m.h.len = (uint32_t)(sizeof m.c + k);
		rdb_memcpy(buf, &m, sizeof m);
		rdb_memcpy(buf + sizeof m, p, k);
		if (send_all(buf, sizeof m + k))
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

/* The r bytes a successful write to fd 1 or 2 wrote, if they went to the
 * recording's stdout or stderr: one or more records, under the lock. */
void rdb_kids_capture(long nr, const long *a, long r)
{
	int stream = std_stream(a[0]);
	if (!stream)
		return;
	uint64_t old = rdb_block_all();
	rdb_kids_lock();
	int bad = 0;
	long v[4] = {RDB_SHAPE_IOVEC, 0, 0, 0}; /* syscalls.spec SENDS: a buffer, or iovecs */
	rdb_systab_fact(RDB_FACT_SENDS, nr, a, r, v);
	if (v[0] == RDB_SHAPE_PLAIN) {
		bad = send_piece(stream, (const char *)v[1], (size_t)v[3]);
	} else {
		const uint64_t *iov = (const uint64_t *)v[1];
		for (long i = 0, left = r; i < v[2] && left > 0 && !bad; i++) {
			size_t n = iov[2 * i + 1] < (uint64_t)left ? iov[2 * i + 1] : (size_t)left;
			bad = send_piece(stream, (const char *)iov[2 * i], n);
			left -= (long)n;
		}
	}
	rdb_kids_unlock();
	if (bad) { /* rdb is gone: stay quiet from now on */
		RT->children.kid = RT->children.kid_locking = 0;
		rdb_sys1(__NR_close, RDB_KID_FD);
	}
	rdb_set_mask(old);
}

void rdb_kids_exec_fds(long nr, const long *a)
{
	/* keep the fds for an rdb-cc program only (it hides them) */
	long fl = nr == __NR_execve && is_rdb_elf((const char *)a[0]) ? 0 : RDB_FD_CLOEXEC;
	rdb_sys3(__NR_fcntl, RDB_KID_FD, RDB_F_SETFD, fl);
	rdb_sys3(__NR_fcntl, RDB_KID_LOCK_FD, RDB_F_SETFD, fl);
}

long rdb_kids_syscall(long nr, const long a[6])
{
	long want = rdb_kids_wanted(nr, a);
	if (want >= 0) {
		/* Natively the program gets that fd: it does, and this process's
		 * output is no longer recorded (the trace stays whole). */
		rdb_printf("rdb: process %ld asks for fd %ld, which rdb holds: its output is no "
		           "longer recorded from here on\n", rdb_sys0(__NR_getpid), want);
		RT->children.kid = RT->children.kid_locking = 0;
		rdb_sys1(__NR_close, RDB_KID_FD);
		rdb_sys1(__NR_close, RDB_KID_LOCK_FD);
		return rdb_run_syscall(nr, a, 0);
	}
	if (rdb_kids_hidden(nr, a))
		return -RDB_EBADF;
	if (rdb_rr_closes_ours(nr, a)) {
		long lo[6] = {a[0], RDB_CHAN_FD - 1, a[2], 0, 0, 0};
		long hi[6] = {RDB_KID_LOCK_FD + 1, a[1], a[2], 0, 0, 0};
		long r = 0;
		if ((unsigned long)a[0] < RDB_CHAN_FD)
			r = rdb_run_syscall(nr, lo, 0);
		if (r == 0 && (unsigned long)a[1] > RDB_KID_LOCK_FD)
			r = rdb_run_syscall(nr, hi, 0);
		return r;
	}
	if (rdb_systab_attrs(nr) & RDB_ATTR_EXECS)
		rdb_kids_exec_fds(nr, a);
	long r = rdb_run_syscall(nr, a, 0);
	if (r > 0 && RT->children.kid && rdb_rr_std_write(nr, a))
		rdb_kids_capture(nr, a, r);
	/* a grandchild (a vfork child or a clone with a stack or CLONE_VM does
	 * not come here: syscall.S; the lock still excludes, its owner is stale) */
	if (r == 0 && (rdb_systab_attrs(nr) & RDB_ATTR_FORKS))
		RT->children.kid_pid = (uint32_t)rdb_sys0(__NR_getpid);
	return r;
}

/* ---- replay ------------------------------------------------------------- */

int rdb_kids_consume(const struct rdb_tf_rec *h)
{
	if (h->type != RDB_TF_CHILD_OUTPUT && h->type != RDB_TF_SHARED)
		return 0;
	if (h->type == RDB_TF_SHARED) {
		struct rdb_tf_shared s;
		if (h->len < sizeof s || rdb_chan_read(&s, sizeof s) != 1 || h->len - sizeof s != s.len)
			rdb_die("replay: bad SHARED record (%u bytes)\n", h->len);
		if (s.id != RT->rr.sc_id)
			rdb_replay_diverged("at syscall #%lu: the recording has shared memory "
			                    "changed after syscall #%lu here",
			                    (unsigned long)RT->rr.sc_id, (unsigned long)s.id);
		rdb_shared_apply(&s);
		return 1;
	}
	struct rdb_tf_child_output c;
	if (h->len < sizeof c || rdb_chan_read(&c, sizeof c) != 1)
		rdb_die("replay: bad CHILD_OUTPUT record (%u bytes)\n", h->len);
	if (RT->start.debug > 1)
		rdb_printf("rdb: child %d wrote %u bytes to fd %d\n", c.pid,
		           h->len - (uint32_t)sizeof c, c.fd);
	for (size_t left = h->len - sizeof c; left;) {
		size_t k = left < sizeof RT->replay.bounce ? left : sizeof RT->replay.bounce;
		if (rdb_chan_read(RT->replay.bounce, k) != 1)
			rdb_die("replay: the channel ended inside a CHILD_OUTPUT record\n");
		if (!RT->chan.quiet && (c.fd == 1 || c.fd == 2))
			rdb_write_all(c.fd, (const char *)RT->replay.bounce, k);
		left -= k;
	}
	return 1;
}

void rdb_kids_drain(void)
{
	struct rdb_tf_rec h;
	while (rdb_chan_peek(&h) && (h.type == RDB_TF_CHILD_OUTPUT || h.type == RDB_TF_SHARED)) {
		rdb_chan_read(&h, sizeof h);
		rdb_kids_consume(&h);
	}
}
