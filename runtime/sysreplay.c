/* sysreplay.c: the replay of syscalls.  Each syscall takes the next TRAP
 * record, checks it is the same call, copies the DATA into memory and
 * returns the recorded result without entering the kernel; only calls
 * that shape the address space or the kernel's view of the process
 * (ADDRSPACE, REEXEC, the signal framework) and writes to fds 1 and 2 run
 * for real.  The dispatch comes here through rdb_rr_syscall (rr.c). */
#include "rt.h"

static _Noreturn void diverged(uint64_t id, const struct rdb_tf_trap *t, long nr,
                               const long *a, const char *what)
{
	if (t)
		rdb_replay_diverged("at syscall #%lu: %s: recorded %s(%lx, %lx, %lx, ...) = %ld, "
		                    "the program asked for %s(%lx, %lx, %lx, ...)",
		                    (unsigned long)id, what, rdb_rr_name(t->nr), (unsigned long)t->args[0],
		                    (unsigned long)t->args[1], (unsigned long)t->args[2],
		                    (long)t->ret, rdb_rr_name(nr), (unsigned long)a[0],
		                    (unsigned long)a[1], (unsigned long)a[2]);
	rdb_replay_diverged("at syscall #%lu: %s (the program asked for %s)", (unsigned long)id,
	                    what, rdb_rr_name(nr));
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
			        (unsigned long)RT->rr.sc_id);
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
			                    (unsigned long)RT->rr.sc_id, rdb_nondet_name(v.kind), rdb_rr_name(nr));
		}
		if (h.type == RDB_TF_TERM) {
			rdb_chan_read(0, h.len);
			rdb_replay_end(0); /* it died here: by a signal, or exit in a handler */
		}
		if (h.type == RDB_TF_END) {
			(void)a;
			rdb_replay_at_end(&h, rdb_rr_name(nr));
		}
		if (h.type == RDB_TF_BOUNDARY || h.type == RDB_TF_SIGNAL || h.type == RDB_TF_STOP ||
		    h.type == RDB_TF_SWITCH || h.type == RDB_TF_THREAD) {
			rdb_replay_diverged("at syscall #%lu (%s) of thread %u: the recording reached %s "
			                    "first", (unsigned long)RT->rr.sc_id, rdb_rr_name(nr),
			                    rdb_th_slot(),
			                    h.type == RDB_TF_SIGNAL ? "a signal" :
			                    h.type == RDB_TF_SWITCH ? "a thread switch" :
			                    h.type == RDB_TF_THREAD ? "a thread's start or end"
			                                            : "an interval boundary");
		}
		if (h.type != RDB_TF_TRAP || h.len != sizeof *t)
			rdb_die("replay: unexpected record type %u (%u bytes) at syscall #%lu\n",
			        h.type, h.len, (unsigned long)RT->rr.sc_id);
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


/* Replayed calls that run for real: syscalls.spec ADDRSPACE, REEXEC and
 * SIGSTATE (the signal state the runtime keeps).  (A signal the program
 * sends itself is not sent again: the trace delivers it, or ends the run
 * where its default action did, signal.c.) */
static int runs_first(long nr, const long *a)
{
	if (rdb_rr_file_mmap(nr, a) || rdb_rr_spawn(nr, a) || rdb_rr_moving_mremap(nr, a))
		return 0;
	return (rdb_systab_attrs(nr) &
	        (RDB_ATTR_ADDRSPACE | RDB_ATTR_REEXEC | RDB_ATTR_SIGSTATE)) != 0;
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
	uint64_t m = *(const uint64_t *)a[0] & ~(RT->signal.reserved_sigs | (1ull << (RDB_SIGSEGV - 1)));
	uint64_t old = 0;
	rdb_sys4(__NR_rt_sigprocmask, RDB_SIG_SETMASK, &m, &old, 8);
	rdb_set_mask(old);
}

static long replay_call(long nr, const long *a)
{
	rdb_kids_drain(); /* a fork child's output before the call */
	if (nr == __NR_rt_sigsuspend) /* (logic of its own: the one replayed wait) */
		replay_sigsuspend(a);
	int first = runs_first(nr, a);
	long r = first ? rdb_run_syscall(nr, a, 0) : 0;
	uint64_t id = ++RT->rr.sc_id;
	struct rdb_tf_trap t;
	next_trap(&t, nr, a);
	/* the planes as the recording had them */
	rdb_rr_mark_kernel_reads(nr, a, t.ret, (t.flags & RDB_TF_TRAP_WHASH) != 0);
	if (RT->start.debug > 1)
		rdb_printf("rdb: #%lu %s at count %lu\n", (unsigned long)id, rdb_rr_name(nr),
		           (unsigned long)rdb_sic());
	if (t.id != id)
		diverged(id, &t, nr, a, "the trace skips a syscall id");
	if (t.nr != nr)
		diverged(id, &t, nr, a, "a different syscall");
	for (int i = 0, n = rdb_systab_nargs(nr); i < n; i++)
		if (t.args[i] != a[i])
			diverged(id, &t, nr, a, "different arguments");
	uint64_t wh;
	if (RT->chan.verify && (t.flags & RDB_TF_TRAP_WHASH) && rdb_whash(nr, a, t.ret, &wh) &&
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
	if (rdb_rr_file_mmap(nr, a) && !(t.ret < 0 && t.ret > -4096)) {
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
	if (rdb_rr_moving_mremap(nr, a)) {
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
	if (rdb_rr_spawn(nr, a))
		return t.ret;
	if (rdb_rr_std_write(nr, a) && !RT->chan.quiet)
		rdb_sys6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	copy_data(&t, nr, a);
	return t.ret;
}

/* Then what the recording has after the call: shared memory others
 * changed, fork children's output (children.c, shared.c). */
long rdb_replay_syscall(long nr, const long *a)
{
	rdb_sched_replay_block(nr); /* the recording's thread switch there (sched.c) */
	return rdb_replay_syscall_rest(nr, a);
}

long rdb_replay_syscall_rest(long nr, const long *a)
{
	long r = replay_call(nr, a);
	rdb_shared_track(nr, a, r);
	rdb_kids_drain();
	return r;
}
