/* target.c: one replay under rdb's control, for the gdb server.  rdb is
 * the program's tracer (ptrace) and hides the runtime from gdb entirely:
 *   - gdb sees only program code stop: a step that enters the runtime (a
 *     call into __rdb_syscall or a helper, a SIC check's fault, a signal
 *     taken by the runtime's handler) runs on until the runtime returns
 *     into program code, by a `ret` (a breakpoint at the return address)
 *     or by rt_sigreturn (syscall stops: its exit into program code);
 *   - the SIC check's SIGSEGV (docs/hooks.md) is passed to the runtime,
 *     never reported;
 *   - registers are never written (a replay is the recorded run);
 *   - the trap flag a single step of pushf saves, or of popf restores, is
 *     cleaned from the program's flags image.
 * The program stops at an exact SIC count without stepping: at a stop,
 * %r15 and the runtime's sic_origin move together (the count stays) so
 * that the check after the wanted count is the one that faults.
 * Threads (docs/gdb.md "Threads"): every thread of the replay is traced;
 * one runs the program at a time (the runtime's token), and rdb follows
 * the one whose stop came last (t->cur); counts are each thread's own
 * (its slot's origin).  A count wanted of a thread that waits for the
 * token is the runtime's to arm when that thread goes on (want_runtime). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>

#include "gdbserver.h"
#include "symtab.h"
#include "layout.h"
#include "planeop.h"

enum { MAXBP = 1024, MAXIV = 4096, NRETS = 16, MAXDYING = 64, MAXWP = 256, MAXPIECE = 4096,
       MAXBYTES = 16384 };

/* One start of a replay (rdb_tg_start): the checkpoints cloned from it
 * and the replay share its channel; rdb keeps its own end of it. */
struct launch {
	uint64_t from, to;
	int quiet, chan, refs;
	uint32_t flags; /* its HELLO's: a checkpoint's copy is fed the same */
};

struct rdb_ck {
	pid_t pid;
	struct launch *ln;
	uint64_t chan_in; /* bytes of the channel it had read */
	uint64_t rets[NRETS];
	uint64_t (*swr)[3]; /* the plane ranges it has protected (shadow watches) */
	int nswr;
};

/* A watchpoint of gdb's, and its value when the program last resumed
 * (a hit that changed it was a write). */
struct wp {
	uint64_t addr, len;
	int kind;
	int stack; /* stores through %rsp may write it (rdb_tg_stacky; -1: not asked yet) */
	uint8_t *old;
};
/* One aligned piece of a watchpoint: a debug register's worth. */
struct piece {
	uint64_t addr;
	int len, w;
};

/* A thread of the replay, traced (PTRACE_O_TRACECLONE): one runs the
 * program at a time (the runtime's token, docs/threads.md); rdb follows
 * the one that stopped last. */
struct thr {
	pid_t tid;
	int fresh;                 /* made, its first stop (SIGSTOP) not seen yet */
	long nr;                   /* the syscall it entered (syscall stops), or -1 */
	enum __ptrace_request req; /* how it was resumed last */
};

struct rdb_tg {
	const char *dir;
	struct rdb_header h;
	uint64_t last; /* the last interval a replay can start at */
	pid_t pid, feeder;
	pid_t cur;         /* the thread stopped: registers, steps (the process: pid) */
	struct thr *th;    /* every thread of the replay */
	int nth, capth;
	int sysstops;      /* syscall stops are the caller's (through_runtime) */
	uint64_t want_slot, want_born; /* rdb_tg_cont's want: that thread's count */
	uint64_t moves;    /* resumes and new replays so far (rdb_tg_moves) */
	struct rdb_births *births;
	struct launch *ln; /* the replay's */
	uint64_t sc_insn;  /* a syscall instruction of the runtime's (link address) */
	int memfd;
	int alive;       /* pid is a stopped tracee */
	struct rdb_tg_stop end;
	uint64_t bias;
	uint64_t rt_lo, rt_hi, musl_start, rdb_syscall; /* link addresses */
	struct user_regs_struct regs;
	int have_regs;
	int sig;                   /* to deliver at the next resume */
	uint64_t bp[MAXBP];
	uint8_t bp_orig[MAXBP + 2];
	int nbp, bp_in, bp_on;
	uint64_t temp;             /* a temporary breakpoint (0: none) */
	uint64_t sysbp;            /* __rdb_syscall's entry, while watching (0: none) */
	int quiet_sigs;
	uint64_t pass;             /* signals gdb does not stop for (QPassSignals) */
	int noted;                 /* a signal the runtime delivered while it ran */
	int (*intr)(void *);
	void *intr_ctx;
	uint64_t start_pc[MAXIV];  /* each interval's first pc, as seen */
	uint64_t rets[NRETS];      /* return addresses of calls into the runtime */
	unsigned nrets;
	/* replays and checkpoints killed and not reaped yet: the kernel frees
	 * a big program's memory meanwhile (a replay's step back need not
	 * wait for it) */
	pid_t dying[MAXDYING];
	int ndying;
	struct wp wp[MAXWP];
	int nwp, wp_on, group;
	struct piece *pieces;
	int npieces;
	uint64_t dr[4], dr7;       /* what the tracee's debug registers hold */
	int dr_set;                /* ... once written in this replay */
	int snap;                  /* the watchpoints' values taken in this replay */
	struct rdb_tg_stop pend;   /* a hit in the runtime: reported in program code */
	struct rdb_pos entry;      /* the program's call into the runtime (pc 0: none) */
	/* watches through the shadow pages (no debug registers that fire):
	 * the plane ranges protected in this replay (lo, hi, prot: the S
	 * plane's read-only, the R plane's inaccessible); a hook's access
	 * that touched watched bytes, its program access still to come (the
	 * watchpoint + 1); the pages opened while the runtime runs; the
	 * last hook rdb did was a read's check (its jne is the hook's too) */
	uint64_t (*swr)[3];
	int nswr, swhit, swopen, swcheck;
	/* a program instruction's access to a read or access watchpoint's
	 * bytes on the stack (index + 1), run by sw_prog; instructions on
	 * inaccessible stack pages memaccess.c could not decode */
	int swphit;
	/* this session's faults of program instructions on watched stack
	 * pages: all, done by rdb, not decoded (monitor info) */
	unsigned long swfaults, swdone, swunknown;
};

static const unsigned char check_insn[4] = {RDB_SIC_CHECK_BYTES};

static void bury(struct rdb_tg *t, pid_t pid);
static void end_replay(struct rdb_tg *t, int keep_feeder);
static int parked_regs(struct rdb_tg *t, uint32_t k, uint32_t how, struct user_regs_struct *r);

/* ---- the image: where the runtime's code lies ----------------------------- */

static int runtime_symbol(void *ctx, const char *name, const GElf_Sym *s)
{
	struct rdb_tg *t = ctx;
	if (!s->st_value)
		return 0;
	if (!strcmp(name, "__musl_start")) /* an assembly label, no type */
		t->musl_start = s->st_value;
	if (!strcmp(name, "__rdb_syscall"))
		t->rdb_syscall = s->st_value;
	if (GELF_ST_TYPE(s->st_info) != STT_FUNC ||
	    (strncmp(name, "rdb_", 4) && strncmp(name, "__rdb_", 6)))
		return 0;
	if (s->st_value < t->rt_lo)
		t->rt_lo = s->st_value;
	if (s->st_value + s->st_size > t->rt_hi)
		t->rt_hi = s->st_value + s->st_size;
	return 0;
}

/* The runtime's functions (rdb_*, __rdb_*) lie together, between the
 * program's objects and libc's (rdb-cc links librdb.a there): the code
 * from the first to the end of the last is the runtime's. */
static void read_image(struct rdb_tg *t)
{
	int fd = open(t->h.image, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		rdb_fatal("%s: %s", t->h.exe, strerror(errno));
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e)
		rdb_fatal("%s: not an ELF file: %s", t->h.exe, elf_errmsg(-1));
	t->rt_lo = UINT64_MAX;
	rdb_symtab_each(e, runtime_symbol, t);
	elf_end(e);
	close(fd);
	if (t->rt_lo >= t->rt_hi || !t->musl_start)
		rdb_fatal("%s: no symbols of rdb's runtime or no __musl_start: not built with "
		          "rdb-cc, or stripped", t->h.exe);
}


struct rdb_tg *rdb_tg_new(const char *dir)
{
	struct rdb_tg *t = rdb_xmalloc(sizeof *t);
	memset(t, 0, sizeof *t);
	t->dir = dir;
	t->memfd = -1;
	rdb_read_header(dir, &t->h);
	if (!t->h.have_random)
		rdb_fatal("%s: the program never started under rdb: nothing to replay", dir);
	rdb_replay_check_buildid(dir, &t->h);
	if (!t->h.have_exit) {
		rdb_warn("%s: no exit file: the recording was cut short", dir);
		t->h.exit.how = RDB_TF_EXIT_SIGNAL;
		t->h.exit.value = SIGKILL;
		t->h.exit.cut = 1;
	}
	struct rdb_ivx *x = rdb_ivx_read(dir);
	t->last = rdb_feed_last_complete(dir, x);
	if (!t->last)
		t->last = 1;
	rdb_ivx_free(x);
	read_image(t);
	t->births = rdb_births_read(dir);
	t->bp_on = 1;
	t->wp_on = 1;
	return t;
}

const struct rdb_header *rdb_tg_header(const struct rdb_tg *t) { return &t->h; }
uint64_t rdb_tg_last_interval(const struct rdb_tg *t) { return t->last; }
int rdb_tg_alive(const struct rdb_tg *t) { return t->alive; }
pid_t rdb_tg_pid(const struct rdb_tg *t) { return t->pid; }
const char *rdb_tg_dir(const struct rdb_tg *t) { return t->dir; }

uint64_t rdb_tg_start_pc(const struct rdb_tg *t, uint64_t interval)
{
	return interval < MAXIV ? t->start_pc[interval] : 0;
}

static int in_rt(const struct rdb_tg *t, uint64_t pc)
{
	return pc - t->bias >= t->rt_lo && pc - t->bias < t->rt_hi;
}

/* ---- ptrace ------------------------------------------------------------- */

/* RDB_GDB_DEBUG=1: each stop on stderr. */
static void trace_stop(struct rdb_tg *t, const char *where, int st)
{
	static int on = -1;
	if (on < 0)
		on = getenv("RDB_GDB_DEBUG") != NULL;
	if (!on)
		return;
	struct user_regs_struct r;
	ptrace(PTRACE_GETREGS, t->cur, NULL, &r);
	fprintf(stderr, "rdb-gdb: %s: thread %d status %#x pc %#llx%s\n", where, (int)t->cur, st,
	        (unsigned long long)r.rip, in_rt(t, r.rip) ? " (runtime)" : "");
}

static int fail(struct rdb_tg *t, struct rdb_tg_stop *s, const char *what)
{
	rdb_warn("gdb server: %s (pid %d): %s", what, (int)t->pid, strerror(errno));
	s->kind = TG_ERROR;
	return -1;
}

static int get_regs(struct rdb_tg *t)
{
	if (t->have_regs)
		return 0;
	if (ptrace(PTRACE_GETREGS, t->cur, NULL, &t->regs))
		return -1;
	/* the trap flag is rdb's; the resume flag, a fault's (the program never
	 * sees it: pushf clears it) */
	t->regs.eflags &= ~0x10100ull;
	t->have_regs = 1;
	return 0;
}

static int set_reg(struct rdb_tg *t, size_t off, uint64_t v)
{
	t->have_regs = 0;
	return (int)ptrace(PTRACE_POKEUSER, t->cur, (void *)off, (void *)v);
}

static int peek(struct rdb_tg *t, uint64_t a, uint64_t *v)
{
	return rdb_tg_read(t, a, v, 8) == 8 ? 0 : -1;
}

static int poke(struct rdb_tg *t, uint64_t a, uint64_t v)
{
	return (int)ptrace(PTRACE_POKEDATA, t->cur, (void *)a, (void *)v);
}

/* One byte of text, through the word around it. */
static int poke_byte(struct rdb_tg *t, uint64_t a, uint8_t b, uint8_t *old)
{
	errno = 0;
	long w = ptrace(PTRACE_PEEKTEXT, t->cur, (void *)a, NULL);
	if (errno)
		return -1;
	if (old)
		*old = (uint8_t)w;
	w = (long)(((unsigned long)w & ~0xfful) | b);
	return (int)ptrace(PTRACE_POKETEXT, t->cur, (void *)a, (void *)w);
}

static struct thr *thr_of(struct rdb_tg *t, pid_t tid)
{
	for (int i = 0; i < t->nth; i++)
		if (t->th[i].tid == tid)
			return &t->th[i];
	return NULL;
}

static struct thr *thr_add(struct rdb_tg *t, pid_t tid)
{
	if (t->nth == t->capth)
		t->th = rdb_xrealloc(t->th, (size_t)(t->capth = t->capth ? 2 * t->capth : 8) *
		                                sizeof *t->th);
	struct thr *h = &t->th[t->nth++];
	*h = (struct thr){tid, 0, -1, PTRACE_CONT};
	return h;
}

static void thr_drop(struct rdb_tg *t, pid_t tid)
{
	struct thr *h = thr_of(t, tid);
	if (h)
		*h = t->th[--t->nth];
}

/* Resumes thread tid (req, giving it sig), noted for its next events. */
static long resume_thr(struct rdb_tg *t, pid_t tid, enum __ptrace_request req, int sig)
{
	struct thr *h = thr_of(t, tid);
	if (h)
		h->req = req;
	t->moves++;
	return ptrace(req, tid, NULL, (void *)(long)sig);
}

/* A stop of a thread that is rdb's own business, handled here: 1 (the
 * thread resumed, or gone), 0 for the caller.  A new thread (a clone
 * event: its first SIGSTOP is to come), that first stop, a thread other
 * than the first one ending (the first one's end is the program's),
 * syscall stops unless the caller follows them.  (gdb's interrupt, a
 * SIGSTOP to the process, stops one thread: the kernel delivers it to
 * one, and rdb resumes that one without it.) */
static int background(struct rdb_tg *t, pid_t tid, int st)
{
	struct thr *h = thr_of(t, tid);
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (tid == t->pid)
			return 0;
		thr_drop(t, tid);
		if (t->cur == tid)
			t->cur = t->pid;
		return 1;
	}
	if (!WIFSTOPPED(st) || !h)
		return 0;
	if (st >> 16 == PTRACE_EVENT_CLONE) {
		unsigned long child = 0;
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &child) == 0 && !thr_of(t, (pid_t)child))
			thr_add(t, (pid_t)child)->fresh = 1;
		h = thr_of(t, tid); /* (the table may have moved) */
		resume_thr(t, tid, h->req, 0);
		return 1;
	}
	if (h->fresh && WSTOPSIG(st) == SIGSTOP) {
		h->fresh = 0;
		/* (while the caller follows syscalls: its way into the program
		 * by rt_sigreturn is seen) */
		resume_thr(t, tid, t->sysstops ? PTRACE_SYSCALL : PTRACE_CONT, 0);
		return 1;
	}
	if (WSTOPSIG(st) == (SIGTRAP | 0x80) && !t->sysstops) {
		resume_thr(t, tid, PTRACE_CONT, 0);
		return 1;
	}
	return 0;
}

/* Waits for a thread of the tracee to stop (it is t->cur then), polling
 * gdb's interrupt while it runs.  0 and *st, or -1 (ECHILD: gone). */
static int wait_tracee(struct rdb_tg *t, int *st, int *intr)
{
	t->have_regs = 0;
	for (int spins = 0;; spins++) {
		/* one thread: wait for it; several: poll each (waitpid(-1)
		 * would reap rdb's other children: the feeder, gdb) */
		int poll = t->intr || t->nth > 1;
		pid_t r = 0;
		for (int i = 0; i < (t->nth ? t->nth : 1) && r == 0; i++) {
			pid_t tid = t->nth ? t->th[i].tid : t->pid;
			r = waitpid(tid, st, __WALL | (poll ? WNOHANG : 0));
			if (r < 0 && errno == ECHILD && tid != t->pid) {
				thr_drop(t, tid); /* (reaped already) */
				r = 0;
				break;
			}
		}
		if (r > 0) {
			if (background(t, r, *st))
				continue;
			t->cur = r;
			t->have_regs = 0;
			if (WIFSTOPPED(*st))
				trace_stop(t, "stop", *st);
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0) {
			int i = t->intr ? t->intr(t->intr_ctx) : 0;
			if (i && !*intr) {
				*intr = i;
				kill(t->pid, SIGSTOP);
			}
			struct timespec ts = {0, spins < 50 && !t->intr ? 0 : spins < 1000 ? 20000 : 1000000};
			if (ts.tv_nsec)
				nanosleep(&ts, NULL);
			else
				sched_yield();
		}
	}
}

static void ended(struct rdb_tg *t, int st, struct rdb_tg_stop *s)
{
	t->alive = 0;
	s->kind = TG_EXITED;
	s->sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	s->value = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	t->end = *s;
	if (t->memfd >= 0)
		close(t->memfd);
	t->memfd = -1;
	/* its feed is over: rdb's end of the channel (and checkpoints' ends)
	 * stay open, so a feeder with more to write would wait for good */
	int fs;
	if (t->feeder > 0) {
		kill(t->feeder, SIGKILL);
		while (waitpid(t->feeder, &fs, 0) < 0 && errno == EINTR)
			;
	}
	t->feeder = 0;
}

/* Resumes the tracee (PTRACE_SINGLESTEP, or PTRACE_CONT giving it sig)
 * and waits for its next stop: the stop's signal, with the registers read;
 * -1 once s says the tracee ended or a call failed.  *intr: gdb's
 * interrupt came meanwhile (wait_tracee). */
static int resume_wait(struct rdb_tg *t, struct rdb_tg_stop *s,
                       enum __ptrace_request req, int sig, int *intr)
{
	int st;
	if (resume_thr(t, t->cur, req, sig))
		return fail(t, s, req == PTRACE_CONT ? "ptrace(PTRACE_CONT)"
		                                     : "ptrace(PTRACE_SINGLESTEP)"), -1;
	if (wait_tracee(t, &st, intr))
		return fail(t, s, "waitpid"), -1;
	if (WIFEXITED(st) || WIFSIGNALED(st))
		return ended(t, st, s), -1;
	if (get_regs(t))
		return fail(t, s, "ptrace(PTRACE_GETREGS)"), -1;
	return WSTOPSIG(st);
}

/* ---- breakpoints ---------------------------------------------------------- */

int rdb_tg_bp_at(const struct rdb_tg *t, uint64_t addr)
{
	for (int i = 0; i < t->nbp; i++)
		if (t->bp[i] == addr)
			return 1;
	return 0;
}

int rdb_tg_bp_get(const struct rdb_tg *t, int i, uint64_t *addr)
{
	if (i < 0 || i >= t->nbp)
		return 0;
	*addr = t->bp[i];
	return 1;
}

int rdb_tg_bp_add(struct rdb_tg *t, uint64_t addr)
{
	if (rdb_tg_bp_at(t, addr))
		return 0;
	if (t->nbp == MAXBP)
		return -1;
	t->bp[t->nbp++] = addr;
	return 0;
}

int rdb_tg_bp_del(struct rdb_tg *t, uint64_t addr)
{
	for (int i = 0; i < t->nbp; i++)
		if (t->bp[i] == addr) {
			t->bp[i] = t->bp[--t->nbp];
			return 0;
		}
	return -1;
}

void rdb_tg_bp_enable(struct rdb_tg *t, int on) { t->bp_on = on; }
void rdb_tg_temp_bp(struct rdb_tg *t, uint64_t addr) { t->temp = addr; }
void rdb_tg_quiet_signals(struct rdb_tg *t, int on) { t->quiet_sigs = on; }

void rdb_tg_on_interrupt(struct rdb_tg *t, int (*poll)(void *ctx), void *ctx)
{
	t->intr = poll;
	t->intr_ctx = ctx;
}

/* The breakpoints in effect: the user's (when on) and the temporary one. */
static int nbps(const struct rdb_tg *t) { return (t->bp_on ? t->nbp : 0) + 2; }
static uint64_t bp_addr(const struct rdb_tg *t, int i)
{
	if (i == nbps(t) - 1)
		return t->sysbp;
	return i < (t->bp_on ? t->nbp : 0) ? t->bp[i] : t->temp;
}

static int is_bp(const struct rdb_tg *t, uint64_t a)
{
	for (int i = 0; i < nbps(t); i++)
		if (a && bp_addr(t, i) == a)
			return 1;
	return 0;
}

static void insert_bps(struct rdb_tg *t)
{
	if (t->bp_in)
		return;
	for (int i = 0; i < nbps(t); i++) {
		uint64_t a = bp_addr(t, i);
		int dup = 0;
		for (int k = 0; k < i; k++)
			dup |= bp_addr(t, k) == a;
		if (a && !dup && poke_byte(t, a, 0xcc, &t->bp_orig[i]))
			t->bp_orig[i] = 0xcc; /* not inserted: nothing to restore */
	}
	t->bp_in = 1;
}

static void remove_bps(struct rdb_tg *t)
{
	if (!t->bp_in)
		return;
	for (int i = nbps(t) - 1; i >= 0; i--) {
		uint64_t a = bp_addr(t, i);
		int dup = 0;
		for (int k = 0; k < i; k++)
			dup |= bp_addr(t, k) == a;
		if (a && !dup && t->bp_orig[i] != 0xcc)
			poke_byte(t, a, t->bp_orig[i], NULL);
	}
	t->bp_in = 0;
}

/* ---- watchpoints ------------------------------------------------------------ */

/* The pieces of every watchpoint, in order: at each address the biggest
 * aligned 8, 4, 2 or 1 bytes that fit. */
static void split(struct rdb_tg *t)
{
	t->npieces = 0;
	for (int i = 0; i < t->nwp; i++)
		for (uint64_t a = t->wp[i].addr, e = a + t->wp[i].len; a < e;) {
			int n = 8;
			while (n > 1 && (a % (uint64_t)n || a + (uint64_t)n > e))
				n /= 2;
			if (t->npieces == MAXPIECE)
				return;
			t->pieces[t->npieces++] = (struct piece){a, n, i};
			a += (uint64_t)n;
		}
}

int rdb_tg_watch_add(struct rdb_tg *t, int kind, uint64_t addr, uint64_t len)
{
	if (!len || addr + len < addr || t->nwp == MAXWP)
		return -1;
	uint64_t pieces = 0;
	for (int i = 0; i < t->nwp; i++)
		pieces += t->wp[i].len;
	/* at most len / 8 + 6 pieces each: 16 KiB and 256 watchpoints fit */
	if (pieces + len > MAXBYTES)
		return -1;
	if (!t->pieces)
		t->pieces = rdb_xmalloc(MAXPIECE * sizeof *t->pieces);
	struct wp *w = &t->wp[t->nwp++];
	w->addr = addr;
	w->len = len;
	w->kind = kind;
	w->stack = -1;
	w->old = rdb_xmalloc(len);
	memset(w->old, 0, len);
	split(t);
	t->group = 0;
	return 0;
}

int rdb_tg_watch_del(struct rdb_tg *t, int kind, uint64_t addr, uint64_t len)
{
	for (int i = 0; i < t->nwp; i++)
		if (t->wp[i].kind == kind && t->wp[i].addr == addr && t->wp[i].len == len) {
			rdb_free(t->wp[i].old);
			t->wp[i] = t->wp[--t->nwp];
			split(t);
			t->group = 0;
			return 0;
		}
	return -1;
}

int rdb_tg_watch_shadow(void)
{
	static int shadow = -1;
	if (shadow < 0) {
		const char *e = getenv("RDB_GDB_WATCH");
		shadow = e && (!strcmp(e, "shadow") || !strcmp(e, "writes")) ? 1 : !rdb_hw_watch_works();
	}
	return shadow;
}

int rdb_tg_watch_reads(void)
{
	const char *e = getenv("RDB_GDB_WATCH");
	return !rdb_tg_watch_shadow() || !e || strcmp(e, "writes");
}

int rdb_tg_watch_groups(const struct rdb_tg *t)
{
	if (rdb_tg_watch_shadow())
		return t->npieces ? 1 : 0; /* the shadow pages see all at once */
	return (t->npieces + 3) / 4;
}
void rdb_tg_watch_group(struct rdb_tg *t, int group) { t->group = group; }
void rdb_tg_watch_enable(struct rdb_tg *t, int on) { t->wp_on = on; }
int rdb_tg_nbps(const struct rdb_tg *t) { return t->nbp; }

int rdb_tg_stacky(struct rdb_tg *t, uint64_t lo, uint64_t hi)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)t->pid);
	FILE *f = t->alive ? fopen(path, "r") : NULL;
	if (!f)
		return 1;
	uint64_t sp = get_regs(t) ? 0 : t->regs.rsp;
	int r = 0;
	while (!r && fgets(line, sizeof line, f)) {
		unsigned long long a, b;
		if (sscanf(line, "%llx-%llx", &a, &b) != 2)
			continue;
		int stack = strstr(line, "[stack]") != NULL || (sp >= a && sp < b);
		r = stack && lo < b && a < hi;
	}
	fclose(f);
	return r;
}

int rdb_tg_watch_stacky(struct rdb_tg *t, int i)
{
	struct wp *w = &t->wp[i];
	if (w->stack < 0 && t->alive)
		w->stack = rdb_tg_stacky(t, w->addr, w->addr + w->len);
	return w->stack < 0 ? 1 : w->stack;
}

void rdb_tg_stack_faults(const struct rdb_tg *t, unsigned long *all, unsigned long *done,
                         unsigned long *unknown)
{
	*all = t->swfaults, *done = t->swdone, *unknown = t->swunknown;
}

int rdb_tg_watch_get(const struct rdb_tg *t, int i, int *kind, uint64_t *addr, uint64_t *len)
{
	if (i < 0 || i >= t->nwp)
		return 0;
	*kind = t->wp[i].kind;
	*addr = t->wp[i].addr;
	*len = t->wp[i].len;
	return 1;
}

#define DR_OFF(i) (offsetof(struct user, u_debugreg) + (size_t)(i) * sizeof(long))

/* ---- watchpoints through the shadow pages --------------------------------------
 * Without debug registers that fire, the S plane pages under the watched
 * bytes are made read-only in the replay (an mprotect it is made to run).
 * Every hooked store of the program writes the S plane first (docs/hooks.md),
 * so each write to the data under those pages faults in its hook's store:
 * rdb does that store itself (swatch.c decodes it) and steps on; when it
 * marks watched bytes, the program's own store comes next and the stop is
 * after it.  The runtime's own writes to those pages (a syscall's results,
 * a string instruction's marks, a boundary's clearing) run one instruction
 * with the pages writable again.  Stores through %rsp have no hook: they
 * are not seen (docs/gdb.md). */

static long tracee_syscall(struct rdb_tg *t, long nr, uint64_t a, uint64_t b, uint64_t c);
static int put_regs(pid_t pid, const struct user_regs_struct *r);

/* A range's flag (beside its protection): the program's own pages, not
 * a plane's (write watches where stores through %rsp may go). */
#define SW_PROG 0x1000ull

/* The ranges' protection in the replay: each its own (open: read and
 * write for all). */
static int sw_protect(struct rdb_tg *t, uint64_t (*r)[3], int n, int open)
{
	for (int i = 0; i < n; i++) {
		uint64_t prot = open ? PROT_READ | PROT_WRITE : r[i][2] & ~SW_PROG;
		long e = tracee_syscall(t, SYS_mprotect, r[i][0], r[i][1] - r[i][0], prot);
		if (e) {
			rdb_warn("gdb server: watchpoints: mprotect of the %s pages %#llx-%#llx "
			         "in the replay (pid %d): %s", r[i][2] & SW_PROG ? "program's" : "shadow",
			         (unsigned long long)r[i][0],
			         (unsigned long long)r[i][1], (int)t->pid, strerror(e < 0 ? (int)-e : EIO));
			return -1;
		}
	}
	return 0;
}

/* The S plane pages of the write and access watchpoints (read-only)
 * and the R plane pages of the read and access ones (inaccessible: a
 * checked read hook compares first), sorted, merged: how many ranges in
 * *out (rdb_xmalloc'd).  The two planes never share a page.  A
 * watchpoint on the stack (accesses through %rsp have no hook, so its
 * planes would miss them) has the program's own pages instead (SW_PROG):
 * read-only for a write watchpoint (every write to them faults),
 * inaccessible for a read or access one (every access faults).  Those
 * are taken a page at a time, a page under both kinds inaccessible. */
static int sw_ranges(struct rdb_tg *t, uint64_t (**out)[3])
{
	size_t cap = (size_t)t->nwp * 2 + 1;
	for (int i = 0; t->wp_on && i < t->nwp; i++)
		cap += t->wp[i].len / 4096 + 2;
	uint64_t (*r)[3] = rdb_xmalloc(cap * sizeof *r);
	int n = 0;
	for (int i = 0; t->wp_on && i < t->nwp; i++) {
		struct wp *w = &t->wp[i];
		if (t->alive)
			rdb_tg_watch_stacky(t, i);
		for (int plane = 0; plane < 2; plane++) {
			int kind = w->kind, prog = w->stack > 0;
			if (prog ? plane : plane ? kind == 2 : kind == 3)
				continue; /* R plane for kinds 3 and 4, S for 2 and 4; the stack's once */
			uint64_t off = prog ? 0 : plane ? RDB_R_OFFSET : RDB_S_OFFSET;
			uint64_t lo = (w->addr - off) & ~0xfffull;
			uint64_t hi = ((w->addr + w->len - 1 - off) | 0xfff) + 1;
			uint64_t prot = plane || (prog && kind != 2) ? PROT_NONE : PROT_READ;
			for (uint64_t a = lo; a < hi; a = prog ? a + 4096 : hi) {
				int k = n++;
				while (k > 0 && r[k - 1][0] > a) {
					memcpy(r[k], r[k - 1], sizeof *r);
					k--;
				}
				r[k][0] = a, r[k][1] = prog ? a + 4096 : hi;
				r[k][2] = prot | (prog ? SW_PROG : 0);
			}
		}
	}
	int m = 0;
	for (int i = 0; i < n; i++)
		if (m && r[i][2] & SW_PROG && r[i][0] == r[m - 1][0] && r[i][1] == r[m - 1][1])
			r[m - 1][2] &= r[i][2]; /* (one page, both kinds: PROT_NONE) */
		else
			memcpy(r[m++], r[i], sizeof *r);
	int k = 0;
	for (int i = 0; i < m; i++)
		if (k && r[i][0] <= r[k - 1][1] && r[i][2] == r[k - 1][2]) {
			if (r[i][1] > r[k - 1][1])
				r[k - 1][1] = r[i][1];
		} else
			memcpy(r[k++], r[i], sizeof *r);
	*out = r;
	return k;
}

/* The replay's read-only pages made those of the watchpoints now. */
static void sw_arm(struct rdb_tg *t)
{
	uint64_t (*r)[3];
	int n = sw_ranges(t, &r);
	if (n == t->nswr && (!n || !memcmp(r, t->swr, (size_t)n * sizeof *r))) {
		rdb_free(r);
		return;
	}
	sw_protect(t, t->swr, t->nswr, 1);
	rdb_free(t->swr);
	t->swr = r;
	t->nswr = n;
	if (sw_protect(t, r, n, 0))
		rdb_warn("gdb server: watchpoints not armed");
}

/* The protected range a is in: its index, or -1. */
static int sw_in(const struct rdb_tg *t, uint64_t a)
{
	for (int i = 0; i < t->nswr; i++)
		if (a >= t->swr[i][0] && a < t->swr[i][1])
			return i;
	return -1;
}

/* The write (or access) watchpoint whose bytes' S plane [lo, hi)
 * touches: its index + 1, or 0 (a watchpoint on the stack: its
 * program's pages are watched instead, sw_prog). */
static int sw_which(const struct rdb_tg *t, uint64_t lo, uint64_t hi)
{
	for (int i = 0; t->wp_on && i < t->nwp; i++) {
		uint64_t a = t->wp[i].addr - RDB_S_OFFSET;
		if (t->wp[i].kind != 3 && t->wp[i].stack <= 0 && lo < a + t->wp[i].len && a < hi)
			return i + 1;
	}
	return 0;
}

/* The read (or access) watchpoint whose bytes [lo, hi) touches (program
 * addresses): its index + 1, or 0 (one on the stack: its program's pages
 * are watched instead, sw_access). */
static int sw_rwhich(const struct rdb_tg *t, uint64_t lo, uint64_t hi)
{
	for (int i = 0; t->wp_on && i < t->nwp; i++) {
		uint64_t a = t->wp[i].addr;
		if (t->wp[i].kind != 2 && t->wp[i].stack <= 0 && lo < a + t->wp[i].len && a < hi)
			return i + 1;
	}
	return 0;
}

/* A program instruction's store that faulted at fault on the watched
 * program pages of range in, done by rdb through ptrace when stackstore.c
 * knows its form and it writes no watched byte and nothing off the range
 * (else the caller runs it, sw_prog): 1 (%rip past it, the flags its), or
 * 0.  It costs no injected mprotect and no step. */
static int sw_store(struct rdb_tg *t, int in, uint64_t fault)
{
	uint8_t code[16];
	struct rdb_ss st;
	memset(code, 0, sizeof code);
	if (!rdb_tg_read(t, t->regs.rip, code, sizeof code) || !rdb_ss_decode(code, &t->regs, &st))
		return 0;
	uint64_t lo = st.ea, hi = st.ea + st.size;
	if (fault < lo || fault >= hi || lo < t->swr[in][0] || hi > t->swr[in][1])
		return 0; /* (not the decoded store's fault) */
	for (int i = 0; i < t->nwp; i++)
		if (lo < t->wp[i].addr + t->wp[i].len && t->wp[i].addr < hi)
			return 0;
	uint64_t w[2], a = lo & ~7ull, off = lo - a, old = 0, efl = t->regs.eflags;
	size_t nw = off + st.size > 8 ? 2 : 1;
	if (rdb_tg_read(t, a, w, nw * 8) != nw * 8)
		return 0;
	memcpy(&old, (uint8_t *)w + off, st.size);
	uint64_t res = rdb_ss_apply(&st, old, &efl);
	memcpy((uint8_t *)w + off, &res, st.size);
	for (size_t i = 0; i < nw; i++)
		if (poke(t, a + 8 * i, w[i]))
			return 0; /* (the first word: nothing written; the page's second cannot fail) */
	struct user_regs_struct r = t->regs;
	r.rip = st.jump ? st.jump : r.rip + st.len;
	r.rsp += (uint64_t)st.rsp;
	r.eflags = efl;
	if (put_regs(t->cur, &r))
		return 0;
	t->regs = r;
	return 1;
}

/* The read or access watchpoint on the stack that the decoded
 * accesses of a program instruction touch as it watches them (a read
 * for rwatch, a read or a write for awatch): its index + 1, or 0. */
static int sw_access(const struct rdb_tg *t, const struct rdb_ma *ma)
{
	for (int i = 0; t->wp_on && i < t->nwp; i++) {
		const struct wp *w = &t->wp[i];
		if (w->kind == 2 || w->stack <= 0)
			continue;
		for (int k = 0; k < ma->n; k++)
			if (ma->a[k].addr < w->addr + w->len && w->addr < ma->a[k].addr + ma->a[k].size &&
			    (w->kind == 4 || ma->a[k].rw & RDB_MA_READ))
				return i + 1;
	}
	return 0;
}

/* A program instruction's plain load (mov, movzx, movsx into a general
 * register, pop of one, ret) that faulted at fault on the inaccessible
 * program pages of range in, done by rdb through ptrace (which reads
 * them) when it reads nothing off the range and no watched byte: 1
 * (the registers as the instruction leaves them), or 0. */
static int sw_load(struct rdb_tg *t, int in, uint64_t fault, const struct rdb_ma *ma)
{
	if (!ma->load || getenv("RDB_GDB_STEP_LOADS"))
		return 0;
	uint64_t lo = ma->a[0].addr, hi = lo + ma->a[0].size, v = 0;
	if (fault < lo || fault >= hi || lo < t->swr[in][0] || hi > t->swr[in][1])
		return 0;
	for (int i = 0; i < t->nwp; i++)
		if (lo < t->wp[i].addr + t->wp[i].len && t->wp[i].addr < hi)
			return 0;
	if (rdb_tg_read(t, lo, &v, ma->a[0].size) != ma->a[0].size)
		return 0;
	struct user_regs_struct r = t->regs;
	rdb_ma_load(ma, v, &r);
	if (put_regs(t->cur, &r))
		return 0;
	t->regs = r;
	return 1;
}

/* A SIGSEGV stop: 0 if it is not an access to the pages rdb protected;
 * 3 for a program instruction's write to the program's own pages
 * (SW_PROG: the caller runs it, sw_prog), 4 for one done by rdb instead
 * (with store: sw_store); 1 for a hook's access, done
 * by rdb (%rip past it), with *hit the
 * watchpoint whose bytes it touched (its index + 1, or 0): a write
 * hook's store to the S plane, a read hook's store to or compare with
 * the R plane (the compare done as an equal one: the flags are what a
 * check leaves either way, docs/hooks.md, and the program's read comes
 * next, not the cold path); 2 for any other access (the runtime's own),
 * not done: the caller runs it with the pages open. */
static int sw_fault(struct rdb_tg *t, int *hit, int store)
{
	siginfo_t si;
	*hit = 0;
	int in;
	if (!t->nswr || ptrace(PTRACE_GETSIGINFO, t->cur, NULL, &si) || si.si_signo != SIGSEGV ||
	    (in = sw_in(t, (uint64_t)(uintptr_t)si.si_addr)) < 0 || get_regs(t))
		return 0;
	uint8_t code[16];
	struct rdb_planeop st;
	if (getenv("RDB_GDB_DEBUG"))
		fprintf(stderr, "rdb-gdb: shadow page fault at %p pc %#llx%s\n", si.si_addr,
		        (unsigned long long)t->regs.rip, in_rt(t, t->regs.rip) ? " (runtime)" : "");
	if (t->swr[in][2] & SW_PROG) {
		if (in_rt(t, t->regs.rip))
			return 2;
		t->swfaults++;
		uint64_t fault = (uint64_t)(uintptr_t)si.si_addr;
		if ((t->swr[in][2] & ~SW_PROG) == PROT_NONE) {
			/* a read or access watch: what the instruction touches */
			struct rdb_ma ma;
			memset(code, 0, sizeof code);
			rdb_tg_read(t, t->regs.rip, code, sizeof code);
			if (!rdb_ma_decode(code, sizeof code, &t->regs, &ma)) {
				t->swunknown++;
				return 3; /* (run: its writes are found by the values) */
			}
			if ((t->swphit = sw_access(t, &ma)))
				return 3;
			if (store && sw_load(t, in, fault, &ma))
				return t->swdone++, 4;
		}
		return store && sw_store(t, in, fault) ? t->swdone++, 4 : 3;
	}
	memset(code, 0, sizeof code);
	rdb_tg_read(t, t->regs.rip, code, sizeof code);
	if (!rdb_sw_decode(code, &t->regs, &st))
		return 2; /* (a wide access's helper in the runtime does a hook's) */
	uint64_t efl = t->regs.eflags, rip = t->regs.rip + st.len;
	if (st.op == RDB_PLANEOP_CMP)
		efl = rdb_planeop_equal_flags(efl);
	else {
		/* the store, done through ptrace (it writes protected pages) */
		uint64_t w[2], lo = st.ea & ~7ull, off = st.ea - lo, old = 0, res;
		int nw = off + st.size > 8 ? 2 : 1;
		if (rdb_tg_read(t, lo, w, (size_t)nw * 8) != (size_t)nw * 8)
			return 0;
		memcpy(&old, (uint8_t *)w + off, st.size);
		res = st.op == RDB_PLANEOP_OR ? old | st.src : st.src;
		memcpy((uint8_t *)w + off, &res, st.size);
		for (int i = 0; i < nw; i++)
			if (poke(t, lo + 8 * (uint64_t)i, w[i]))
				return 0;
		if (st.op == RDB_PLANEOP_OR)
			efl = rdb_planeop_or_flags(efl, res, st.size);
	}
	if ((efl != t->regs.eflags && set_reg(t, offsetof(struct user_regs_struct, eflags), efl)) ||
	    set_reg(t, offsetof(struct user_regs_struct, rip), rip))
		return 0;
	get_regs(t);
	t->swcheck = st.op == RDB_PLANEOP_CMP;
	if (st.plane == 'S')
		*hit = sw_which(t, st.ea, st.ea + st.size);
	else
		*hit = sw_rwhich(t, st.ea + RDB_R_OFFSET, st.ea + RDB_R_OFFSET + st.size);
	return 1;
}

/* The pages writable while the runtime runs (through_runtime): a fault
 * in a signal handler of the runtime's, with SIGSEGV blocked, would make
 * the kernel reset the runtime's SIGSEGV handler, even with the fault
 * never delivered.  1 if this call opened them. */
static int sw_open(struct rdb_tg *t)
{
	if (!t->nswr || t->swopen)
		return 0;
	t->swopen = 1;
	return sw_protect(t, t->swr, t->nswr, 1) == 0;
}

static void sw_close(struct rdb_tg *t, int opened)
{
	if (!opened)
		return;
	t->swopen = 0;
	sw_protect(t, t->swr, t->nswr, 0);
}

static int sw_report(struct rdb_tg *t, int wp, struct rdb_tg_stop *s);
static int string_insn(struct rdb_tg *t, uint64_t pc, int *rep, int *ops);
static int string_hit(struct rdb_tg *t, uint64_t pc);

/* Whether the instruction at pc is a hook's: one swatch.c knows, or the
 * `jne` to a checked read hook's cold path right after the check rdb
 * did (as an equal compare: not taken). */
static int sw_is_hook(struct rdb_tg *t, uint64_t pc)
{
	uint8_t b[8];
	if (rdb_tg_read(t, pc, b, sizeof b) != sizeof b)
		return 0;
	return rdb_sw_is_hook(b) || (t->swcheck && (b[0] == 0x75 || (b[0] == 0x0f && b[1] == 0x85)));
}

/* The debug registers for the current group (none while the watchpoints
 * are off), written only when they change; and each watchpoint's value
 * now, the reference for the next hit.  DR7: per slot i, local enable
 * (bit 2i), RW at 16+4i (01 write, 11 read or write: x86 has no
 * read-only), LEN at 18+4i (00 1, 01 2, 11 4, 10 8 bytes). */
static void arm_watch(struct rdb_tg *t)
{
	if (rdb_tg_watch_shadow()) {
		sw_arm(t);
		for (int i = 0; t->wp_on && i < t->nwp; i++)
			rdb_tg_read(t, t->wp[i].addr, t->wp[i].old, t->wp[i].len);
		t->snap = t->wp_on;
		return;
	}
	uint64_t dr[4] = {0, 0, 0, 0}, dr7 = 0;
	static const int lenbits[9] = {0, 0, 1, 0, 3, 0, 0, 0, 2};
	for (int i = 0; t->wp_on && i < 4 && 4 * t->group + i < t->npieces; i++) {
		const struct piece *p = &t->pieces[4 * t->group + i];
		dr[i] = p->addr;
		dr7 |= 1ull << (2 * i) | (uint64_t)(t->wp[p->w].kind == 2 ? 1 : 3) << (16 + 4 * i) |
		       (uint64_t)lenbits[p->len] << (18 + 4 * i);
	}
	if (!t->dr_set || dr7 != t->dr7 || memcmp(dr, t->dr, sizeof dr)) {
		int bad = (int)ptrace(PTRACE_POKEUSER, t->cur, (void *)DR_OFF(7), NULL);
		for (int i = 0; !bad && i < 4; i++)
			bad = (int)ptrace(PTRACE_POKEUSER, t->cur, (void *)DR_OFF(i), (void *)dr[i]);
		if (!bad && dr7)
			bad = (int)ptrace(PTRACE_POKEUSER, t->cur, (void *)DR_OFF(7), (void *)dr7);
		if (bad)
			rdb_warn("gdb server: the debug registers (pid %d): %s: watchpoints not armed",
			         (int)t->cur, strerror(errno));
		memcpy(t->dr, dr, sizeof dr);
		t->dr7 = dr7;
		t->dr_set = 1;
	}
	for (int i = 0; t->wp_on && i < t->nwp; i++)
		rdb_tg_read(t, t->wp[i].addr, t->wp[i].old, t->wp[i].len);
	t->snap = t->wp_on;
}

/* Whether watchpoint w's value changed since it was last taken (then
 * taken again). */
static int wp_changed(struct rdb_tg *t, struct wp *w)
{
	uint8_t now[64];
	int changed = 0;
	for (uint64_t o = 0; o < w->len; o += sizeof now) {
		size_t n = w->len - o < sizeof now ? (size_t)(w->len - o) : sizeof now;
		if (rdb_tg_read(t, w->addr + o, now, n) == n && memcmp(now, w->old + o, n)) {
			changed = 1;
			memcpy(w->old + o, now, n);
		}
	}
	return changed;
}

/* Back in the program after the runtime ran: a watchpoint whose value
 * changed was written by the program's syscall (most of a replayed
 * syscall's data comes into the program's memory through the kernel,
 * which debug registers set by ptrace do not see).  Into t->pend. */
static void runtime_wrote(struct rdb_tg *t)
{
	for (int i = 0; t->snap && t->wp_on && i < t->nwp; i++) {
		struct wp *w = &t->wp[i];
		int changed = wp_changed(t, w);
		if (changed && w->kind != 3 && !t->pend.kind) {
			t->pend.kind = TG_WATCH;
			t->pend.value = w->kind;
			t->pend.addr = w->addr;
		}
	}
}

/* A program instruction's write to the program's pages rdb protected (a
 * write or access watchpoint where stores through %rsp may go, which no
 * hook sees): the instruction run with the pages open, then closed again;
 * a watchpoint whose value it changed goes into t->pend, reported where
 * the step ends, as a debug register's trap after the write would be
 * (gdb's `watch` stops only for a change anyway).  The step's stop
 * signal, or -1 and *s. */
static int sw_prog(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	remove_bps(t);
	int opened = sw_open(t), intr = 0;
	int stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
	if (t->alive)
		sw_close(t, opened);
	if (stop < 0)
		return -1;
	if (get_regs(t))
		return fail(t, s, "ptrace(PTRACE_GETREGS)");
	int hit = t->swphit;
	t->swphit = 0;
	for (int i = 0; t->wp_on && i < t->nwp; i++) {
		struct wp *w = &t->wp[i];
		if (w->kind != 3 && wp_changed(t, w) && !t->pend.kind && !hit) {
			t->pend.kind = TG_WATCH;
			t->pend.value = w->kind;
			t->pend.addr = w->addr;
		}
	}
	/* a read or access watchpoint's bytes it read (or wrote): the stop
	 * after it, whatever the value */
	if (hit && !t->pend.kind && sw_report(t, hit, &t->pend))
		memset(&t->pend, 0, sizeof t->pend);
	return stop;
}

/* A stop after a step or resume: sw_fault's answer in *f (with *h); a
 * program instruction's write to a watched program page (3) is done by
 * rdb or run here (sw_prog), and the stop is then that of a step over
 * it.  The stop signal, or -1 and *s. */
static int sw_stop(struct rdb_tg *t, int stop, int *f, int *h, struct rdb_tg_stop *s)
{
	*h = 0;
	*f = stop == SIGSEGV ? sw_fault(t, h, !getenv("RDB_GDB_STEP_STORES")) : 0;
	if (*f == 4) {
		*f = 3;
		return SIGTRAP; /* (done, no watched byte written) */
	}
	return *f == 3 ? sw_prog(t, s) : stop;
}

/* After a SIGTRAP: the debug registers' hits (DR6 B0-B3), cleared.  A
 * hit whose watchpoint's value changed was a write; one that did not, a
 * read (or a write of the same value: then taken for a read).  Reported
 * (1 and *s): a write to a write or access watchpoint; a read of a read
 * or access one by the program (the runtime's own reads, hashing or
 * checking, are not the program's).  0: nothing to report; -1: no hit. */
static int dr_hit(struct rdb_tg *t, int runtime, struct rdb_tg_stop *s)
{
	errno = 0;
	long dr6 = ptrace(PTRACE_PEEKUSER, t->cur, (void *)DR_OFF(6), NULL);
	if (errno || !(dr6 & 0xf) || !t->dr7)
		return -1;
	ptrace(PTRACE_POKEUSER, t->cur, (void *)DR_OFF(6), NULL);
	int r = 0;
	for (int i = 0; i < 4; i++) {
		if (!(dr6 >> i & 1) || 4 * t->group + i >= t->npieces)
			continue;
		struct wp *w = &t->wp[t->pieces[4 * t->group + i].w];
		int changed = wp_changed(t, w);
		int hit = w->kind == 2 ? 1 : w->kind == 3 ? !changed && !runtime : changed || !runtime;
		if (hit && !r) {
			s->kind = TG_WATCH;
			s->value = w->kind;
			s->addr = w->addr;
			r = 1;
		}
	}
	return r;
}

/* ---- memory and registers ---------------------------------------------------- */

size_t rdb_tg_read(struct rdb_tg *t, uint64_t addr, void *buf, size_t n)
{
	if (!t->alive || t->memfd < 0)
		return 0;
	ssize_t r = pread(t->memfd, buf, n, (off_t)addr);
	return r < 0 ? 0 : (size_t)r;
}

const struct user_regs_struct *rdb_tg_regs(struct rdb_tg *t)
{
	return t->alive && get_regs(t) == 0 ? &t->regs : NULL;
}

int rdb_tg_fpregs(struct rdb_tg *t, uint8_t fx[512], uint8_t ymmh[256])
{
	uint8_t xs[4096];
	struct iovec io = {xs, sizeof xs};
	memset(ymmh, 0, 256);
	if (ptrace(PTRACE_GETREGSET, t->cur, (void *)NT_X86_XSTATE, &io) == 0 &&
	    io.iov_len >= 576 + 256) {
		memcpy(fx, xs, 512);
		uint64_t xstate_bv;
		memcpy(&xstate_bv, xs + 512, 8);
		if (xstate_bv & 4) /* YMM state not in its initial (zero) state */
			memcpy(ymmh, xs + 576, 256);
		return 0;
	}
	return ptrace(PTRACE_GETFPREGS, t->cur, NULL, fx) ? -1 : 0;
}

int rdb_tg_auxv(struct rdb_tg *t, uint8_t *buf, size_t cap, size_t *n)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/auxv", (int)t->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, cap);
	close(fd);
	if (r < 0)
		return -1;
	*n = (size_t)r;
	return 0;
}

int rdb_tg_is_check(struct rdb_tg *t, uint64_t pc)
{
	uint8_t b[4];
	return rdb_tg_read(t, pc, b, 4) == 4 && !memcmp(b, check_insn, 4);
}

int rdb_tg_is_rep(struct rdb_tg *t, uint64_t pc)
{
	uint8_t b[8];
	if (rdb_tg_read(t, pc, b, sizeof b) != sizeof b)
		return 0;
	int rep = 0;
	size_t i = 0;
	for (; i < 6; i++) {
		if (b[i] == 0xf3 || b[i] == 0xf2)
			rep = 1;
		else if (b[i] != 0x66 && b[i] != 0x67 && (b[i] & 0xf0) != 0x40 && b[i] != 0x2e &&
		         b[i] != 0x3e && b[i] != 0x26 && b[i] != 0x36 && b[i] != 0x64 && b[i] != 0x65)
			break;
	}
	uint8_t op = b[i];
	return rep && ((op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	               (op >= 0x6c && op <= 0x6f));
}

/* Thread `slot`'s runtime state, and where its origin lies (thread 0's
 * is the runtime's sic_origin). */
static uint64_t th_addr(uint64_t slot) { return RDB_THREAD_ADDR + (slot << RDB_THREAD_SHIFT); }
static uint64_t origin_addr(uint64_t slot)
{
	return slot ? th_addr(slot) + RDB_TH_ORIGIN : RDB_STATE_ADDR + RDB_STATE_SIC_ORIGIN;
}
/* The slot of the thread whose %r15 this is. */
static uint64_t slot_of(uint64_t r15) { return (r15 - RDB_SIC_WIN) >> RDB_SIC_SHIFT; }

int rdb_tg_pos(struct rdb_tg *t, struct rdb_pos *p)
{
	uint64_t origin;
	if (!t->alive || get_regs(t) || peek(t, RDB_STATE_ADDR + RDB_STATE_INTERVAL, &p->interval))
		return -1;
	p->slot = slot_of(t->regs.r15);
	if (p->slot >= RDB_THREAD_MAX || peek(t, origin_addr(p->slot), &origin))
		return -1;
	p->count = t->regs.r15 - origin;
	/* (the runtime's birth is the launch's, 0 for a thread made before
	 * it: the same in every replay through births.c) */
	p->born = 0;
	if (p->slot && peek(t, th_addr(p->slot) + RDB_TH_BORN, &p->born))
		return -1;
	if (p->slot && !p->born && t->ln)
		p->born = rdb_born_at(t->births, (uint32_t)p->slot, t->ln->from, 0);
	p->pc = t->regs.rip;
	p->sp = t->regs.rsp;
	p->rcx = rdb_tg_is_rep(t, p->pc) ? t->regs.rcx : 0;
	return 0;
}

/* ---- the runtime, hidden ---------------------------------------------------------- */

/* A SIGSEGV stop of the SIC's check: the address in the window's guard,
 * %r15 there, the check's bytes at pc. */
static int sic_fault(struct rdb_tg *t)
{
	siginfo_t si;
	if (ptrace(PTRACE_GETSIGINFO, t->cur, NULL, &si) || si.si_signo != SIGSEGV)
		return 0;
	uint64_t a = (uint64_t)(uintptr_t)si.si_addr;
	if (a < RDB_SIC_WIN)
		return 0;
	uint64_t end = RDB_SIC_END + slot_of(a) * RDB_SIC_STRIDE; /* (the thread's window) */
	return a >= end && a < end + RDB_SIC_GUARD && get_regs(t) == 0 &&
	       t->regs.r15 == a && rdb_tg_is_check(t, t->regs.rip);
}

/* Stopped in __rdb_syscall (at one of its checks): the return address of
 * the program's call, on the program's stack a few words up (syscall.S
 * saves the arguments there), or 0. */
static uint64_t syscall_return(struct rdb_tg *t)
{
	uint64_t w[24];
	if (get_regs(t) || !in_rt(t, t->regs.rip) ||
	    rdb_tg_read(t, t->regs.rsp, w, sizeof w) != sizeof w)
		return 0;
	for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
		uint8_t c[5];
		int32_t rel;
		if (in_rt(t, w[i]) || rdb_tg_read(t, w[i] - 5, c, 5) != 5 || c[0] != 0xe8)
			continue;
		memcpy(&rel, c + 1, 4);
		if (w[i] + (uint64_t)(int64_t)rel == t->rdb_syscall + t->bias)
			return w[i];
	}
	return 0;
}

/* Notes a return address from the runtime (0: none): its slot, or -1.
 * evict: the oldest may go (not while they are armed). */
static int add_ret(struct rdb_tg *t, uint64_t ret, int evict)
{
	if (!ret)
		return -1;
	for (int k = 0; k < NRETS; k++)
		if (t->rets[k] == ret)
			return k;
	for (int k = 0; k < NRETS; k++)
		if (!t->rets[k]) {
			t->rets[k] = ret;
			return k;
		}
	if (!evict)
		return -1;
	int k = (int)(t->nrets++ % NRETS);
	t->rets[k] = ret;
	return k;
}

/* Runs the runtime's part until the program's code runs again: resumed
 * with sig, back by rt_sigreturn into program code or by a return to ret
 * (0: none).  0 there (the trap flag clean), or -1 and *s. */
static int through_runtime(struct rdb_tg *t, int sig, uint64_t ret, struct rdb_tg_stop *s)
{
	remove_bps(t);
	if (!ret)
		ret = syscall_return(t);
	if (sig && (sig != SIGSEGV || !sic_fault(t)))
		t->noted = sig;
	/* where the runtime may return to: ret, and where the calls into it
	 * that a handler of the program's interrupted return (the handler ran
	 * inside __rdb_syscall, which returns once the handler did) */
	uint8_t old[NRETS];
	memset(old, 0xcc, sizeof old);
	add_ret(t, ret, 1);
	int opened = sw_open(t);
	for (int k = 0; k < NRETS; k++)
		if (t->rets[k] && poke_byte(t, t->rets[k], 0xcc, &old[k]))
			t->rets[k] = 0;
	int st, intr = 0, r = 0;
	for (int i = 0; i < t->nth; i++)
		t->th[i].nr = -1;
	/* other threads' stops come too: one may take the token and go into
	 * the program (then the step ends there, in it) */
	t->sysstops = 1;
	for (;;) {
		if (resume_thr(t, t->cur, PTRACE_SYSCALL, sig)) {
			r = fail(t, s, "ptrace(PTRACE_SYSCALL)");
			break;
		}
		sig = 0;
		if (wait_tracee(t, &st, &intr)) {
			r = fail(t, s, "waitpid");
			break;
		}
		struct thr *me = thr_of(t, t->cur);
		long nr = me ? me->nr : -1;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			t->sysstops = 0;
			ended(t, st, s);
			return -1;
		}
		int stop = WSTOPSIG(st);
		if (stop == (SIGTRAP | 0x80)) {
			struct __ptrace_syscall_info info;
			if (ptrace(PTRACE_GET_SYSCALL_INFO, t->cur, (void *)sizeof info, &info) <= 0) {
				r = fail(t, s, "ptrace(PTRACE_GET_SYSCALL_INFO)");
				break;
			}
			/* rt_sigreturn's exit (its orig_rax is -1 by then: the
			 * entry says which call it is) */
			if (info.op == PTRACE_SYSCALL_INFO_ENTRY && me)
				me->nr = (long)info.entry.nr;
			else if (info.op == PTRACE_SYSCALL_INFO_EXIT && nr == 15 && get_regs(t) == 0) {
				if (!in_rt(t, t->regs.rip))
					break;
				/* back into __rdb_syscall (a replay from an interval that
				 * began in it, a handler's return): where it returns to */
				uint64_t r2 = syscall_return(t);
				int k = add_ret(t, r2, 0);
				if (k >= 0 && old[k] == 0xcc && poke_byte(t, r2, 0xcc, &old[k]))
					t->rets[k] = 0;
			}
			continue;
		}
		if (stop == SIGTRAP) {
			if (get_regs(t)) {
				r = fail(t, s, "ptrace(PTRACE_GETREGS)");
				break;
			}
			int k = 0;
			while (k < NRETS && (!t->rets[k] || t->regs.rip != t->rets[k] + 1))
				k++;
			if (k < NRETS) {
				if (set_reg(t, offsetof(struct user_regs_struct, rip), t->rets[k]))
					r = fail(t, s, "ptrace(PTRACE_POKEUSER)");
				break;
			}
			/* a watchpoint: the program's syscall writing, for gdb once
			 * back in the program, or the runtime's read */
			struct rdb_tg_stop h;
			memset(&h, 0, sizeof h);
			if (dr_hit(t, in_rt(t, t->regs.rip), &h) > 0 && !t->pend.kind)
				t->pend = h;
			continue;
		}
		if (stop == SIGSTOP && intr)
			continue; /* our interrupt: reported once back in the program */
		int h, f = stop == SIGSEGV ? sw_fault(t, &h, 0) : 0;
		if (f == 1 && h) /* a wide store's helper: the program's store is next */
			t->swhit = h;
		if (f >= 2 && !opened)
			opened = sw_open(t);
		if (f)
			continue;
		/* the runtime's to handle: the SIC's SIGSEGV, or the program's
		 * signal (a recorded one it queued again), to report once the
		 * program runs (at its handler) */
		sig = stop;
		if (stop != SIGSEGV || !sic_fault(t))
			t->noted = stop;
	}
	t->sysstops = 0;
	for (int k = NRETS - 1; k >= 0; k--)
		if (t->rets[k] && old[k] != 0xcc)
			poke_byte(t, t->rets[k], old[k], NULL);
	if (t->alive)
		sw_close(t, opened);
	get_regs(t);
	if (!r)
		runtime_wrote(t);
	if (t->pend.kind && !t->pend.before.pc)
		t->pend.before = t->entry;
	memset(&t->entry, 0, sizeof t->entry);
	return r;
}

/* The opcode at pc past operand-size and REX prefixes. */
static int opcode_at(struct rdb_tg *t, uint64_t pc)
{
	uint8_t b[4];
	if (rdb_tg_read(t, pc, b, sizeof b) != sizeof b)
		return -1;
	size_t i = 0;
	while (i < sizeof b - 1 && (b[i] == 0x66 || (b[i] & 0xf0) == 0x40))
		i++;
	return b[i];
}

static void clean_flags_image(struct rdb_tg *t)
{
	uint64_t w;
	if (get_regs(t) == 0 && peek(t, t->regs.rsp, &w) == 0 && (w & 0x100))
		poke(t, t->regs.rsp, w & ~0x100ull);
}

static int passed(const struct rdb_tg *t, int sig)
{
	return sig > 0 && sig < 64 && (t->pass >> sig & 1);
}

void rdb_tg_pass_signals(struct rdb_tg *t, uint64_t mask) { t->pass = mask; }

/* The end of a step: a signal the runtime delivered on the way (the
 * program is at its handler) is gdb's to see, unless gdb passes it. */
static void stepped(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	if (!t->pend.kind && t->npieces > 4)
		runtime_wrote(t); /* the groups not armed: writes by their values */
	if (t->pend.kind) { /* a watchpoint hit on the way */
		*s = t->pend;
		memset(&t->pend, 0, sizeof t->pend);
		return;
	}
	int n = t->noted;
	t->noted = 0;
	if (n && !t->quiet_sigs && !passed(t, n)) {
		s->kind = TG_SIGNAL;
		s->sig = n;
		return;
	}
	s->kind = TG_STEPPED;
}

/* A replay that keeps its read hooks (shadow-page watches): a step of a
 * check's `jne` (at pc) into its cold path (docs/hooks.md: `mov %r13,
 * DISP(BASE,%r14)`, `cmp %r13, %r13`, `jmp` back) goes on through it, so
 * that no step stops out of line, outside the program's functions.  1
 * and *s if the replay ended or failed meanwhile. */
static int cold_path(struct rdb_tg *t, uint64_t pc, struct rdb_tg_stop *s)
{
	uint8_t b[16];
	struct rdb_planeop o;
	if (rdb_tg_read(t, pc, b, 2) != 2 || !(b[0] == 0x75 || (b[0] == 0x0f && b[1] == 0x85)))
		return 0;
	memset(b, 0, sizeof b);
	rdb_tg_read(t, t->regs.rip, b, sizeof b);
	if (!rdb_sw_decode(b, &t->regs, &o) || o.plane != 'R' || o.op != RDB_PLANEOP_MOV)
		return 0;
	for (int k = 0; k < 3; k++) {
		int intr = 0, stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
		if (stop < 0)
			return 1;
		if (stop != SIGTRAP) {
			t->sig = stop; /* the runtime's or the program's, at the next resume */
			break;
		}
	}
	return 0;
}

/* One instruction of the program's, with the runtime it enters run whole. */
void rdb_tg_step(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	memset(s, 0, sizeof *s);
	if (!t->alive) {
		*s = t->end;
		return;
	}
	remove_bps(t);
	if (get_regs(t))
		return (void)fail(t, s, "ptrace(PTRACE_GETREGS)");
	arm_watch(t);
	memset(&t->pend, 0, sizeof t->pend);
	uint64_t pc = t->regs.rip, sp = t->regs.rsp;
	struct rdb_pos step_from;
	if (rdb_tg_pos(t, &step_from))
		memset(&step_from, 0, sizeof step_from);
	int sig = t->sig;
	t->sig = 0;
	t->noted = 0;
	if (sig) { /* the runtime takes it: its handler, then program code */
		if (through_runtime(t, sig, 0, s))
			return;
		t->noted = 0; /* gdb saw it already */
		return stepped(t, s);
	}
	int op = opcode_at(t, pc);
	if (op == 0x9d) /* popf: not with our trap flag */
		clean_flags_image(t);
	int hook = t->swhit && sw_is_hook(t, pc);
	/* a string instruction's iteration that reads or writes watched
	 * bytes (its marks were the helper's, run before with the pages
	 * open) */
	int sw = t->nswr && t->wp_on ? string_hit(t, pc) : 0;
	int intr = 0;
	int stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
	if (stop < 0)
		return;
	int h, f;
	if ((stop = sw_stop(t, stop, &f, &h, s)) < 0)
		return;
	if (f == 1) { /* a hook's store, done by rdb */
		if (h)
			t->swhit = h;
		return stepped(t, s);
	}
	if (stop == SIGTRAP && sw && !t->pend.kind && sw_report(t, sw, &t->pend))
		memset(&t->pend, 0, sizeof t->pend);
	if (stop == SIGTRAP && t->swhit && !hook) {
		/* the program's access after a hook's that touched watched bytes */
		if (sw_report(t, t->swhit, &t->pend))
			memset(&t->pend, 0, sizeof t->pend);
		t->swhit = 0;
	}
	if (stop == SIGTRAP)
		t->swcheck = 0;
	if (stop == SIGTRAP) {
		if (op == 0x9c) /* pushf saved our trap flag */
			clean_flags_image(t);
		struct rdb_tg_stop h;
		memset(&h, 0, sizeof h);
		if (dr_hit(t, in_rt(t, t->regs.rip), &h) > 0)
			t->pend = h;
		if (in_rt(t, t->regs.rip)) {
			/* a call into the runtime: on to its return */
			uint64_t r = 0;
			if (t->regs.rsp == sp - 8 && peek(t, t->regs.rsp, &r) == 0 &&
			    (r <= pc || r > pc + 15 || in_rt(t, r)))
				r = 0;
			t->entry = step_from;
			if (through_runtime(t, 0, r, s))
				return;
		} else if (!t->pend.kind && cold_path(t, pc, s))
			return;
		return stepped(t, s);
	}
	if (stop == SIGSEGV && sic_fault(t)) {
		if (through_runtime(t, SIGSEGV, 0, s))
			return;
		return stepped(t, s);
	}
	if (stop == SIGSTOP && intr) { /* the step was not made */
		s->kind = TG_INTR;
		return;
	}
	if (t->quiet_sigs || passed(t, stop)) {
		if (through_runtime(t, stop, 0, s))
			return;
		return stepped(t, s);
	}
	t->sig = stop;
	s->kind = TG_SIGNAL;
	s->sig = stop;
}

/* Moves %r15 and sic_origin together so that the check after count want
 * faults, when nothing would fault before. */
static void arm(struct rdb_tg *t, uint64_t want)
{
	struct rdb_pos p;
	uint64_t origin;
	/* (only the thread whose count is wanted: another's counts are its own) */
	if (!want || rdb_tg_pos(t, &p) || !rdb_tg_wanted(t, &p) || want <= p.count ||
	    t->regs.r15 >= RDB_SIC_END + p.slot * RDB_SIC_STRIDE ||
	    peek(t, origin_addr(p.slot), &origin))
		return;
	uint64_t left = RDB_SIC_END + p.slot * RDB_SIC_STRIDE - t->regs.r15;
	if (want - p.count >= left)
		return; /* the window's end comes first: armed again then */
	uint64_t d = left - (want - p.count);
	if (poke(t, origin_addr(p.slot), origin + d) == 0)
		set_reg(t, offsetof(struct user_regs_struct, r15), t->regs.r15 + d);
}

/* After the runtime ran: a signal it delivered, for gdb (TG_SIGNAL). */
static int noted(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	int n = t->noted;
	t->noted = 0;
	if (!n || t->quiet_sigs || passed(t, n))
		return 0;
	s->kind = TG_SIGNAL;
	s->sig = n;
	return 1;
}

/* Back in the program after the runtime: a stop for gdb if a signal was
 * noted on the way (reported as such) or a breakpoint is here. */
static int stop_here(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	if (t->pend.kind) {
		*s = t->pend;
		memset(&t->pend, 0, sizeof t->pend);
		return 1;
	}
	if (!noted(t, s) && !is_bp(t, t->regs.rip))
		return 0;
	if (s->kind != TG_SIGNAL)
		s->kind = TG_BREAK;
	return 1;
}

static void cont(struct rdb_tg *t, uint64_t want, struct rdb_tg_stop *s);

/* The count wanted, for the runtime (layout.h RDB_STATE_DBG_STOP): a
 * thread that waits for the token has its %r15 set again by the runtime
 * when it goes on (after its time slice, its blocking call, at its
 * start), which would undo arm(); the runtime arms for this count then,
 * with no stop of rdb's needed in between.  0: nothing wanted.  (Without
 * threads the runtime sets %r15 only at stops rdb sees, and arm() is
 * enough: no writes, a step back costs what it did.)  The runtime knows
 * the slot only: an earlier thread of that slot, ended before the one
 * wanted is made, faults at that count too, and cont() lets it go on. */
static void want_runtime(struct rdb_tg *t, uint64_t want)
{
	if (!t->alive || !rdb_tg_threaded(t) || (want && poke(t, RDB_STATE_ADDR + RDB_STATE_DBG_SLOT, t->want_slot)))
		return;
	poke(t, RDB_STATE_ADDR + RDB_STATE_DBG_STOP, want);
}

/* Where the runtime, called from the program (a helper of a string
 * instruction's), may return to: every word on the stack near %rsp that
 * is an address in the program's code after a call into the runtime (a
 * saved register may hold a stale one, so all of them are breakpoints
 * for through_runtime, up to 8), the first of them returned, or 0. */
static uint64_t rt_return(struct rdb_tg *t)
{
	uint64_t w[128], first = 0;
	int n = 0;
	if (get_regs(t) || rdb_tg_read(t, t->regs.rsp, w, sizeof w) != sizeof w)
		return 0;
	for (size_t i = 0; i < sizeof w / sizeof *w && n < 8; i++) {
		uint8_t c[5];
		int32_t rel;
		if (in_rt(t, w[i]) || rdb_tg_read(t, w[i] - 5, c, 5) != 5 || c[0] != 0xe8)
			continue;
		memcpy(&rel, c + 1, 4);
		if (in_rt(t, w[i] + (uint64_t)(int64_t)rel)) {
			if (!first)
				first = w[i];
			else
				add_ret(t, w[i], 1);
			n++;
		}
	}
	return first;
}

/* The stop for write watchpoint wp (index + 1) after its write: 0 and
 * *s, or -1 (gone meanwhile). */
static int sw_report(struct rdb_tg *t, int wp, struct rdb_tg_stop *s)
{
	if (wp < 1 || wp > t->nwp)
		return -1;
	wp_changed(t, &t->wp[wp - 1]);
	memset(s, 0, sizeof *s);
	s->kind = TG_WATCH;
	s->value = t->wp[wp - 1].kind;
	s->addr = t->wp[wp - 1].addr;
	return 0;
}

/* A hook's store marked watched bytes (wp: index + 1): on to the end of
 * the program's store it comes before (the hooks between done, a wide
 * store's helper run to its return), where a debug register's trap
 * would stop, and the stop there for gdb.  0, or -1 and *s. */
static int sw_finish(struct rdb_tg *t, int wp, struct rdb_tg_stop *s)
{
	remove_bps(t);
	t->swhit = 0;
	for (int n = 0; n < 256; n++) {
		if (get_regs(t))
			return fail(t, s, "ptrace(PTRACE_GETREGS)");
		int last = !in_rt(t, t->regs.rip) && !sw_is_hook(t, t->regs.rip), intr = 0, h;
		int stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
		if (stop < 0)
			return -1;
		int f;
		if ((stop = sw_stop(t, stop, &f, &h, s)) < 0)
			return -1;
		if (f == 2 && through_runtime(t, 0, rt_return(t), s))
			return -1;
		if (f == 1 || f == 2)
			continue; /* another hook's store (or the runtime's) */
		if (stop == SIGSEGV && sic_fault(t)) {
			if (through_runtime(t, SIGSEGV, 0, s))
				return -1;
			continue;
		}
		if (stop != SIGTRAP) {
			t->sig = stop; /* for the program, at the next resume */
			break;
		}
		t->swcheck = 0;
		if (last)
			break;
	}
	if (sw_report(t, wp, s))
		s->kind = TG_STEPPED;
	return 0;
}

/* A string instruction at pc: the bytes of each iteration's element,
 * or 0 if it is none; *rep: it has a rep prefix; *ops: what each
 * iteration accesses (1 reads at %rsi, 2 reads at %rdi, 4 writes at
 * %rdi). */
static int string_insn(struct rdb_tg *t, uint64_t pc, int *rep, int *ops)
{
	uint8_t b[8];
	*rep = *ops = 0;
	if (rdb_tg_read(t, pc, b, sizeof b) != sizeof b)
		return 0;
	size_t i = 0;
	int size = 4;
	for (; i < 6; i++)
		if (b[i] == 0xf2 || b[i] == 0xf3)
			*rep = 1;
		else if (b[i] == 0x66)
			size = 2;
		else if ((b[i] & 0xf0) == 0x40)
			size = b[i] & 8 ? 8 : size;
		else
			break;
	switch (b[i] & ~1) {
	case 0xa4: *ops = 1 | 4; break; /* movs */
	case 0xa6: *ops = 1 | 2; break; /* cmps */
	case 0xaa: *ops = 4; break;     /* stos */
	case 0xac: *ops = 1; break;     /* lods */
	case 0xae: *ops = 2; break;     /* scas */
	default: return 0;
	}
	return b[i] & 1 ? size : 1;
}

/* The watchpoint (index + 1) whose bytes the next iteration of the
 * string instruction at pc accesses as it watches them, or 0. */
static int string_hit(struct rdb_tg *t, uint64_t pc)
{
	int rep, ops, size = string_insn(t, pc, &rep, &ops), w = 0;
	uint64_t si = t->regs.rsi, di = t->regs.rdi, n = (uint64_t)size;
	if (!size || (rep && !t->regs.rcx))
		return 0;
	if (ops & 4)
		w = sw_which(t, di - RDB_S_OFFSET, di - RDB_S_OFFSET + n);
	if (!w && ops & 1)
		w = sw_rwhich(t, si, si + n);
	if (!w && ops & 2)
		w = sw_rwhich(t, di, di + n);
	return w;
}

/* The runtime wrote the watched pages while the program ran: a string
 * instruction's helper marking what the instruction, next, writes (or
 * a boundary's clearing).  Run with the pages writable; back in the
 * program, a string store runs an iteration at a time up to the first
 * that writes watched bytes (record full and the debug registers stop
 * there too).  1 and *s: a stop for gdb. */
static int sw_string(struct rdb_tg *t, struct rdb_tg_stop *s)
{
	remove_bps(t);
	if (get_regs(t))
		return 1;
	if (!in_rt(t, t->regs.rip)) { /* not a hook's form, in the program: open for it */
		int o = sw_open(t), intr = 0;
		int stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
		if (t->alive)
			sw_close(t, o);
		if (stop < 0)
			return 1;
		get_regs(t);
	} else if (through_runtime(t, 0, rt_return(t), s))
		return 1;
	if (stop_here(t, s))
		return 1;
	uint64_t pc = t->regs.rip;
	int rep, ops;
	if (!string_insn(t, pc, &rep, &ops))
		return 0;
	for (;;) {
		int intr = 0, h, w = string_hit(t, pc);
		int stop = resume_wait(t, s, PTRACE_SINGLESTEP, 0, &intr);
		if (stop < 0)
			return 1;
		int f;
		if ((stop = sw_stop(t, stop, &f, &h, s)) < 0)
			return 1;
		if (f == 2 && through_runtime(t, 0, rt_return(t), s))
			return 1;
		if (f == 1 || f == 2)
			continue;
		if (stop != SIGTRAP) {
			t->sig = stop;
			return 0;
		}
		if (w)
			return sw_report(t, w, s) == 0;
		if (t->pend.kind) { /* an iteration's write to a watched program page */
			*s = t->pend;
			memset(&t->pend, 0, sizeof t->pend);
			return 1;
		}
		if (t->regs.rip != pc)
			return 0;
	}
}

void rdb_tg_cont(struct rdb_tg *t, uint64_t want, struct rdb_tg_stop *s)
{
	want_runtime(t, want);
	cont(t, want, s);
	if (want)
		want_runtime(t, 0);
}

static void cont(struct rdb_tg *t, uint64_t want, struct rdb_tg_stop *s)
{
	memset(s, 0, sizeof *s);
	if (!t->alive) {
		*s = t->end;
		return;
	}
	if (get_regs(t))
		return (void)fail(t, s, "ptrace(PTRACE_GETREGS)");
	remove_bps(t);
	arm_watch(t);
	memset(&t->pend, 0, sizeof t->pend);
	/* a replayed syscall may write watched bytes: each one stops, on its
	 * way into the runtime */
	t->sysbp = t->wp_on && t->nwp ? t->rdb_syscall + t->bias : 0;
	/* off a breakpoint, or with a signal to deliver: a step first */
	if (t->sig || is_bp(t, t->regs.rip)) {
		int fault = t->sig == SIGSEGV;
		rdb_tg_step(t, s);
		if (s->kind != TG_STEPPED)
			return;
		if (is_bp(t, t->regs.rip)) {
			s->kind = TG_BREAK;
			return;
		}
		(void)fault;
	}
	int intr = 0, sig = 0;
	t->noted = 0;
	for (;;) {
		if (t->swhit && t->wp_on) { /* a hook's store marked watched bytes */
			sw_finish(t, t->swhit, s);
			return;
		}
		arm(t, want);
		insert_bps(t);
		int stop = resume_wait(t, s, PTRACE_CONT, sig, &intr);
		if (stop < 0)
			return;
		sig = 0;
		if (stop == SIGTRAP && t->sysbp && t->regs.rip - 1 == t->sysbp) {
			uint64_t ret;
			remove_bps(t);
			if (set_reg(t, offsetof(struct user_regs_struct, rip), t->sysbp))
				return (void)fail(t, s, "ptrace(PTRACE_POKEUSER)");
			get_regs(t);
			if (peek(t, t->regs.rsp, &ret) || rdb_tg_pos(t, &t->entry))
				return (void)fail(t, s, "ptrace(PTRACE_PEEKDATA)");
			/* the call: count as at its entry, %rsp before the call
			 * pushed its return address */
			t->entry.pc = ret - 5;
			t->entry.sp += 8;
			t->entry.rcx = 0;
			if (through_runtime(t, 0, ret, s))
				return;
			if (stop_here(t, s))
				return;
			continue;
		}
		if (stop == SIGTRAP && is_bp(t, t->regs.rip - 1)) {
			remove_bps(t);
			if (set_reg(t, offsetof(struct user_regs_struct, rip), t->regs.rip - 1))
				return (void)fail(t, s, "ptrace(PTRACE_POKEUSER)");
			get_regs(t);
			s->kind = TG_BREAK;
			return;
		}
		if (stop == SIGTRAP) {
			struct rdb_tg_stop h;
			memset(&h, 0, sizeof h);
			int rt = in_rt(t, t->regs.rip), dh = dr_hit(t, rt, &h);
			if (dh > 0 && !rt) {
				remove_bps(t);
				*s = h;
				return;
			}
			if (dh > 0) { /* the program's syscall: reported back in the program */
				t->pend = h;
				if (through_runtime(t, 0, 0, s))
					return;
				if (stop_here(t, s))
					return;
				continue;
			}
			if (dh == 0)
				continue; /* the runtime's read, or a read watchpoint's write */
		}
		int h, f;
		if ((stop = sw_stop(t, stop, &f, &h, s)) < 0)
			return;
		if (f == 3) { /* a write to a watched program page: run, compared */
			f = 0;
			if (stop == SIGTRAP && t->pend.kind) {
				/* (a call into the runtime wrote them: reported back
				 * in the program) */
				if (in_rt(t, t->regs.rip) && through_runtime(t, 0, 0, s))
					return;
				if (stop_here(t, s))
					return;
			}
			if (stop == SIGTRAP)
				continue;
		}
		if (f == 1 && (h || t->swhit)) { /* a hook's store marked watched bytes */
			sw_finish(t, h ? h : t->swhit, s);
			return;
		}
		if (f == 2 && sw_string(t, s)) /* the runtime's write */
			return;
		if (f)
			continue;
		if (stop == SIGSEGV && sic_fault(t)) {
			struct rdb_pos p;
			/* (an earlier thread of the slot, armed by the runtime
			 * for the same count, goes on: not the birth wanted) */
			if (want && rdb_tg_pos(t, &p) == 0 && rdb_tg_wanted(t, &p) && p.count >= want) {
				remove_bps(t);
				s->kind = TG_COUNT;
				/* in the runtime (__rdb_syscall's checks): the count's
				 * first position of the program's is after it */
				if (in_rt(t, p.pc))
					through_runtime(t, SIGSEGV, 0, s);
				else
					t->sig = SIGSEGV; /* the runtime's, at the next resume */
				return;
			}
			if (!want && !is_bp(t, t->regs.rip) && !t->nswr) {
				sig = SIGSEGV; /* the window moves on, or an event */
				continue;
			}
			/* armed again (or a breakpoint at the check): back in the
			 * program first */
			if (through_runtime(t, SIGSEGV, 0, s))
				return;
			if (stop_here(t, s))
				return;
			continue;
		}
		remove_bps(t);
		if (stop == SIGSTOP && intr) {
			if (in_rt(t, t->regs.rip) && through_runtime(t, 0, 0, s))
				return;
			s->kind = TG_INTR;
			return;
		}
		if (t->quiet_sigs || passed(t, stop) || in_rt(t, t->regs.rip)) {
			if (through_runtime(t, stop, 0, s))
				return;
			if (stop_here(t, s))
				return;
			continue;
		}
		t->sig = stop;
		s->kind = TG_SIGNAL;
		s->sig = stop;
		return;
	}
}

/* ---- checkpoints: forked copies of a replay --------------------------------------- */

/* A checkpoint is a copy of the replay, frozen where it was taken: rdb
 * makes the program clone itself (a clone syscall run at a syscall
 * instruction of the runtime's, the registers put back after), as
 * rdb's child (CLONE_PARENT) and traced by rdb (CLONE_PTRACE).  Going
 * back to it clones it again: the copy runs, the checkpoint stays.
 * Memory is shared copy-on-write; the channel is not: the copy's feeder
 * sends the launch's feed again without the bytes the checkpoint had
 * read (the runtime counts them, RDB_STATE_CHAN_IN), after rdb drained
 * what the replay killed before it left unread. */

/* A launch's channel is closed with the last replay or checkpoint of it. */
static void release(struct launch *ln)
{
	if (ln && --ln->refs == 0) {
		close(ln->chan);
		rdb_free(ln);
	}
}

/* A syscall instruction (0f 05) in the runtime's code: its link address. */
static uint64_t syscall_insn(struct rdb_tg *t)
{
	if (t->sc_insn)
		return t->sc_insn;
	uint8_t b[4096];
	for (uint64_t a = t->rt_lo; a < t->rt_hi; a += sizeof b - 1) {
		size_t n = rdb_tg_read(t, a + t->bias, b, sizeof b);
		for (size_t i = 0; i + 1 < n; i++)
			if (b[i] == 0x0f && b[i + 1] == 0x05)
				return t->sc_insn = a + i;
		if (!n)
			break;
	}
	return 0;
}

/* pid's registers set to r, a PTRACE_GETREGS image (saved, or with the
 * registers of an injected syscall changed), in one call: x86-64's
 * SETREGS writes every field, but those rdb did not change go back as
 * read, which changes nothing (the segment selectors and bases
 * included: a base is written as it is, the selector kept, Linux 5.9 and
 * later; the kernel hides and keeps its own single-step trap flag).  No
 * trap or resume flag of rdb's goes in. */
static int put_regs(pid_t pid, const struct user_regs_struct *r)
{
	struct user_regs_struct v = *r;
	v.eflags &= ~0x10100ull;
	return ptrace(PTRACE_SETREGS, pid, NULL, &v) ? -1 : 0;
}

/* Syscall nr(a, b, c) run by the stopped replay (the thread stopped) at a
 * syscall instruction of the runtime's, its registers put back after, as
 * a checkpoint's clone is: its result, or -EIO. */
static long tracee_syscall(struct rdb_tg *t, long nr, uint64_t a, uint64_t b, uint64_t c)
{
	struct user_regs_struct saved, r;
	pid_t me = t->cur; /* (stopped: another thread may be running) */
	uint64_t sc = syscall_insn(t);
	if (!sc || ptrace(PTRACE_GETREGS, me, NULL, &saved))
		return -EIO;
	r = saved;
	r.rip = sc + t->bias;
	r.rax = (uint64_t)nr;
	r.rdi = a;
	r.rsi = b;
	r.rdx = c;
	r.orig_rax = (uint64_t)-1;
	/* the stop's signal (a SIC check's fault to pass on): its siginfo
	 * goes back after, so the runtime gets the kernel's */
	siginfo_t si;
	int have_si = ptrace(PTRACE_GETSIGINFO, me, NULL, &si) == 0;
	int st;
	long ret = -EIO;
	if (put_regs(me, &r) == 0 && ptrace(PTRACE_SINGLESTEP, me, NULL, NULL) == 0 &&
	    waitpid(me, &st, __WALL) == me && WIFSTOPPED(st) &&
	    ptrace(PTRACE_GETREGS, me, NULL, &r) == 0)
		ret = (long)r.rax;
	if (put_regs(me, &saved))
		ret = -EIO;
	if (have_si)
		ptrace(PTRACE_SETSIGINFO, me, NULL, &si);
	t->have_regs = 0;
	return ret;
}

/* A copy of pid (stopped, no breakpoint in its memory), stopped where it
 * is: its pid, or -1. */
static pid_t clone_of(struct rdb_tg *t, pid_t pid)
{
	struct user_regs_struct saved, r;
	uint64_t sc = syscall_insn(t);
	if (!sc || ptrace(PTRACE_GETREGS, pid, NULL, &saved))
		return -1;
	r = saved;
	r.rip = sc + t->bias;
	r.rax = 56; /* clone */
	r.rdi = 0x8000 | 0x2000 | SIGCHLD; /* CLONE_PARENT | CLONE_PTRACE */
	r.rsi = r.rdx = r.r10 = r.r8 = 0;
	r.orig_rax = (uint64_t)-1;
	int st;
	if (put_regs(pid, &r) || ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
	    waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st) || ptrace(PTRACE_GETREGS, pid, NULL, &r))
		return -1;
	pid_t c = (pid_t)(long)r.rax;
	if (put_regs(pid, &saved) || c <= 0)
		return -1;
	while (waitpid(c, &st, __WALL) != c)
		if (errno != EINTR)
			return -1;
	if (!WIFSTOPPED(st) || put_regs(c, &saved)) {
		kill(c, SIGKILL);
		waitpid(c, &st, __WALL);
		return -1;
	}
	return c;
}

/* Signals the kernel holds for pid: a copy would not have them. */
static int pending(pid_t pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	const char *p = strstr(buf, "SigPnd:\t"), *q = strstr(buf, "ShdPnd:\t");
	return !p || !q || strtoull(p + 8, NULL, 16) || strtoull(q + 8, NULL, 16);
}

struct rdb_ck *rdb_tg_ck_take(struct rdb_tg *t)
{
	/* a replay that writes the program's output, or stops at an
	 * interval's end, is no start for another */
	if (!t->alive || !t->ln || !t->ln->quiet || t->ln->to || get_regs(t))
		return NULL;
	/* a SIC check's fault, not delivered yet: the copy faults again
	 * there, with the kernel's siginfo (a signal rdb passes has none) */
	if (t->sig && !(t->sig == SIGSEGV && rdb_tg_is_check(t, t->regs.rip)))
		return NULL;
	if (pending(t->pid))
		return NULL;
	/* a copy has only the thread that made it (fork): none while several
	 * threads live */
	if (t->nth > 1)
		return NULL;
	remove_bps(t);
	uint64_t in;
	if (peek(t, RDB_STATE_ADDR + RDB_STATE_CHAN_IN, &in))
		return NULL;
	pid_t c = clone_of(t, t->pid);
	t->have_regs = 0;
	if (c < 0)
		return NULL;
	t->sig = 0;
	struct rdb_ck *k = rdb_xmalloc(sizeof *k);
	k->pid = c;
	k->ln = t->ln;
	k->ln->refs++;
	k->chan_in = in;
	memcpy(k->rets, t->rets, sizeof k->rets);
	/* its read-only shadow pages are the replay's (a copy has them too) */
	k->nswr = t->nswr;
	k->swr = rdb_xmalloc(((size_t)t->nswr + 1) * sizeof *k->swr);
	if (t->nswr)
		memcpy(k->swr, t->swr, (size_t)t->nswr * sizeof *k->swr);
	return k;
}

void rdb_tg_ck_drop(struct rdb_tg *t, struct rdb_ck *k)
{
	if (!k)
		return;
	bury(t, k->pid);
	release(k->ln);
	rdb_free(k->swr);
	rdb_free(k);
}

/* The channel for copy c of checkpoint k: what the killed replay left in
 * it, out (through the copy's end of it), and a new feeder that sends
 * the launch's feed again from the bytes k had read.  0, or -1. */
static int refeed(struct rdb_tg *t, struct rdb_ck *k, pid_t c)
{
	int pfd = (int)syscall(SYS_pidfd_open, c, 0);
	int b = pfd >= 0 ? (int)syscall(SYS_pidfd_getfd, pfd, RDB_CHAN_FD, 0) : -1;
	if (pfd >= 0)
		close(pfd);
	if (b < 0)
		return -1;
	char buf[65536];
	while (recv(b, buf, sizeof buf, MSG_DONTWAIT) > 0)
		;
	close(b);
	struct rdb_replay_opts o;
	memset(&o, 0, sizeof o);
	o.dir = t->dir;
	o.from = k->ln->from;
	o.to = k->ln->to;
	o.flags = k->ln->flags;
	t->feeder = rdb_replay_feeder(&o, &t->h, k->ln->chan, k->chan_in);
	return 0;
}

int rdb_tg_ck_resume(struct rdb_tg *t, struct rdb_ck *k)
{
	t->moves++;
	/* the channel already where the copy reads on: the replay (of the
	 * checkpoint's launch) read nothing since the checkpoint and is
	 * stopped in the program's code, so in no read of the runtime's that
	 * RT->chan_in has not counted yet.  Then the copy reads on from the
	 * replay's feeder (a step back inside a count: no feeder to end and
	 * wait for, no channel to drain, no new one to fork). */
	uint64_t in;
	int keep = t->alive && t->ln == k->ln && t->feeder > 0 && get_regs(t) == 0 &&
	           !in_rt(t, t->regs.rip) && peek(t, RDB_STATE_ADDR + RDB_STATE_CHAN_IN, &in) == 0 &&
	           in == k->chan_in;
	end_replay(t, keep);
	pid_t c = clone_of(t, k->pid);
	if (c < 0) {
		rdb_warn("gdb server: a copy of checkpoint %d failed: %s", (int)k->pid, strerror(errno));
		return -1;
	}
	t->pid = c;
	t->cur = c;
	t->nth = 0;
	thr_add(t, c);
	t->alive = 1;
	t->have_regs = 0;
	t->sig = 0;
	t->bp_in = 0;
	t->ln = k->ln;
	t->ln->refs++;
	memcpy(t->rets, k->rets, sizeof t->rets);
	t->nswr = k->nswr;
	t->swr = rdb_xmalloc(((size_t)k->nswr + 1) * sizeof *t->swr);
	if (k->nswr)
		memcpy(t->swr, k->swr, (size_t)k->nswr * sizeof *t->swr);
	struct rdb_tg_stop s;
	if (!keep && refeed(t, k, c))
		return fail(t, &s, "pidfd_getfd");
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/mem", (int)c);
	t->memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->memfd < 0)
		return fail(t, &s, path);
	return 0;
}

int rdb_tg_ck_pid(const struct rdb_ck *k) { return k ? (int)k->pid : 0; }

/* ---- starting and ending a replay --------------------------------------------- */

/* A wait between polls of a replay's end: short at first, then 20 ms. */
static void nap(int spins)
{
	struct timespec ts = {0, spins < 100 ? 1000000 : 20000000};
	nanosleep(&ts, NULL);
}

/* The signal a thread rdb lets go from stop st goes on with: the
 * program's own; none for an event, a syscall stop or a SIGSTOP (rdb's,
 * or a new thread's first). */
static int passed_on(int st)
{
	int sig = WSTOPSIG(st);
	return st >> 16 || sig == SIGSTOP || sig == (SIGTRAP | 0x80) ? 0 : sig;
}

/* pid's other threads that rdb still traces, each seen once: one that
 * ended is reaped (until every other thread is, the kernel reports
 * nothing of the first one's end), one stopped is let go (with detach:
 * a thread made just before a detach, its clone event not seen yet). */
static void sweep_threads(pid_t pid, int detach)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		int st;
		if (tid <= 0 || tid == pid || waitpid(tid, &st, __WALL | WNOHANG) <= 0 ||
		    !WIFSTOPPED(st) || !detach)
			continue;
		ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)passed_on(st));
	}
	if (d)
		closedir(d);
}

/* Waits for pid, the first thread of a replay, to end (its other threads
 * swept meanwhile): 0 and *st, or -1. */
static int wait_first(pid_t pid, int *st, int detach)
{
	for (int spins = 0;; spins++) {
		pid_t r = waitpid(pid, st, __WALL | WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		sweep_threads(pid, detach);
		nap(spins);
	}
}

void rdb_tg_reap(struct rdb_tg *t, int wait)
{
	int st;
	for (int i = 0; i < t->ndying;) {
		pid_t r = 0;
		if (wait)
			wait_first(t->dying[i], &st, 0);
		else {
			sweep_threads(t->dying[i], 0);
			while ((r = waitpid(t->dying[i], &st, __WALL | WNOHANG)) < 0 && errno == EINTR)
				;
		}
		if (r == 0 && !wait) {
			i++;
			continue;
		}
		t->dying[i] = t->dying[--t->ndying];
	}
}

/* Kills pid (a replay or checkpoint: stopped, so it reads nothing more
 * from its channel), reaped later. */
static void bury(struct rdb_tg *t, pid_t pid)
{
	kill(pid, SIGKILL);
	if (t->ndying == MAXDYING)
		rdb_tg_reap(t, 1);
	t->dying[t->ndying++] = pid;
	rdb_tg_reap(t, 0);
}

/* Ends the replay, and its feeder unless keep_feeder (then the feeder
 * stays, for a checkpoint's copy that reads the channel from where the
 * replay was). */
static void end_replay(struct rdb_tg *t, int keep_feeder)
{
	int st;
	if (t->pid > 0 && t->alive) {
		/* the other threads first: each is the tracer's to reap, and the
		 * first thread's end is reported only once they are */
		kill(t->pid, SIGKILL);
		for (int i = 0; i < t->nth; i++)
			if (t->th[i].tid != t->pid)
				while (waitpid(t->th[i].tid, &st, __WALL) < 0 && errno == EINTR)
					;
		bury(t, t->pid);
	}
	t->nth = 0;
	t->alive = 0;
	/* the feeder is waited for: it may be writing, and the channel is
	 * drained for a checkpoint's copy after it */
	if (t->feeder > 0 && !keep_feeder) {
		kill(t->feeder, SIGKILL);
		while (waitpid(t->feeder, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (!keep_feeder)
		t->feeder = 0;
	if (t->memfd >= 0)
		close(t->memfd);
	t->memfd = -1;
	t->bp_in = 0;
	t->sig = 0;
	memset(t->rets, 0, sizeof t->rets);
	release(t->ln);
	t->ln = NULL;
	t->dr_set = 0;
	t->snap = 0;
	memset(&t->pend, 0, sizeof t->pend);
	rdb_free(t->swr);
	t->swr = NULL;
	t->nswr = t->swhit = t->swopen = t->swcheck = 0;
}

void rdb_tg_kill(struct rdb_tg *t) { end_replay(t, 0); }

int rdb_tg_status(const struct rdb_tg *t)
{
	if (t->alive || t->end.kind != TG_EXITED)
		return 125;
	return t->end.sig ? 128 + t->end.sig : t->end.value;
}

/* A thread other than the one stopped, detached where it is.  Stopped by
 * a SIGSTOP of rdb's, which is the stop it is detached from: any other
 * stop seen first (an event, or a signal of the program's, which goes on
 * to it) is resumed until that one comes.  A thread made and not yet
 * stopped (fresh) has its first SIGSTOP (the clone's) still to come: it
 * gets none more, or the one left pending would stop the whole program
 * once untraced, and rdb would wait for its end for ever. */
static int detach_thr(struct rdb_tg *t, pid_t tid, int fresh, int *end)
{
	int st;
	if (!fresh)
		syscall(SYS_tgkill, t->pid, tid, SIGSTOP);
	for (int spins = 0;; spins++) {
		/* the first thread, the last one waited for: any thread rdb
		 * has not heard of is swept meanwhile (it could keep the first
		 * one's stop or end from coming) */
		pid_t r = waitpid(tid, &st, __WALL | (tid == t->pid ? WNOHANG : 0));
		if (r == 0) {
			sweep_threads(t->pid, 1);
			nap(spins);
			continue;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return 0; /* (gone) */
		}
		if (!WIFSTOPPED(st)) {
			*end = st; /* (the program ended meanwhile: its status, for the first thread) */
			return 1;
		}
		if (WSTOPSIG(st) == SIGSTOP && !(st >> 16))
			break;
		ptrace(PTRACE_CONT, tid, NULL, (void *)(long)passed_on(st));
	}
	ptrace(PTRACE_DETACH, tid, NULL, NULL);
	return 0;
}

int rdb_tg_detach(struct rdb_tg *t)
{
	remove_bps(t);
	/* the pages protected for watchpoints open again: untraced, a
	 * write to the program's own would kill it */
	if (t->nswr && !t->swopen)
		sw_protect(t, t->swr, t->nswr, 1);
	t->nswr = 0;
	int st;
	/* the other threads go on untraced (those running are stopped first:
	 * PTRACE_DETACH wants a stopped tracee) */
	for (int i = 0; i < t->nth; i++)
		if (t->th[i].tid != t->pid && t->th[i].tid != t->cur)
			detach_thr(t, t->th[i].tid, t->th[i].fresh, &st);
	int ended_now = 0;
	if (t->cur != t->pid) {
		ptrace(PTRACE_DETACH, t->cur, NULL, (void *)(long)t->sig);
		t->sig = 0;
		/* (the others run untraced now: the program may end first) */
		ended_now = detach_thr(t, t->pid, 0, &st);
	} else if (ptrace(PTRACE_DETACH, t->pid, NULL, (void *)(long)t->sig)) {
		rdb_warn("gdb server: ptrace(PTRACE_DETACH): %s", strerror(errno));
		rdb_tg_kill(t);
		return 125;
	}
	if (!ended_now && wait_first(t->pid, &st, 1)) {
		rdb_warn("gdb server: waitpid: %s", strerror(errno));
		return 125;
	}
	struct rdb_tg_stop s;
	ended(t, st, &s);
	return rdb_tg_status(t);
}

static uint64_t auxv_entry(struct rdb_tg *t)
{
	uint8_t buf[4096];
	size_t n;
	if (rdb_tg_auxv(t, buf, sizeof buf, &n))
		return 0;
	for (size_t i = 0; i + 16 <= n; i += 16) {
		uint64_t k, v;
		memcpy(&k, buf + i, 8);
		memcpy(&v, buf + i + 8, 8);
		if (k == AT_ENTRY)
			return v;
	}
	return 0;
}

static uint64_t elf_entry(const char *exe)
{
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	Elf64_Ehdr eh;
	ssize_t r = fd >= 0 ? pread(fd, &eh, sizeof eh, 0) : -1;
	if (fd >= 0)
		close(fd);
	return r == (ssize_t)sizeof eh ? eh.e_entry : 0;
}

int rdb_tg_start(struct rdb_tg *t, uint64_t from, uint64_t to, int quiet)
{
	rdb_tg_kill(t);
	t->moves++;
	struct rdb_replay_opts o;
	memset(&o, 0, sizeof o);
	o.dir = t->dir;
	o.from = from;
	o.to = to;
	/* The write hooks stay: from an interval, their S plane is what the
	 * replay wrote since, which gdb may read (gdbmem.c).  In every
	 * replay, from the start too: where the runtime removes a hook it
	 * may make its bytes prefixes of the program's instruction, which
	 * then begins at another pc, and a position must name the same
	 * instruction in every replay of the session. */
	o.flags = RDB_TF_HELLO_WRITES | (quiet ? RDB_TF_HELLO_QUIET : 0);
	/* Watching through the shadow pages (no debug registers that fire),
	 * the read hooks stay too, in every replay of the session for the
	 * same reason: rwatch and awatch through the R plane (docs/gdb.md;
	 * not with RDB_GDB_WATCH=writes) */
	if (rdb_tg_watch_shadow() && rdb_tg_watch_reads())
		o.flags |= RDB_TF_HELLO_READS;
	/* (a fork child's history starts at its fork, interval 2: the start
	 * of history, rdb_tl_restart, is there) */
	rdb_replay_fork_child_from(&t->h, &o);
	from = o.from;
	struct launch *ln = rdb_xmalloc(sizeof *ln);
	*ln = (struct launch){from, to, quiet, -1, 1, o.flags};
	t->pid = rdb_replay_spawn(&o, &t->h, &ln->chan);
	t->feeder = rdb_replay_feeder(&o, &t->h, ln->chan, 0);
	t->ln = ln;
	t->have_regs = 0;
	t->sig = 0;
	t->bp_in = 0;
	t->cur = t->pid;
	t->nth = 0;
	thr_add(t, t->pid);
	struct rdb_tg_stop s;
	int st;
	if (waitpid(t->pid, &st, __WALL) != t->pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
		rdb_warn("gdb server: the replay of %s did not start", t->dir);
		t->alive = 0;
		rdb_tg_kill(t);
		return -1;
	}
	t->alive = 1;
	if (ptrace(PTRACE_SETOPTIONS, t->pid, NULL,
	           (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE)))
		return fail(t, &s, "ptrace(PTRACE_SETOPTIONS)");
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/mem", (int)t->pid);
	t->memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->memfd < 0)
		return fail(t, &s, path);
	t->bias = auxv_entry(t) - elf_entry(t->h.image);
	/* from the start: the program's first instruction is musl's _start,
	 * after ours (crt/start.S) and __rdb_start; from an interval: where
	 * the runtime's rt_sigreturn enters it (runtime/replay.c) */
	if (through_runtime(t, 0, from <= 1 ? t->musl_start + t->bias : 0, &s)) {
		rdb_warn("gdb server: the replay from interval %llu ended before its first "
		         "instruction (%s %d)", (unsigned long long)from,
		         s.kind != TG_EXITED ? "error" : s.sig ? "signal" : "status",
		         s.sig ? s.sig : s.value);
		return -1;
	}
	struct rdb_pos p;
	if (rdb_tg_pos(t, &p) == 0 && p.interval < MAXIV)
		t->start_pc[p.interval] = p.pc;
	return 0;
}

/* ---- threads ------------------------------------------------------------------ */

int rdb_tg_threaded(const struct rdb_tg *t) { return rdb_births_any(t->births); }
void rdb_tg_want_thread(struct rdb_tg *t, uint64_t slot, uint64_t born)
{
	t->want_slot = slot;
	t->want_born = born;
}
int rdb_tg_wanted(const struct rdb_tg *t, const struct rdb_pos *p)
{
	return p->slot == t->want_slot && p->born == t->want_born;
}
uint64_t rdb_tg_born_before(const struct rdb_tg *t, uint32_t slot, uint64_t interval)
{
	return rdb_born_at(t->births, slot, interval, 0);
}

static uint64_t peek_at(struct rdb_tg *t, uint64_t a)
{
	uint64_t v = 0;
	peek(t, a, &v);
	return v;
}

/* gregs (a ucontext's, REG_* order) as ptrace's registers. */
static void from_gregs(struct user_regs_struct *r, const uint64_t *g)
{
	r->r8 = g[0], r->r9 = g[1], r->r10 = g[2], r->r11 = g[3], r->r12 = g[4];
	r->r13 = g[5], r->r14 = g[6], r->r15 = g[7], r->rdi = g[8], r->rsi = g[9];
	r->rbp = g[10], r->rbx = g[11], r->rdx = g[12], r->rax = g[13], r->rcx = g[14];
	r->rsp = g[15], r->rip = g[16], r->eflags = g[17] & ~0x10100ull;
}

/* A thread waiting for the token: the program's registers where it waits,
 * as the runtime keeps them (sched.c's THCTX and THSTATE say the same):
 * after a time slice, the event's context; blocked in a call, the entry
 * stub's frame (the arguments, the flags, the return address) and the
 * callee-saved registers it stored, at the call's return address as the
 * kernel shows a call in progress; not started, its first registers. */
static int parked_regs(struct rdb_tg *t, uint32_t k, uint32_t how, struct user_regs_struct *r)
{
	uint64_t a = th_addr(k);
	uint64_t g[RDB_TF_NGREG];
	memset(r, 0, sizeof *r);
	memset(g, 0, sizeof g);
	r->cs = 0x33;
	r->ss = 0x2b;
	r->fs_base = peek_at(t, a + RDB_TH_PARK_FS);
	if (how == RDB_TF_PARK_SLICE) {
		uint64_t pg = peek_at(t, a + RDB_TH_PARK_G);
		if (!pg || rdb_tg_read(t, pg, g, sizeof g) != sizeof g)
			return -1;
		from_gregs(r, g);
		return 0;
	}
	if (how == RDB_TF_PARK_NEW) {
		if (rdb_tg_read(t, a + RDB_TH_START_G, g, sizeof g) != sizeof g)
			return -1;
		from_gregs(r, g);
		/* (its %fs: the clone's TLS, CLONE_SETTLS) */
		r->fs_base = (g[8] & 0x80000) ? g[0] : 0;
		return 0;
	}
	if (how != RDB_TF_PARK_BLOCKED)
		return -1;
	uint64_t sp = peek_at(t, a + RDB_TH_STUB_SP), f[8], cs[4];
	if (!sp || rdb_tg_read(t, sp, f, sizeof f) != sizeof f ||
	    rdb_tg_read(t, a + RDB_TH_PROG_CS, cs, sizeof cs) != sizeof cs)
		return -1;
	r->rdi = f[0], r->rsi = f[1], r->rdx = f[2], r->r10 = f[3], r->r8 = f[4], r->r9 = f[5];
	r->eflags = f[6] & ~0x10100ull;
	r->rip = r->rcx = f[7];
	r->r11 = f[6];
	r->rsp = sp + 64; /* (above the return address) */
	r->rbp = peek_at(t, sp - 8);
	r->rbx = cs[0], r->r12 = cs[1], r->r13 = cs[2], r->r14 = cs[3];
	r->rax = r->orig_rax = (uint64_t)peek_at(t, a + RDB_TH_PARK_NR);
	r->r15 = peek_at(t, origin_addr(k)) + peek_at(t, a + RDB_TH_PARK_SIC);
	return 0;
}

int rdb_tg_threads(struct rdb_tg *t, struct rdb_tg_thread **out)
{
	*out = NULL;
	if (!t->alive || get_regs(t))
		return 0;
	uint64_t cur = slot_of(t->regs.r15);
	int n = 0, cap = 0;
	struct rdb_tg_thread *v = NULL;
	/* (every slot: a free one between live ones is not mapped, or not
	 * alive) */
	for (uint32_t k = 0; k < RDB_THREAD_MAX; k++) {
		uint64_t a = th_addr(k);
		int32_t alive = 0;
		uint32_t how = 0;
		if (k != cur && (rdb_tg_read(t, a + RDB_TH_ALIVE, &alive, 4) != 4 || !alive))
			continue;
		if (k != cur && rdb_tg_read(t, a + RDB_TH_PARK, &how, 4) != 4)
			continue;
		if (n == cap)
			v = rdb_xrealloc(v, (size_t)(cap = cap ? 2 * cap : 8) * sizeof *v);
		struct rdb_tg_thread *h = &v[n++];
		memset(h, 0, sizeof *h);
		h->slot = k;
		/* the runtime's birth is the launch's (0: made before it) */
		h->born = peek_at(t, a + RDB_TH_BORN);
		if (!h->born && k && t->ln)
			h->born = rdb_born_at(t->births, k, t->ln->from, 0);
		if (k == cur) {
			h->how = 0;
			h->regs = t->regs;
			continue;
		}
		h->how = how;
		h->nr = how == RDB_TF_PARK_BLOCKED ? (long)peek_at(t, a + RDB_TH_PARK_NR) : 0;
		if (!how || parked_regs(t, k, how, &h->regs))
			h->how = TG_TH_UNKNOWN;
	}
	*out = v;
	return n;
}

int rdb_tg_bounded(const struct rdb_tg *t) { return !t->ln || t->ln->to != 0; }
uint64_t rdb_tg_from(const struct rdb_tg *t) { return t->ln ? t->ln->from : 0; }
uint64_t rdb_tg_moves(const struct rdb_tg *t) { return t->moves; }
uint64_t rdb_tg_bias(const struct rdb_tg *t) { return t->bias; }
