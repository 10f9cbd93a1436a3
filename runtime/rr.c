/* rr.c: the dispatch's entry in record or replay mode (RT->mode != 0):
 * rdb_rr_syscall sends each program syscall to the recording (record.c)
 * or the replay (sysreplay.c); exit goes through rdb_run_term first.  And
 * what both sides ask of a call: whether it is a spawn, a file mapping,
 * a moving mremap, a write to stdout or stderr, which memory the kernel
 * reads in it.  The facts come from syscalls.spec (rdb_systab_fact); the
 * predicates that name a syscall here are logic of that one call's
 * arguments (mmap's flags, mremap's, clone's, close_range's range). */
#include "rt.h"

#define FD RDB_CHAN_FD

const char *rdb_rr_name(long nr)
{
	const char *n = rdb_systab_name(nr);
	return n ? n : "?";
}

int rdb_rr_file_mmap(long nr, const long *a)
{
	return nr == __NR_mmap && !(a[3] & RDB_MAP_ANONYMOUS) && (int)a[4] >= 0;
}

/* An mremap the kernel may move to an address of its choice: replay moves
 * it where the recording's went.  (The kernel's choice depends on what is
 * mapped around it, and replay's stand-in for a file mapping, anonymous
 * and private, is not the recording's: SQLite's growing database mapping
 * went elsewhere in replay.) */
int rdb_rr_moving_mremap(long nr, const long *a)
{
	return nr == __NR_mremap && (a[3] & RDB_MREMAP_MAYMOVE) && !(a[3] & RDB_MREMAP_FIXED);
}

/* A clone the entry stub makes itself while recording or replaying
 * (syscall.S .Lrr): CLONE_VM with a new stack and without CLONE_VFORK, a
 * thread or a process sharing our memory; either runs as a thread of the
 * recording (sched.c), and the dispatch only records or replays its TRAP. */
int rdb_rr_clone_made(long nr, const long *a)
{
	return nr == __NR_clone && a[1] && (a[0] & RDB_CLONE_VM) && !(a[0] & RDB_CLONE_VFORK);
}

/* vfork and clone(CLONE_VM | CLONE_VFORK) (posix_spawn, system) would
 * share our memory, this state and the channel with a child that runs
 * untraced while we sleep, and whose contract is to exec or _exit: they
 * run as a fork instead (record.c run_spawn), and so does a clone with a
 * new stack that does not share our memory. */
int rdb_rr_spawn(long nr, const long *a)
{
	return nr == __NR_vfork || (nr == __NR_clone && !(a[0] & RDB_CLONE_THREAD) &&
	                            !rdb_rr_clone_made(nr, a) && ((a[0] & RDB_CLONE_VM) || a[1]));
}

/* A call that writes bytes of memory (syscalls.spec SENDS) into a file
 * (FILEWRITE, whose fd is an argument): write, writev, pwrite*. */
int rdb_rr_std_write(long nr, const long *a)
{
	int fd = rdb_systab_wfd(nr);
	return fd >= 0 && (rdb_systab_attrs(nr) & RDB_ATTR_SENDS) && (a[fd] == 1 || a[fd] == 2);
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
void rdb_rr_mark_kernel_reads(long nr, const long *a, long r, int hashed)
{
	long v[4];
	if (hashed || rdb_rr_std_write(nr, a))
		rdb_whash_regions(nr, a, r, 1, mark_read, 0);
	else if (rdb_systab_fact(RDB_FACT_SIGSTATE, nr, a, r, v)) /* syscalls.spec SIGSTATE */
		rdb_shadow_read((uintptr_t)v[0], (size_t)v[1]);
}

/* ---- the dispatch's entry -------------------------------------------- */

/* A close_range over the runtime's fds (FD .. RDB_KID_LOCK_FD): split
 * around them (here and children.c).  Logic of close_range's own. */
int rdb_rr_closes_ours(long nr, const long a[6])
{
	return nr == __NR_close_range && (unsigned long)a[0] <= RDB_KID_LOCK_FD &&
	       (unsigned long)a[1] >= FD;
}

int rdb_rr_hidden(long nr, const long a[6])
{
	if (rdb_rr_closes_ours(nr, a))
		return 0; /* split below */
	/* The values socket and the fork children's fds: hidden in replay
	 * too, so the calls agree. */
	return rdb_kids_hidden(nr, a);
}

long rdb_rr_syscall(long nr, const long a[6])
{
	if (rdb_thread_syscall(nr, a)) /* a thread's end (thread.c): not the process's */
		return 0;
	if (rdb_rr_closes_ours(nr, a)) {
		/* Leave the channel, the values socket and the fork children's
		 * fds (FD .. RDB_KID_LOCK_FD) open: two ranges around them (two
		 * records). */
		int rec = RT->mode == RDB_TF_MODE_RECORD;
		long lo[6] = {a[0], FD - 1, a[2], 0, 0, 0};
		long hi[6] = {RDB_KID_LOCK_FD + 1, a[1], a[2], 0, 0, 0};
		long r = 0;
		if ((unsigned long)a[0] < FD)
			r = rec ? rdb_record_syscall(nr, lo) : rdb_replay_syscall(nr, lo);
		if (r == 0 && (unsigned long)a[1] > RDB_KID_LOCK_FD)
			r = rec ? rdb_record_syscall(nr, hi) : rdb_replay_syscall(nr, hi);
		return r;
	}
	if (rdb_systab_attrs(nr) & RDB_ATTR_EXITS) {
		rdb_run_term((int)a[0] & 0xff, 0);
		if (RT->mode == RDB_TF_MODE_RECORD) {
			rdb_chan_flush();
			return rdb_run_syscall(nr, a, 0);
		}
	}
	if (RT->mode == RDB_TF_MODE_RECORD)
		return rdb_record_syscall(nr, a);
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		int was = TH->watch_sys; /* watch.c: what the call writes is the kernel's */
		TH->watch_sys = 1;
		long r = rdb_replay_syscall(nr, a);
		TH->watch_sys = was;
		return r;
	}
	return rdb_run_syscall(nr, a, 0);
}
