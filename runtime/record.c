/* record.c: whole-run record and replay over the channel (trace_format.h,
 * docs/trace-format.md).  rdb passes one end of a socketpair as fd
 * RDB_CHAN_FD and sends HELLO first; without that fd the program runs
 * unrecorded.  Record: each syscall runs as usual, then its TRAP record
 * and one DATA record per region the kernel wrote go to rdb, which
 * compresses and writes them (the runtime never touches the disk).
 * Replay: each syscall takes the next TRAP record, checks it is the same
 * call, copies the DATA into memory and returns the recorded result without
 * entering the kernel; only calls that shape the address space or the
 * kernel's view of the process (ADDRSPACE, REEXEC, the signal framework,
 * exit) and writes to fds 1 and 2 run for real.  Everything here is reached
 * from the dispatch (after musl's self-relocation) except rdb_chan_init,
 * which runs in __rdb_start: it uses no pointer in data. */
#include "rt.h"

#define FD RDB_CHAN_FD

/* ---- the channel ------------------------------------------------------ */

static void chan_lost(const char *why, long err)
{
	long was = RT->mode;
	RT->mode = 0;
	rdb_sys1(__NR_close, FD);
	if (was == RDB_TF_MODE_REPLAY)
		rdb_die("replay lost its channel to rdb (%s, error %ld)\n", why, -err);
	rdb_printf("rdb: the recording lost its channel to rdb (%s, error %ld); "
	           "the program continues unrecorded\n", why, -err);
}

static int send_all(const void *p, size_t n)
{
	long r = rdb_send_all(FD, p, n);
	if (r < 0)
		chan_lost("send", r);
	return r < 0 ? -1 : 0;
}

void rdb_chan_flush(void)
{
	if (RT->sn && RT->mode == RDB_TF_MODE_RECORD) {
		rdb_kids_lock(); /* a fork child may send too (children.c) */
		send_all(RT->sbuf, RT->sn);
		rdb_kids_unlock();
	}
	RT->sn = 0;
}

/* The recording ends here and the program runs on unrecorded (interval.c
 * stop_tracing): rdb sees the channel close.  Signals waiting for a check
 * go back to the kernel, which delivers them now. */
void rdb_record_stop(void)
{
	rdb_chan_flush();
	RT->mode = 0;
	rdb_sys1(__NR_close, FD);
	rdb_sys1(__NR_close, RDB_VALUES_FD);
	long pid = rdb_sys0(__NR_getpid), tid = rdb_sys0(__NR_gettid);
	for (int i = 0; i < RT->npending; i++)
		rdb_sys4(__NR_rt_tgsigqueueinfo, pid, tid, RT->pending[i].signo, RT->pending[i].info);
	RT->npending = 0;
	RT->nqueued = 0;
}

void rdb_record_limit(const char *what)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return;
	uint64_t old = rdb_block_all();
	rdb_interval_end(); /* the interval's values, up to here */
	struct rdb_tf_note n = {RDB_TF_NOTE_STOPPED, 0, RT->sc_id, 0};
	rdb_chan_put(RDB_TF_NOTE, &n, sizeof n, 0, 0);
	rdb_printf("rdb: %s cannot grow (no memory for it): the recording stops "
	           "after syscall #%lu, the program runs on unrecorded\n", what,
	           (unsigned long)RT->sc_id);
	rdb_record_stop();
	rdb_set_mask(old);
}

/* One record: header, p[0..n), q[0..m) (q: DATA bytes, may be large). */
void rdb_chan_put(uint32_t type, const void *p, size_t n, const void *q, size_t m)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return;
	struct rdb_tf_rec h = {type, (uint32_t)(n + m)};
	size_t all = sizeof h + n + m;
	if (RT->sn + all > RDB_SBUF)
		rdb_chan_flush();
	if (all <= RDB_SBUF) {
		rdb_memcpy(RT->sbuf + RT->sn, &h, sizeof h);
		rdb_memcpy(RT->sbuf + RT->sn + sizeof h, p, n);
		if (m)
			rdb_memcpy(RT->sbuf + RT->sn + sizeof h + n, q, m);
		RT->sn += all;
		return;
	}
	rdb_kids_lock(); /* the record goes out whole */
	rdb_memcpy(RT->sbuf, &h, sizeof h);
	rdb_memcpy(RT->sbuf + sizeof h, p, n);
	RT->sn = sizeof h + n;
	rdb_chan_flush();
	if (RT->mode)
		send_all(q, m);
	rdb_kids_unlock();
}

/* Reads exactly n bytes (into d, or discarded when d is NULL); 0 at a
 * clean end of stream before any byte, -1 on a short read. */
int rdb_chan_read(void *d, size_t n)
{
	char *o = d;
	size_t got = 0;
	while (got < n) {
		if (RT->rpos == RT->rend) {
			if (n - got >= RDB_RBUF && o) { /* large: straight into place */
				long r = rdb_sys3(__NR_read, FD, o + got, n - got);
				if (r == -RDB_EINTR)
					continue;
				if (r <= 0)
					return got ? -1 : 0;
				got += (size_t)r;
				continue;
			}
			long r = rdb_sys3(__NR_read, FD, RT->rbuf, RDB_RBUF);
			if (r == -RDB_EINTR)
				continue;
			if (r <= 0)
				return got ? -1 : 0;
			RT->rpos = 0;
			RT->rend = (size_t)r;
		}
		size_t k = RT->rend - RT->rpos;
		if (k > n - got)
			k = n - got;
		if (o)
			rdb_memcpy(o + got, RT->rbuf + RT->rpos, k);
		RT->rpos += k;
		got += k;
	}
	return 1;
}

/* The next record's header, left unread; 0 at the end of the channel. */
int rdb_chan_peek(struct rdb_tf_rec *h) { return rdb_chan_peek_n(h, sizeof *h); }

/* The next n (<= RDB_RBUF) bytes, left unread; 0 if the channel ends first. */
int rdb_chan_peek_n(void *d, size_t n)
{
	while (RT->rend - RT->rpos < n) {
		if (RT->rpos) {
			size_t k = RT->rend - RT->rpos;
			for (size_t i = 0; i < k; i++) /* down: a forward copy is safe */
				RT->rbuf[i] = RT->rbuf[RT->rpos + i];
			RT->rpos = 0;
			RT->rend = k;
		}
		long r = rdb_sys3(__NR_read, FD, RT->rbuf + RT->rend, RDB_RBUF - RT->rend);
		if (r == -RDB_EINTR)
			continue;
		if (r <= 0)
			return 0;
		RT->rend += (size_t)r;
	}
	rdb_memcpy(d, RT->rbuf + RT->rpos, n);
	return 1;
}

/* ---- start-up --------------------------------------------------------- */

/* auxv entries that may differ between runs and that replay restores:
 * ids, AT_SECURE, hardware capabilities, clock tick, page size. */
static int restorable(uint64_t type)
{
	return type == 6 || type == 11 || type == 12 || type == 13 || type == 14 ||
	       type == 16 || type == 17 || type == 23 || type == 51;
}

void rdb_chan_init(void)
{
	if (rdb_sys2(__NR_fcntl, FD, RDB_F_GETFD) < 0) {
		rdb_kids_exec_start(); /* exec'd by a recorded process's child? */
		return; /* no channel: unrecorded */
	}
	struct rdb_tf_rec h;
	struct rdb_tf_hello hello;
	if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_HELLO || h.len < sizeof hello ||
	    rdb_chan_read(&hello, sizeof hello) != 1)
		rdb_die("fd %d is open but does not start with rdb's HELLO record; "
		        "rdb uses that fd for its channel\n", FD);
	if (hello.version != RDB_TF_HELLO_VERSION)
		rdb_die("rdb speaks trace format %u (channel revision %u), this program's runtime "
		        "%u (revision %u): rebuild it with this rdb-cc\n", hello.version & 0xffff,
		        hello.version >> 16, RDB_TF_VERSION, RDB_TF_CHAN_REV);
	rdb_sys3(__NR_fcntl, FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
	RT->gdb = (hello.flags & RDB_TF_HELLO_GDB) != 0;
	uint64_t *rnd = (uint64_t *)rdb_getauxval(RDB_AT_RANDOM);
	if (hello.mode == RDB_TF_MODE_RECORD) {
		/* The values socket too: a program the process execs must not
		 * hold it (rdb's recording ends at its EOF).  Fork children close
		 * it (children.c); the snapshot children never exec. */
		rdb_sys3(__NR_fcntl, RDB_VALUES_FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
		RT->mode = RDB_TF_MODE_RECORD;
		rdb_sic_set(0, RT->sic_span); /* the longest interval */
		RT->interval_us = hello.interval_us;
		if (hello.flags & RDB_TF_HELLO_EVERY_SIC) /* a count, not a time */
			RT->every_sic = hello.every_sic, RT->interval_us = 0;
		RT->checksum = (hello.flags & RDB_TF_HELLO_CHECKSUM) != 0;
		size_t na = 0;
		while (RT->auxv[2 * na] != RDB_AT_NULL)
			na++;
		struct rdb_tf_init in = {{rnd ? rnd[0] : 0, rnd ? rnd[1] : 0}, (uint32_t)na, 0};
		rdb_chan_put(RDB_TF_INIT, &in, sizeof in, RT->auxv, na * 16);
		rdb_chan_flush();
		return;
	}
	if (hello.mode != RDB_TF_MODE_REPLAY ||
	    h.len != sizeof hello + (uint64_t)hello.nauxv * 16 + 16)
		rdb_die("bad HELLO record from rdb (mode %u, %u bytes)\n", hello.mode, h.len);
	RT->mode = RDB_TF_MODE_REPLAY;
	RT->quiet = (hello.flags & RDB_TF_HELLO_QUIET) != 0;
	RT->verify = !(hello.flags & RDB_TF_HELLO_VERIFY) ? 0 :
	             hello.flags & RDB_TF_HELLO_VERIFY_FULL ? 2 : 1;
	if (hello.flags & RDB_TF_HELLO_DEBUG)
		RT->debug = 2;
	RT->from = hello.from;
	RT->rec_pid = hello.pid;
	if (hello.flags & RDB_TF_HELLO_TIMING)
		RT->timing_t0 = hello.rdb_start_ns;
	/* The recorded auxv values the program reads, and AT_RANDOM's bytes
	 * (musl's stack canary and more): before libc's start-up reads them. */
	for (uint32_t i = 0; i < hello.nauxv; i++) {
		uint64_t tv[2];
		rdb_chan_read(tv, sizeof tv);
		if (!restorable(tv[0]))
			continue;
		for (unsigned long *a = RT->auxv; a[0] != RDB_AT_NULL; a += 2)
			if (a[0] == tv[0])
				a[1] = tv[1];
	}
	uint64_t r[2];
	rdb_chan_read(r, sizeof r);
	if (rnd)
		rnd[0] = r[0], rnd[1] = r[1];
	if (hello.flags & RDB_TF_HELLO_WATCH) {
		struct rdb_tf_watch w;
		if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_WATCH || h.len != sizeof w ||
		    rdb_chan_read(&w, sizeof w) != 1)
			rdb_die("bad WATCH record from rdb\n");
		rdb_watch_init(&w);
		if (hello.from <= 1)
			rdb_watch_arm();
	}
	if (RT->verify != 1) /* --verify's touched hash needs the planes */
		rdb_unhook(!(hello.flags & RDB_TF_HELLO_WATCH));
}

/* ---- record ----------------------------------------------------------- */

static const char *name(long nr);

/* One DATA record per region, in pieces of at most DATA_PIECE bytes: a
 * record's length is 32 bits, and rdb holds a record whole in a frame
 * (a read of 2 GiB, a file mapping of any size). */
#define DATA_PIECE (RDB_TF_MAX_PAYLOAD)

static void add_region(uintptr_t a, size_t n)
{
	do {
		size_t k = n < DATA_PIECE ? n : DATA_PIECE;
		if (!rdb_grow(RDB_G_REGIONS, (RT->nreg + 1) * sizeof RT->reg[0])) {
			RT->reg_full = 1; /* record() stops the recording */
			return;
		}
		RT->reg[RT->nreg].addr = a;
		RT->reg[RT->nreg].len = k;
		RT->nreg++;
		a += k;
		n -= k;
	} while (n);
}

static int is_file_mmap(long nr, const long *a)
{
	return nr == __NR_mmap && !(a[3] & RDB_MAP_ANONYMOUS) && (int)a[4] >= 0;
}

/* An mremap the kernel may move to an address of its choice: replay moves
 * it where the recording's went.  (The kernel's choice depends on what is
 * mapped around it, and replay's stand-in for a file mapping, anonymous
 * and private, is not the recording's: SQLite's growing database mapping
 * went elsewhere in replay.) */
static int is_moving_mremap(long nr, const long *a)
{
	return nr == __NR_mremap && (a[3] & RDB_MREMAP_MAYMOVE) && !(a[3] & RDB_MREMAP_FIXED);
}

/* vfork and clone(CLONE_VM) (posix_spawn, system) would share our memory,
 * this state and the channel with a child that runs untraced: they run as
 * a fork instead (record_spawn).  Threads (or a shared fd table, signal
 * handlers, cwd) cannot: refused while recording (milestone 2). */
static int is_spawn(long nr, const long *a)
{
	return nr == __NR_vfork || (nr == __NR_clone && ((a[0] & RDB_CLONE_VM) || a[1]));
}

static int is_thread(long nr, const long *a)
{
	return nr == __NR_clone && (a[0] & (RDB_CLONE_THREAD | RDB_CLONE_SIGHAND |
	                                    RDB_CLONE_FILES | RDB_CLONE_FS));
}

/* The spawn as a fork: without CLONE_VM, on a copy of our stack; the parent
 * still waits for the child's exec or exit (CLONE_VFORK, if asked).  The
 * child, in its own copy of this state, stops tracing; for a clone with a
 * new stack, syscall.S moves it there on the way out (clone_sp). */
static long run_spawn(long nr, const long *a)
{
	long b[6] = {RDB_CLONE_VFORK | RDB_SIGCHLD, 0, 0, 0, 0, 0};
	if (nr == __NR_clone)
		for (int i = 0; i < 6; i++)
			b[i] = i == 0 ? a[0] & ~(long)RDB_CLONE_VM : i == 1 ? 0 : a[i];
	long r = rdb_run_syscall(__NR_clone, b, add_region);
	if (r == 0 && nr == __NR_clone && a[1]) {
		/* a: the registers syscall.S saved; the flags follow them */
		RT->clone_frame = (uintptr_t)&a[6];
		RT->clone_sp = (uintptr_t)a[1];
	}
	return r;
}

static void send_note(uint32_t kind, int64_t value)
{
	struct rdb_tf_note n = {kind, 0, RT->sc_id, value};
	rdb_chan_put(RDB_TF_NOTE, &n, sizeof n, 0, 0);
}

static int is_std_write(long nr, const long *a)
{
	return (nr == __NR_write || nr == __NR_writev || nr == __NR_pwrite64 ||
	        nr == __NR_pwritev || nr == __NR_pwritev2) &&
	       (a[0] == 1 || a[0] == 2);
}

static void mark_read(void *ctx, uintptr_t a, size_t n)
{
	(void)ctx;
	rdb_shadow_read(a, n);
}

/* Memory the kernel reads in a call that replay executes again (writes to
 * stdout and stderr, the signal framework's structs) must hold the
 * recorded bytes when replay starts at a later interval: it counts as read
 * by the program (the hooks never see the kernel's reads).  So must what
 * any write-like call wrote when its TRAP has a hash of it (hashed,
 * whash.c), which replay --verify compares. */
static void mark_kernel_reads(long nr, const long *a, long r, int hashed)
{
	if (hashed && !is_std_write(nr, a)) {
		rdb_whash_regions(nr, a, r, 1, mark_read, 0);
		return;
	}
	if (is_std_write(nr, a) && r > 0) {
		if (nr == __NR_write || nr == __NR_pwrite64) {
			rdb_shadow_read((uintptr_t)a[1], (size_t)r);
			return;
		}
		const uint64_t *iov = (const uint64_t *)a[1];
		if (!rdb_covered((uintptr_t)iov, (size_t)a[2] * 16) || a[2] < 0 || a[2] > 1024)
			return;
		rdb_shadow_read((uintptr_t)iov, (size_t)a[2] * 16);
		for (long i = 0, left = r; i < a[2] && left > 0; i++) {
			size_t n = iov[2 * i + 1] < (uint64_t)left ? iov[2 * i + 1] : (size_t)left;
			rdb_shadow_read(iov[2 * i], n);
			left -= (long)n;
		}
		return;
	}
	if (nr == __NR_rt_sigaction && a[1])
		rdb_shadow_read((uintptr_t)a[1], sizeof(struct rdb_ksigaction));
	else if (nr == __NR_rt_sigprocmask && a[1])
		rdb_shadow_read((uintptr_t)a[1], 8);
	else if (nr == __NR_sigaltstack && a[0])
		rdb_shadow_read((uintptr_t)a[0], 24);
}

/* A handler of the program may run on the return of any of our syscalls
 * and record its own, and a terminating signal makes the runtime append
 * its own record: signals stay blocked while a record is built and sent,
 * the id is taken after the call, and regions are a stack (base .. nreg),
 * so records come out whole and in id order. */
static long record(long nr, const long *a)
{
	struct rdb_tf_trap t;
	t.nr = nr;
	for (int i = 0; i < 6; i++)
		t.args[i] = a[i];
	t.flags = 0;
	t.whash = 0;
	size_t base = RT->nreg;
	long r;
	if (is_thread(nr, a)) {
		if (!RT->spawn_warned++)
			rdb_printf("rdb: clone of a thread (CLONE_THREAD, CLONE_SIGHAND, "
			           "CLONE_FILES or CLONE_FS) is not recorded yet: the call "
			           "fails with ENOSYS\n");
		send_note(RDB_TF_NOTE_SPAWN, RT->sc_id + 1);
		r = -RDB_ENOSYS;
	} else {
		if (nr == __NR_execve || nr == __NR_execveat) {
			rdb_interval_exec(); /* values of the interval if it succeeds */
			t.id = RT->sc_id + 1;
			t.ret = 0;
			t.ndata = 0;
			rdb_chan_put(RDB_TF_EXEC, &t, sizeof t, 0, 0);
			rdb_chan_flush();
		}
		if (nr == __NR_close || nr == __NR_close_range || nr == __NR_dup2 ||
		    nr == __NR_dup3)
			rdb_interval_fds_shut(); /* the file may be its last reference */
		int forks = nr == __NR_fork || nr == __NR_vfork || nr == __NR_clone;
		if (forks)
			rdb_kids_prefork();
		r = is_spawn(nr, a) ? run_spawn(nr, a) : rdb_run_syscall(nr, a, add_region);
		if (nr == __NR_execve || nr == __NR_execveat)
			rdb_interval_exec_failed(); /* it returned */
		if (forks && r == 0) {
			/* The child runs untraced (the parent's record says so) but
			 * sends its output to the recording's stdout and stderr. */
			rdb_kids_child_start();
			return 0;
		}
		if (forks && r > 0)
			send_note(RDB_TF_NOTE_FORK, r); /* id: the syscall before the fork */
		if (is_file_mmap(nr, a) && !(r < 0 && r > -4096) && (a[2] & RDB_PROT_READ)) {
			/* replay maps anonymous memory and copies the file's bytes */
			uint64_t st[18];
			if (rdb_sys2(__NR_fstat, a[4], st) == 0) {
				uint64_t size = st[6], off = (uint64_t)a[5], n = (uint64_t)a[1];
				uint64_t avail = size > off ? ((size - off + 0xfff) & ~0xfffull) : 0;
				if (avail < n)
					n = avail;
				if (n) { /* written by the kernel, as replay's copy is */
					rdb_shadow_syswrite((uintptr_t)r, n);
					add_region((uintptr_t)r, n);
				}
			}
		}
	}
	if (RT->checksum && rdb_whash(nr, a, r, &t.whash))
		t.flags |= RDB_TF_TRAP_WHASH;
	mark_kernel_reads(nr, a, r, (t.flags & RDB_TF_TRAP_WHASH) != 0);
	rdb_shared_track(nr, a, r);
	if (RT->debug > 1)
		rdb_printf("rdb: #%lu %s at count %lu\n", (unsigned long)RT->sc_id + 1, name(nr),
		           (unsigned long)rdb_sic());
	uint64_t old = rdb_block_all();
	if (RT->reg_full) {
		RT->reg_full = 0;
		rdb_record_limit("the list of regions a syscall wrote");
	}
	t.id = ++RT->sc_id;
	t.ret = r;
	t.ndata = (uint32_t)(RT->nreg - base);
	rdb_chan_put(RDB_TF_TRAP, &t, sizeof t, 0, 0);
	for (size_t i = base; i < RT->nreg && RT->mode; i++) {
		struct rdb_tf_data d = {t.id, RT->reg[i].addr, RT->reg[i].len};
		rdb_chan_put(RDB_TF_DATA, &d, sizeof d, (const void *)RT->reg[i].addr, RT->reg[i].len);
	}
	rdb_shared_sync(t.id, nr, a, r);
	rdb_chan_flush();
	RT->nreg = base;
	rdb_set_mask(old);
	return r;
}

/* ---- replay ----------------------------------------------------------- */

static const char *nd_name(uint32_t kind);

static const char *name(long nr)
{
	const char *n = rdb_systab_name(nr);
	return n ? n : "?";
}

/* Ends the replay as the recording ended: its status, or its fatal signal
 * with the default action (no handler of the program may catch it). */
static _Noreturn void die_as_recorded(const struct rdb_tf_exit *x)
{
	rdb_watch_report();
	RT->mode = 0;
	if (x->how == RDB_TF_EXIT_SIGNAL && x->value > 0 && x->value < RDB_NSIG) {
		struct rdb_ksigaction k = {RDB_SIG_DFL, 0, 0, 0};
		rdb_sys4(__NR_rt_sigaction, x->value, &k, 0, 8);
		uint64_t m = 1ull << (x->value - 1);
		rdb_sys4(__NR_rt_sigprocmask, RDB_SIG_UNBLOCK, &m, 0, 8);
		rdb_sys3(__NR_tgkill, rdb_sys0(__NR_getpid), rdb_sys0(__NR_gettid), x->value);
		rdb_sys2(__NR_kill, rdb_sys0(__NR_getpid), RDB_SIGKILL);
	}
	for (;;)
		rdb_sys1(__NR_exit_group, x->how == RDB_TF_EXIT_STATUS ? x->value : 125);
}

/* The records up to END, and END's exit into x (zero if none came); what
 * fork children wrote after the program ended (an orphan's output) is
 * written as it was when outputs is set. */
static void skip_to_end(struct rdb_tf_exit *x, int outputs)
{
	struct rdb_tf_rec h;
	rdb_memset(x, 0, sizeof *x);
	while (rdb_chan_read(&h, sizeof h) == 1) {
		if (h.type == RDB_TF_END && h.len == sizeof *x) {
			rdb_chan_read(x, sizeof *x);
			return;
		}
		if (h.type != RDB_TF_CHILD_OUTPUT || !outputs || !rdb_kids_consume(&h))
			rdb_chan_read(0, h.len);
	}
}

/* Ends the replay as the recording ended: END says how. */
static _Noreturn void replay_end(const char *why)
{
	struct rdb_tf_exit x;
	skip_to_end(&x, !why);
	if (why)
		rdb_printf("rdb: replay: %s\n", why);
	die_as_recorded(&x);
}

/* The replay cannot go on: says why ("rdb: replay diverged " + fmt) and
 * exits 125 (no more records are sent or awaited). */
_Noreturn void rdb_replay_diverged(const char *fmt, ...)
{
	char buf[480];
	__builtin_va_list ap;
	__builtin_va_start(ap, fmt);
	rdb_vsnprintf(buf, sizeof buf, fmt, ap);
	__builtin_va_end(ap);
	RT->mode = 0;
	rdb_printf("rdb: replay diverged %s\n", buf);
	for (;;)
		rdb_sys1(__NR_exit_group, 125);
}

static _Noreturn void diverged(uint64_t id, const struct rdb_tf_trap *t, long nr,
                               const long *a, const char *what)
{
	if (t)
		rdb_replay_diverged("at syscall #%lu: %s: recorded %s(%lx, %lx, %lx, ...) = %ld, "
		                    "the program asked for %s(%lx, %lx, %lx, ...)",
		                    (unsigned long)id, what, name(t->nr), (unsigned long)t->args[0],
		                    (unsigned long)t->args[1], (unsigned long)t->args[2],
		                    (long)t->ret, name(nr), (unsigned long)a[0],
		                    (unsigned long)a[1], (unsigned long)a[2]);
	rdb_replay_diverged("at syscall #%lu: %s (the program asked for %s)", (unsigned long)id,
	                    what, name(nr));
}

/* END where the program wanted more (what: a syscall's name, or "an
 * interval boundary"): the recording stopped here; die as it did. */
_Noreturn void rdb_replay_at_end(const struct rdb_tf_rec *h, const char *what)
{
	struct rdb_tf_exit x;
	rdb_memset(&x, 0, sizeof x);
	if (h->len != sizeof x || rdb_chan_read(&x, sizeof x) != 1)
		rdb_die("replay: bad END record from rdb\n");
	if (x.execd == 2)
		rdb_printf("rdb: replay ends where the recording stopped (interval %lu: it reached "
		           "the instruction counter's limit with no boundary possible, or the "
		           "runtime could not go on recording); the rest of the run was not traced\n",
		           (unsigned long)RT->interval);
	else if (x.execd)
		rdb_printf("rdb: replay ends at syscall #%lu: the recorded program exec'd another "
		           "one, which ran untraced\n", (unsigned long)RT->sc_id);
	else
		rdb_printf("rdb: replay reached the end of the trace at syscall #%lu (%s): the "
		           "recording was cut short\n", (unsigned long)RT->sc_id, what);
	die_as_recorded(&x);
}

/* The next record of the syscall stream, skipping notes.  TERM or END
 * where a syscall is wanted: the recorded run ended here. */
static void next_trap(struct rdb_tf_trap *t, long nr, const long *a)
{
	for (;;) {
		struct rdb_tf_rec h;
		int r = rdb_chan_read(&h, sizeof h);
		if (r != 1)
			rdb_die("replay: the channel from rdb ended at syscall #%lu\n",
			        (unsigned long)RT->sc_id);
		if (h.type == RDB_TF_NOTE || h.type == RDB_TF_EXEC) {
			rdb_chan_read(0, h.len);
			continue;
		}
		if (rdb_kids_consume(&h))
			continue;
		if (h.type == RDB_TF_NONDET) {
			struct rdb_tf_nondet v;
			rdb_memset(&v, 0, sizeof v);
			if (h.len == sizeof v)
				rdb_chan_read(&v, sizeof v);
			rdb_replay_diverged("at syscall #%lu: the recording executed %s here, "
			                    "the program asked for %s",
			                    (unsigned long)RT->sc_id, nd_name(v.kind), name(nr));
		}
		if (h.type == RDB_TF_TERM) {
			rdb_chan_read(0, h.len);
			replay_end(0); /* it died here: by a signal, or exit in a handler */
		}
		if (h.type == RDB_TF_END) {
			(void)a;
			rdb_replay_at_end(&h, name(nr));
		}
		if (h.type == RDB_TF_BOUNDARY || h.type == RDB_TF_SIGNAL || h.type == RDB_TF_STOP) {
			rdb_replay_diverged("at syscall #%lu (%s): the recording reached %s first",
			                    (unsigned long)RT->sc_id, name(nr),
			                    h.type == RDB_TF_SIGNAL ? "a signal"
			                                            : "an interval boundary");
		}
		if (h.type != RDB_TF_TRAP || h.len != sizeof *t)
			rdb_die("replay: unexpected record type %u (%u bytes) at syscall #%lu\n",
			        h.type, h.len, (unsigned long)RT->sc_id);
		rdb_chan_read(t, sizeof *t);
		return;
	}
}

static void copy_data(const struct rdb_tf_trap *t, long nr, const long *a)
{
	for (uint32_t i = 0; i < t->ndata; i++) {
		struct rdb_tf_rec h;
		struct rdb_tf_data d;
		if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_DATA ||
		    rdb_chan_read(&d, sizeof d) != 1 || h.len != sizeof d + d.len || d.id != t->id)
			diverged(t->id, t, nr, a, "bad DATA record");
		if (!rdb_covered(d.addr, d.len))
			diverged(t->id, t, nr, a, "DATA outside the program's memory");
		if (rdb_chan_read((void *)d.addr, d.len) != 1)
			rdb_die("replay: the channel ended inside syscall #%lu's data\n",
			        (unsigned long)t->id);
		rdb_shadow_syswrite(d.addr, d.len);
	}
}


/* Replayed calls that run for real.  (A signal the program sends itself
 * is not sent again: the trace delivers it, or ends the run where its
 * default action did, signal.c.) */
static int runs_first(long nr, const long *a)
{
	if (is_file_mmap(nr, a) || is_spawn(nr, a) || is_moving_mremap(nr, a))
		return 0;
	return (rdb_systab_attrs(nr) & (RDB_ATTR_ADDRSPACE | RDB_ATTR_REEXEC)) ||
	       nr == __NR_rt_sigaction || nr == __NR_rt_sigprocmask ||
	       nr == __NR_sigaltstack;
}

/* sigsuspend is not run again (it would wait for a signal that may never
 * come), but what it let in must be taken from the kernel as in the
 * recording: signals queued again by events and still blocked.  Its mask,
 * for an instant, lets them in (signal.c drops them: the trace delivers
 * them again at the stub's check). */
static void replay_sigsuspend(const long *a)
{
	if (!rdb_covered((uintptr_t)a[0], 8) || a[1] != 8)
		return;
	uint64_t m = *(const uint64_t *)a[0] & ~(RT->reserved_sigs | (1ull << (RDB_SIGSEGV - 1)));
	uint64_t old = 0;
	rdb_sys4(__NR_rt_sigprocmask, RDB_SIG_SETMASK, &m, &old, 8);
	rdb_set_mask(old);
}

static long replay_call(long nr, const long *a)
{
	rdb_kids_drain(); /* a fork child's output before the call */
	if (nr == __NR_rt_sigsuspend)
		replay_sigsuspend(a);
	int first = runs_first(nr, a);
	long r = first ? rdb_run_syscall(nr, a, 0) : 0;
	uint64_t id = ++RT->sc_id;
	struct rdb_tf_trap t;
	next_trap(&t, nr, a);
	/* the planes as the recording had them */
	mark_kernel_reads(nr, a, t.ret, (t.flags & RDB_TF_TRAP_WHASH) != 0);
	if (RT->debug > 1)
		rdb_printf("rdb: #%lu %s at count %lu\n", (unsigned long)id, name(nr),
		           (unsigned long)rdb_sic());
	if (t.id != id)
		diverged(id, &t, nr, a, "the trace skips a syscall id");
	if (t.nr != nr)
		diverged(id, &t, nr, a, "a different syscall");
	for (int i = 0, n = rdb_systab_nargs(nr); i < n; i++)
		if (t.args[i] != a[i])
			diverged(id, &t, nr, a, "different arguments");
	uint64_t wh;
	if (RT->verify && (t.flags & RDB_TF_TRAP_WHASH) && rdb_whash(nr, a, t.ret, &wh) &&
	    wh != t.whash) {
		char what[80];
		rdb_snprintf(what, sizeof what, "--verify: in interval %lu the bytes it wrote differ "
		             "from the recording's", (unsigned long)RT->interval);
		diverged(id, &t, nr, a, what);
	}
	if (first) {
		/* Address space and signal framework: the result must agree. */
		if (r != t.ret && !(rdb_systab_attrs(nr) & RDB_ATTR_REEXEC))
			diverged(id, &t, nr, a, "re-executed, it returned another result");
		copy_data(&t, nr, a); /* e.g. sigaltstack's old_ss: as recorded */
		return t.ret;
	}
	if (is_file_mmap(nr, a) && !(t.ret < 0 && t.ret > -4096)) {
		long b[6] = {t.ret, a[1], a[2] | (t.ndata ? RDB_PROT_WRITE : 0),
		             (a[3] & ~RDB_MAP_TYPE) | RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS |
		                 RDB_MAP_FIXED,
		             -1, 0};
		r = rdb_run_syscall(__NR_mmap, b, 0);
		if (r != t.ret)
			diverged(id, &t, nr, a, "the file mapping could not be re-created");
		copy_data(&t, nr, a);
		if (b[2] != a[2])
			rdb_sys3(__NR_mprotect, r, a[1], a[2]);
		return r;
	}
	if (is_moving_mremap(nr, a)) {
		if (t.ret == -RDB_EINVAL)
			rdb_mremap_refused(a); /* its message, if the recording's */
		if (t.ret < 0 && t.ret > -4096)
			return t.ret; /* it failed and changed nothing */
		long b[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
		if (t.ret != a[0]) {
			/* the place was free in the recording: taken here, the
			 * replay has gone another way (MREMAP_FIXED would unmap
			 * what is there) */
			long probe = rdb_sys6(__NR_mmap, t.ret, a[2], RDB_PROT_NONE,
			                      RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS |
			                          RDB_MAP_FIXED_NOREPLACE,
			                      -1, 0);
			if (probe != t.ret)
				diverged(id, &t, nr, a, "where the recording's mremap moved the mapping "
				                        "is taken");
			rdb_sys2(__NR_munmap, probe, a[2]);
			b[3] |= RDB_MREMAP_FIXED;
			b[4] = t.ret;
		}
		r = rdb_run_syscall(__NR_mremap, b, 0);
		if (r != t.ret)
			diverged(id, &t, nr, a, "the mapping could not be moved where it went");
		copy_data(&t, nr, a);
		return r;
	}
	if (is_spawn(nr, a))
		return t.ret;
	if (is_std_write(nr, a) && !RT->quiet)
		rdb_sys6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	copy_data(&t, nr, a);
	return t.ret;
}

/* Then what the recording has after the call: shared memory others
 * changed, fork children's output (children.c, shared.c). */
static long replay(long nr, const long *a)
{
	long r = replay_call(nr, a);
	rdb_shared_track(nr, a, r);
	rdb_kids_drain();
	return r;
}

/* ---- nondeterministic instructions (nondet.S) ------------------------- */

enum { G_R12, G_R11, G_R10, G_R9, G_R8, G_RBP, G_RDI, G_RSI, G_RDX, G_RCX, G_RBX,
       G_RAX, G_FLAGS };
#define CF 1ull

static void execute(uint32_t kind, const uint64_t in[2], uint64_t out[4])
{
	uint32_t a, b, c, d;
	uint64_t v;
	unsigned char ok;
	out[0] = out[1] = out[2] = out[3] = 0;
	switch (kind) {
	case RDB_TF_ND_RDTSC:
		__asm__ volatile("rdtsc" : "=a"(a), "=d"(d));
		out[0] = a, out[1] = d;
		break;
	case RDB_TF_ND_RDTSCP:
		__asm__ volatile("rdtscp" : "=a"(a), "=d"(d), "=c"(c));
		out[0] = a, out[1] = d, out[2] = c;
		break;
	case RDB_TF_ND_RDRAND:
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		out[0] = v, out[1] = ok;
		break;
	case RDB_TF_ND_RDSEED:
		__asm__ volatile("rdseed %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		out[0] = v, out[1] = ok;
		break;
	case RDB_TF_ND_CPUID:
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
		                 : "a"((uint32_t)in[0]), "c"((uint32_t)in[1]));
		out[0] = a, out[1] = b, out[2] = c, out[3] = d;
		break;
	}
}

static const char *nd_name(uint32_t kind)
{
	switch (kind) {
	case RDB_TF_ND_RDTSC: return "rdtsc";
	case RDB_TF_ND_RDTSCP: return "rdtscp";
	case RDB_TF_ND_RDRAND: return "rdrand";
	case RDB_TF_ND_RDSEED: return "rdseed";
	case RDB_TF_ND_CPUID: return "cpuid";
	}
	return "?";
}

void rdb_nondet(uint32_t kind, uint64_t *g)
{
	struct rdb_tf_nondet n;
	rdb_memset(&n, 0, sizeof n);
	n.after = RT->sc_id;
	n.kind = kind;
	if (kind == RDB_TF_ND_CPUID)
		n.in[0] = (uint32_t)g[G_RAX], n.in[1] = (uint32_t)g[G_RCX];
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		struct rdb_tf_rec h;
		struct rdb_tf_nondet r;
		for (;;) {
			if (rdb_chan_read(&h, sizeof h) != 1)
				rdb_die("replay: the channel from rdb ended at %s after syscall #%lu\n",
				        nd_name(kind), (unsigned long)RT->sc_id);
			if (rdb_kids_consume(&h))
				continue;
			if (h.type != RDB_TF_NOTE)
				break;
			rdb_chan_read(0, h.len);
		}
		if (h.type != RDB_TF_NONDET || h.len != sizeof r) {
			rdb_replay_diverged("after syscall #%lu: the program executed "
			                    "%s, the recording has record type %u there",
			                    (unsigned long)RT->sc_id, nd_name(kind), h.type);
		}
		rdb_chan_read(&r, sizeof r);
		if (r.kind != kind || r.after != n.after || r.in[0] != n.in[0] || r.in[1] != n.in[1]) {
			rdb_replay_diverged("after syscall #%lu: the program executed "
			                    "%s (%lx, %lx), the recording %s (%lx, %lx)",
			                    (unsigned long)RT->sc_id, nd_name(kind),
			                    (unsigned long)n.in[0], (unsigned long)n.in[1],
			                    nd_name(r.kind), (unsigned long)r.in[0],
			                    (unsigned long)r.in[1]);
		}
		n = r;
	} else {
		execute(kind, n.in, n.out);
		int mask = RT->mode == RDB_TF_MODE_RECORD;
		uint64_t old = mask ? rdb_block_all() : 0;
		n.after = RT->sc_id;
		rdb_chan_put(RDB_TF_NONDET, &n, sizeof n, 0, 0);
		rdb_chan_flush();
		if (mask)
			rdb_set_mask(old);
	}
	RT->nondets++;
	switch (kind) {
	case RDB_TF_ND_RDTSCP:
		g[G_RCX] = (uint32_t)n.out[2];
		/* fall through */
	case RDB_TF_ND_RDTSC:
		g[G_RAX] = (uint32_t)n.out[0];
		g[G_RDX] = (uint32_t)n.out[1];
		break;
	case RDB_TF_ND_RDRAND:
	case RDB_TF_ND_RDSEED:
		g[G_R12] = n.out[0];
		/* CF from the instruction; OF SF ZF AF PF cleared, as it does */
		g[G_FLAGS] = (g[G_FLAGS] & ~0x8d5ull) | (n.out[1] ? CF : 0);
		break;
	case RDB_TF_ND_CPUID:
		g[G_RAX] = (uint32_t)n.out[0];
		g[G_RBX] = (uint32_t)n.out[1];
		g[G_RCX] = (uint32_t)n.out[2];
		g[G_RDX] = (uint32_t)n.out[3];
		break;
	}
}

/* ---- the dispatch's entry -------------------------------------------- */

int rdb_rr_hidden(long nr, const long a[6])
{
	if (nr == __NR_close_range && (unsigned long)a[0] <= RDB_KID_LOCK_FD &&
	    (unsigned long)a[1] >= FD)
		return 0; /* split below */
	/* The values socket and the fork children's fds: hidden in replay
	 * too, so the calls agree. */
	return rdb_kids_hidden(nr, a);
}

long rdb_rr_syscall(long nr, const long a[6])
{
	if (nr == __NR_close_range && (unsigned long)a[0] <= RDB_KID_LOCK_FD &&
	    (unsigned long)a[1] >= FD) {
		/* Leave the channel, the values socket and the fork children's
		 * fds (FD .. RDB_KID_LOCK_FD) open: two ranges around them (two
		 * records). */
		int rec = RT->mode == RDB_TF_MODE_RECORD;
		long lo[6] = {a[0], FD - 1, a[2], 0, 0, 0};
		long hi[6] = {RDB_KID_LOCK_FD + 1, a[1], a[2], 0, 0, 0};
		long r = 0;
		if ((unsigned long)a[0] < FD)
			r = rec ? record(nr, lo) : replay(nr, lo);
		if (r == 0 && (unsigned long)a[1] > RDB_KID_LOCK_FD)
			r = rec ? record(nr, hi) : replay(nr, hi);
		return r;
	}
	if (nr == __NR_exit || nr == __NR_exit_group) {
		rdb_run_term((int)a[0] & 0xff, 0);
		if (RT->mode == RDB_TF_MODE_RECORD) {
			rdb_chan_flush();
			return rdb_run_syscall(nr, a, 0);
		}
	}
	if (RT->mode == RDB_TF_MODE_RECORD)
		return record(nr, a);
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		int was = RT->watch.sys; /* watch.c: what the call writes is the kernel's */
		RT->watch.sys = 1;
		long r = replay(nr, a);
		RT->watch.sys = was;
		return r;
	}
	return rdb_run_syscall(nr, a, 0);
}

/* The exit's hashes (record --checksum, replay --verify): memory as a
 * boundary hashes it, with %rsp at the program's last syscall (exit_group's;
 * a fatal signal's end is as deterministic) and no other register. */
static void term_hash(struct rdb_tf_term *t)
{
	uint64_t g[RDB_TF_NGREG];
	rdb_memset(g, 0, sizeof g);
	g[REG_RSP] = RT->stub_sp;
	/* Mappings that cannot be read (every fd in use, limits.sh's fdhard):
	 * no hashes, and replay then compares none. */
	if (!rdb_procmaps())
		return;
	rdb_checksum(g, RT->maps, RT->nmaps, &t->hash_touched, &t->hash_full);
	t->flags = RDB_TF_B_CHECKSUM;
}

/* Replay --verify: the state at the end against the recording's.  Not the
 * full hash under --verify-full: its replay runs without the hooks, and a
 * stack the program left (a coroutine's, in a mapping %rsp is no longer
 * in) holds other return addresses below its last %rsp then (checksum.c). */
static void verify_term(const struct rdb_tf_term *r)
{
	if (!RT->verify || !(r->flags & RDB_TF_B_CHECKSUM))
		return;
	struct rdb_tf_term t;
	rdb_memset(&t, 0, sizeof t);
	term_hash(&t);
	if (!(t.flags & RDB_TF_B_CHECKSUM))
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) its mappings cannot be read, the "
		                    "recording's could", (unsigned long)RT->interval,
		                    (unsigned long)RT->sc_id);
	if (RT->verify == 1 && t.hash_touched != r->hash_touched)
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) the memory interval %lu read or wrote, or its "
		                    "live stack, differs from the recording's",
		                    (unsigned long)RT->interval, (unsigned long)RT->sc_id,
		                    (unsigned long)RT->interval);
	if (RT->verify == 1 && RT->from <= 1 && t.hash_full != r->hash_full)
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) its writable memory differs from the "
		                    "recording's (memory interval %lu did not touch)",
		                    (unsigned long)RT->interval, (unsigned long)RT->sc_id,
		                    (unsigned long)RT->interval);
}

void rdb_rr_term(int status, int signo)
{
	struct rdb_tf_term t;
	rdb_memset(&t, 0, sizeof t);
	t.status = status;
	t.signo = signo;
	t.after = RT->sc_id;
	if (RT->mode == RDB_TF_MODE_RECORD) {
		if (RT->checksum)
			term_hash(&t);
		rdb_interval_end();
		rdb_chan_put(RDB_TF_TERM, &t, sizeof t, 0, 0);
		rdb_chan_flush();
		return;
	}
	/* Replay: the recording must end here too. */
	rdb_watch_report();
	struct rdb_tf_rec h;
	for (;;) {
		if (rdb_chan_read(&h, sizeof h) != 1)
			return;
		if (h.type == RDB_TF_NOTE || h.type == RDB_TF_NONDET || h.type == RDB_TF_EXEC) {
			rdb_chan_read(0, h.len);
			continue;
		}
		if (rdb_kids_consume(&h))
			continue;
		break;
	}
	if (h.type == RDB_TF_TERM && h.len == sizeof t) {
		struct rdb_tf_term r;
		rdb_chan_read(&r, sizeof r);
		if (r.status != status || r.signo != signo)
			rdb_printf("rdb: replay ends with status %d signal %d, the recording "
			           "with status %d signal %d\n", status, signo, r.status, r.signo);
		verify_term(&r);
		struct rdb_tf_exit x;
		skip_to_end(&x, 1);
		RT->mode = 0;
		return;
	}
	rdb_replay_diverged("after syscall #%lu: the program ends here "
	                    "(status %d, signal %d), the recording went on (record type %u)",
	                    (unsigned long)RT->sc_id, status, signo, h.type);
}
