/* record.c: the recording of syscalls.  Each syscall runs as usual, then
 * its TRAP record and one DATA record per region the kernel wrote go on
 * the channel (chan.c); the dispatch comes here through rdb_rr_syscall
 * (rr.c).  vfork and clone(CLONE_VFORK) run as a fork; a clone sharing our
 * memory is made by syscall.S as a thread (sched.c), its TRAP recorded here.
 * Also the recording's early end (a table that cannot grow). */
#include "rt.h"

#define FD RDB_CHAN_FD

/* The recording ends here and the program runs on unrecorded (interval.c
 * stop_tracing): rdb sees the channel close.  Signals waiting for a check
 * go back to the kernel, which delivers them now. */
void rdb_record_stop(void)
{
	rdb_chan_flush();
	RT->mode = 0;
	rdb_sys1(__NR_close, FD);
	rdb_sys1(__NR_close, RDB_VALUES_FD);
	for (int i = 0; i < TH->sig.npending; i++)
		rdb_signal_send_self(rdb_pending()[i].signo, rdb_pending()[i].info);
	TH->sig.npending = 0;
	RT->signal.nqueued = 0;
}

void rdb_record_limit(const char *what)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return;
	uint64_t old = rdb_block_all();
	rdb_interval_end(); /* the interval's values, up to here */
	struct rdb_tf_note n = {RDB_TF_NOTE_STOPPED, 0, RT->rr.sc_id, 0};
	rdb_chan_put(RDB_TF_NOTE, &n, sizeof n, 0, 0);
	rdb_printf("rdb: %s: the recording stops after syscall #%lu, the program runs on "
	           "unrecorded\n", what,
	           (unsigned long)RT->rr.sc_id);
	rdb_record_stop();
	rdb_set_mask(old);
}


/* One DATA record per region, in pieces of at most DATA_PIECE bytes: a
 * record's length is 32 bits, and rdb holds a record whole in a frame
 * (a read of 2 GiB, a file mapping of any size). */
#define DATA_PIECE (RDB_TF_MAX_PAYLOAD)

static void add_region(uintptr_t a, size_t n)
{
	do {
		size_t k = n < DATA_PIECE ? n : DATA_PIECE;
		if (!rdb_grow(RDB_G_REGIONS, (RT->record.nreg + 1) * sizeof RT->record.reg[0])) {
			RT->record.reg_full = 1; /* record() stops the recording */
			return;
		}
		RT->record.reg[RT->record.nreg].addr = a;
		RT->record.reg[RT->record.nreg].len = k;
		RT->record.nreg++;
		a += k;
		n -= k;
	} while (n);
}

/* A shared fd table, signal handlers or cwd without CLONE_THREAD nor
 * CLONE_VM with a stack of its own cannot run as a fork (rr.c
 * rdb_rr_spawn: the untraced child would close or move the runtime's fds
 * in the parent's table, its cwd) nor as a thread: refused while
 * recording.  (A clone sharing our memory is made by syscall.S and
 * sched.c, which then records its TRAP here.) */
static int is_refused_clone(long nr, const long *a)
{
	return nr == __NR_clone && !(a[0] & RDB_CLONE_THREAD) && !rdb_rr_clone_made(nr, a) &&
	       (a[0] & (RDB_CLONE_SIGHAND | RDB_CLONE_FILES | RDB_CLONE_FS));
}

/* An exec from a process sharing our memory (CLONE_THREAD left out: a
 * thread of the recording): its new image would leave our memory holding
 * the token, and replay could not follow it.  Refused while recording
 * (docs/threads.md "Not done yet"). */
static int is_refused_exec(long nr)
{
	return (rdb_systab_attrs(nr) & RDB_ATTR_EXECS) && rdb_th_slot() && !TH->thread_group;
}

#define CLONE_PARENT_SETTID 0x00100000

/* The spawn as a fork: without CLONE_VM, on a copy of our stack; the parent
 * still waits for the child's exec or exit (CLONE_VFORK, if asked).  The
 * child, in its own copy of this state, stops tracing; for a clone with a
 * new stack, syscall.S moves it there right after the dispatch, before
 * its SIC check, where a recording of the child starts (clone_sp). */
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
	struct rdb_tf_note n = {kind, 0, RT->rr.sc_id, value};
	rdb_chan_put(RDB_TF_NOTE, &n, sizeof n, 0, 0);
}

/* A handler of the program may run on the return of any of our syscalls
 * and record its own, and a terminating signal makes the runtime append
 * its own record: signals stay blocked while a record is built and sent,
 * the id is taken after the call, and regions are a stack (base .. nreg),
 * so records come out whole and in id order. */
long rdb_record_syscall(long nr, const long *a)
{
	struct rdb_tf_trap t;
	t.nr = nr;
	for (int i = 0; i < 6; i++)
		t.args[i] = a[i];
	t.flags = 0;
	t.whash = 0;
	size_t base = RT->record.nreg;
	long r;
	if (is_refused_clone(nr, a)) {
		if (!RT->record.spawn_warned++)
			rdb_printf("rdb: clone with CLONE_SIGHAND, CLONE_FILES or CLONE_FS whose "
			           "child is not a thread of the recording (CLONE_VM and a new "
			           "stack, no CLONE_VFORK) is not recorded: it fails with ENOSYS, "
			           "and the recording goes on without it\n");
		send_note(RDB_TF_NOTE_SPAWN, RT->rr.sc_id + 1);
		r = -RDB_ENOSYS;
	} else if (is_refused_exec(nr)) {
		if (!RT->record.exec_warned++)
			rdb_printf("rdb: exec from a process made with CLONE_VM but not CLONE_THREAD "
			           "is not recorded: it fails with ENOSYS, and the recording goes on "
			           "without it\n");
		r = -RDB_ENOSYS;
	} else if (rdb_rr_clone_made(nr, a)) {
		/* made already (sched.c): the kernel wrote the child's tid */
		r = RT->sched.clone_ret;
		if (r > 0 && (a[0] & CLONE_PARENT_SETTID) && rdb_covered((uintptr_t)a[2], 4)) {
			rdb_shadow_syswrite((uintptr_t)a[2], 4);
			add_region((uintptr_t)a[2], 4);
		}
	} else {
		unsigned at = rdb_systab_attrs(nr); /* syscalls.spec EXECS, CLOSES, FORKS */
		if (at & RDB_ATTR_EXECS) {
			if (RT->children.kid) /* a fork child recording itself (join.c) */
				rdb_kids_exec_fds(nr, a);
			rdb_interval_exec(); /* values of the interval if it succeeds */
			t.id = RT->rr.sc_id + 1;
			t.ret = 0;
			t.ndata = 0;
			rdb_chan_put(RDB_TF_EXEC, &t, sizeof t, 0, 0);
			rdb_chan_flush();
		}
		if (at & RDB_ATTR_CLOSES)
			rdb_interval_fds_shut(); /* the file may be its last reference */
		int forks = (at & RDB_ATTR_FORKS) != 0;
		if (forks)
			rdb_kids_prefork();
		r = rdb_rr_spawn(nr, a) ? run_spawn(nr, a) : rdb_run_syscall(nr, a, add_region);
		if (r > 0 && RT->children.kid && rdb_rr_std_write(nr, a))
			rdb_kids_capture(nr, a, r); /* a descendant recording itself */
		if (at & RDB_ATTR_EXECS)
			rdb_interval_exec_failed(); /* it returned */
		if (forks && r == 0) {
			/* The child runs untraced (the parent's record says so) but
			 * sends its output to the recording's stdout and stderr;
			 * below rdb record it records itself too (join.c). */
			/* A clone child on a stack of its own (posix_spawn,
			 * system) too: syscall.S moves it there before the check
			 * where its recording starts. */
			/* A fork while threads live too: the child has only the
			 * caller (rdb_sched_forked).  A child of a thread other
			 * than the main one keeps its slot: its first boundary is
			 * one while threads live (a THCTX naming that slot the
			 * holder), and its replay makes that thread again in its
			 * slot, as replay --from does (threvive.c); with
			 * RDB_THREAD_BOUNDARIES=0 it runs untraced. */
			rdb_sched_forked();
			int snap_ok = RT->intervals.snap_ok && RT->chan.forks &&
			              (rdb_sched_alone() || RT->sched.thbound);
			rdb_kids_child_start();
			rdb_join_fork(snap_ok);
			return 0;
		}
		if (forks && r > 0)
			send_note(RDB_TF_NOTE_FORK, r); /* id: the syscall before the fork */
		if (rdb_rr_file_mmap(nr, a) && !(r < 0 && r > -4096) && (a[2] & RDB_PROT_READ)) {
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
	if (RT->chan.checksum && rdb_whash(nr, a, r, &t.whash))
		t.flags |= RDB_TF_TRAP_WHASH;
	rdb_rr_mark_kernel_reads(nr, a, r, (t.flags & RDB_TF_TRAP_WHASH) != 0);
	rdb_shared_track(nr, a, r);
	if (RT->start.debug > 1)
		rdb_printf("rdb: #%lu %s at count %lu\n", (unsigned long)RT->rr.sc_id + 1, rdb_rr_name(nr),
		           (unsigned long)rdb_sic());
	uint64_t old = rdb_block_all();
	if (RT->record.reg_full) {
		RT->record.reg_full = 0;
		rdb_record_limit("the list of regions a syscall wrote cannot grow (no memory for it)");
	}
	t.id = ++RT->rr.sc_id;
	t.ret = r;
	t.ndata = (uint32_t)(RT->record.nreg - base);
	rdb_chan_put(RDB_TF_TRAP, &t, sizeof t, 0, 0);
	for (size_t i = base; i < RT->record.nreg && RT->mode; i++) {
		struct rdb_tf_data d = {t.id, RT->record.reg[i].addr, RT->record.reg[i].len};
		rdb_chan_put(RDB_TF_DATA, &d, sizeof d, (const void *)RT->record.reg[i].addr, RT->record.reg[i].len);
	}
	rdb_shared_sync(t.id, nr, a, r);
	rdb_chan_flush();
	RT->record.nreg = base;
	rdb_set_mask(old);
	return r;
}
