/* signal.c: the runtime owns every signal (paper 3.2.3).
 *
 * The program's rt_sigaction changes only its view (RT->signal.view); the kernel
 * gets the runtime's handler wherever something must happen first:
 *   - the program's handler: rdb_sig_entry builds its frame and starts
 *     it as the kernel would; its return (rdb_handler_done) writes the
 *     handler's SIC into the context rt_sigreturn restores, which would
 *     roll the SIC back;
 *   - SIG_DFL of a signal that kills: termination callbacks, then the
 *     default action re-raised (refault, or tgkill with the signal left as
 *     the only one unblocked) so exit status and core are as without rdb.
 * SIG_IGN, and SIG_DFL of signals that ignore, stop or continue, go to the
 * kernel as they are: a handler there would make blocking calls return
 * EINTR where the program's would not.  Instrumentation libraries see
 * every delivery first (rdb_on_signal).  Recording and replaying, a
 * handler of the program runs only at a SIC check (defer) or at the
 * return of another (event_at_return).
 *
 * Every signal comes in on the runtime's signal stack (layout.h): no frame
 * of the runtime's or the kernel's is ever written below the program's
 * %rsp, where its uninitialised locals would read them (the timer's
 * frames land anywhere in a recording and nowhere in replay).  A handler
 * of the program gets the frame the kernel would have built for it, where
 * the kernel would have built it (struct rdb_sigframe, rt.h): the runtime's
 * part of the delivery ends before the handler starts, and its return
 * (rdb_handler_return) ends it as rt_sigreturn would, so no frame of the
 * runtime's lives while a handler runs.  The program's sigaltstack changes
 * only its view (TH->signal.prog_ss). */
#include "rt.h"

/* The kernel's siginfo, the fields we use (ucontext: rt.h). */
#define SI_CODE 8
#define SI_PID 16
#define SI_ADDR 16
#define SI_USER 0
#define SI_TKILL (-6)

static uint64_t *gregs(void *uc) { return rdb_gregs(uc); }
static uint64_t *ucmask(void *uc) { return (uint64_t *)((char *)uc + UC_SIGMASK); }

static uint64_t bit(int sig) { return 1ull << (sig - 1); }

enum dfl { DFL_TERM, DFL_CORE, DFL_IGN, DFL_STOP, DFL_CONT };

static enum dfl dfl_action(int sig)
{
	switch (sig) {
	case 3: case 4: case 5: case 6: case 7: case 8: case 11: case 24: case 25:
	case 31: /* QUIT ILL TRAP ABRT BUS FPE SEGV XCPU XFSZ SYS */
		return DFL_CORE;
	case RDB_SIGCHLD: case RDB_SIGURG: case RDB_SIGWINCH:
		return DFL_IGN;
	case RDB_SIGSTOP: case RDB_SIGTSTP: case RDB_SIGTTIN: case RDB_SIGTTOU:
		return DFL_STOP;
	case RDB_SIGCONT:
		return DFL_CONT;
	default:
		return DFL_TERM; /* including the realtime signals */
	}
}

static long ksigaction(int sig, const struct rdb_ksigaction *k,
                       struct rdb_ksigaction *old)
{
	return rdb_sys4(__NR_rt_sigaction, sig, k, old, 8);
}

/* What the kernel gets for the program's view of sig. */
static long install(int sig)
{
	const struct rdb_ksigaction *v = &RT->signal.view[sig];
	struct rdb_ksigaction k;
	k.restorer = (uintptr_t)&rdb_restore_rt;
	if (v->handler == RDB_SIG_IGN ||
	    (v->handler == RDB_SIG_DFL && dfl_action(sig) >= DFL_IGN)) {
		k.handler = v->handler;
		k.flags = (v->flags & ~(unsigned long)RDB_SA_RESETHAND) | RDB_SA_RESTORER;
		k.mask = v->mask;
	} else if (v->handler == RDB_SIG_DFL) {
		/* All blocked in our handler: the re-raise stays pending. */
		k.handler = (uintptr_t)&rdb_sig_entry;
		k.flags = RDB_SA_SIGINFO | RDB_SA_RESTORER | RDB_SA_RESTART;
		k.mask = ~0ull;
	} else {
		/* The program's flags and mask; SA_RESETHAND is emulated so the
		 * reset goes through the view. */
		k.handler = (uintptr_t)&rdb_sig_entry;
		k.flags = (v->flags & ~(unsigned long)RDB_SA_RESETHAND) | RDB_SA_SIGINFO |
		          RDB_SA_RESTORER;
		k.mask = v->mask;
	}
	if (sig == RDB_SIGSEGV) {
		/* A SIC check's fault must reach us even where the program ignores
		 * or blocks SIGSEGV (the kernel would kill on a blocked fault). */
		k.handler = (uintptr_t)&rdb_sig_entry;
		k.flags |= RDB_SA_SIGINFO | RDB_SA_NODEFER;
	}
	/* The runtime's part of a delivery runs with every signal blocked: a
	 * signal nested there would poke the SIC in our registers instead of
	 * the program's (sic.c).  The program's handler gets its own mask
	 * (rdb_sig_entry). */
	if (k.handler == (uintptr_t)&rdb_sig_entry) {
		k.mask = ~0ull;
		k.flags |= RDB_SA_ONSTACK;
	}
	return ksigaction(sig, &k, 0);
}

uint64_t rdb_block_all(void)
{
	uint64_t all = ~0ull, old = 0;
	rdb_sys4(__NR_rt_sigprocmask, RDB_SIG_SETMASK, &all, &old, 8);
	return old;
}

void rdb_set_mask(uint64_t m) { rdb_sys4(__NR_rt_sigprocmask, RDB_SIG_SETMASK, &m, 0, 8); }

/* Signals the runtime keeps for itself: the program's calls change only
 * its view of them. */
static void reserve(int sig)
{
	RT->signal.reserved_sigs |= bit(sig);
	struct rdb_ksigaction k = {(uintptr_t)&rdb_sig_entry,
	                           RDB_SA_SIGINFO | RDB_SA_RESTORER | RDB_SA_RESTART |
	                               RDB_SA_ONSTACK,
	                           (uintptr_t)&rdb_restore_rt, ~0ull};
	ksigaction(sig, &k, 0);
}

void rdb_signal_reserve_timer(void) { reserve(RDB_SIG_TIMER); }

void rdb_signal_reserve(int sig) { reserve(sig); }

/* The program's alternate stack (its view), for what is left out of the
 * checksums and values (interval.c, checksum.c). */
void rdb_altstack(uint64_t *lo, uint64_t *hi)
{
	int off = (TH->signal.prog_ss[RDB_SS_FLAGS] & RDB_SS_DISABLE) || !TH->signal.prog_ss[RDB_SS_SIZE];
	*lo = off ? 0 : TH->signal.prog_ss[RDB_SS_SP];
	*hi = off ? 0 : TH->signal.prog_ss[RDB_SS_SP] + TH->signal.prog_ss[RDB_SS_SIZE];
}

/* sp is on the program's alternate stack (the kernel's test). */
static int on_altstack(uint64_t sp)
{
	uint64_t lo, hi;
	rdb_altstack(&lo, &hi);
	return hi > lo && sp > lo && sp <= hi;
}

static void altstack_off(void)
{
	TH->signal.prog_ss[RDB_SS_SP] = TH->signal.prog_ss[RDB_SS_SIZE] = 0;
	TH->signal.prog_ss[RDB_SS_FLAGS] = RDB_SS_DISABLE;
}

/* Replay from an interval: the kernel learns the program's view again. */
static int queued_at(int signo)
{
	for (int i = 0; i < RT->signal.nqueued; i++)
		if (RT->signal.queued[i].signo == signo)
			return i;
	return -1;
}

/* Takes the oldest requeued instance of signo off RT->signal.queued: 1 if there
 * was one (this delivery is it). */
static int take_queued(int signo)
{
	int i = queued_at(signo);
	if (i < 0)
		return 0;
	RT->signal.nqueued--;
	for (; i < RT->signal.nqueued; i++)
		RT->signal.queued[i] = RT->signal.queued[i + 1];
	return 1;
}

void rdb_signal_reinstall(void)
{
	for (int sig = 1; sig < RDB_NSIG; sig++)
		if (sig != RDB_SIGKILL && sig != RDB_SIGSTOP && !(RT->signal.reserved_sigs & bit(sig)))
			install(sig);
}

/* signo with info to this thread.  The kernel counts the signals queued
 * for the user against RLIMIT_SIGPENDING: the runtime took this one off
 * the queue, and others may have come since (several requeued together,
 * another process's), so at the soft limit it raises it to the hard one
 * for this call and sets it back. */
static long queue_self(int signo, const uint8_t info[128])
{
	long pid = rdb_sys0(__NR_getpid), tid = rdb_sys0(__NR_gettid);
	long r = rdb_sys4(__NR_rt_tgsigqueueinfo, pid, tid, signo, info);
	uint64_t lim[2], up[2];
	if (r != -RDB_EAGAIN ||
	    rdb_sys4(__NR_prlimit64, 0, 11 /* RLIMIT_SIGPENDING */, 0, lim) < 0 || lim[0] >= lim[1])
		return r;
	up[0] = up[1] = lim[1];
	if (rdb_sys4(__NR_prlimit64, 0, 11, up, 0) < 0)
		return r;
	r = rdb_sys4(__NR_rt_tgsigqueueinfo, pid, tid, signo, info);
	rdb_sys4(__NR_prlimit64, 0, 11, lim, 0);
	return r;
}

long rdb_signal_send_self(int signo, const uint8_t info[128])
{
	long r = queue_self(signo, info);
	if (r != -RDB_EAGAIN)
		return r;
	/* The hard limit too: it comes without its siginfo, as one the
	 * kernel has no room for (si_code SI_USER: never refused). */
	uint8_t bare[128];
	rdb_memset(bare, 0, sizeof bare);
	*(int *)bare = signo;
	return queue_self(signo, bare);
}

/* Each requeued signal is on RT->signal.queued until the kernel delivers it: the
 * handler that comes then is the one the event queued, not another
 * process's (defer), and one still blocked at a boundary is in its
 * context, for a replay from there (rdb_signal_queue_again). */
void rdb_signal_requeue(int signo, const uint8_t info[128])
{
	RT->signal.requeued++;
	if (signo < 32 && queued_at(signo) >= 0)
		return; /* the kernel keeps one standard signal pending */
	if (rdb_grow(RDB_G_QUEUED, (uint64_t)(RT->signal.nqueued + 1) * sizeof RT->signal.queued[0])) {
		struct rdb_tf_queued *q = &RT->signal.queued[RT->signal.nqueued++];
		q->signo = signo;
		q->pad = 0;
		rdb_memcpy(q->siginfo, info, 128);
	} else if (RT->mode == RDB_TF_MODE_REPLAY) {
		rdb_die("no memory for the %d signals queued again\n", RT->signal.nqueued);
	} else {
		/* (this one: untracked) */
		rdb_record_limit("the list of signals queued again cannot grow (no memory for it)");
	}
	long r = queue_self(signo, info);
	if (r == -RDB_EAGAIN && RT->mode == RDB_TF_MODE_RECORD) {
		rdb_record_limit("the kernel's queue of pending signals is full (RLIMIT_SIGPENDING)");
		r = rdb_signal_send_self(signo, info);
	}
	if (r < 0)
		rdb_die("cannot queue signal %d again (error %ld)\n", signo, -r);
}

/* Replay from a boundary: what the recording had queued again and the
 * kernel still held there goes back into the kernel's queue, in order
 * (all blocked until the start context loads the recorded mask). */
void rdb_signal_queue_again(const struct rdb_tf_queued *q, uint64_t n)
{
	rdb_block_all();
	for (uint64_t i = 0; i < n; i++) {
		if (RT->start.debug > 1)
			rdb_printf("rdb: signal %d queued again, as at the boundary\n", q[i].signo);
		rdb_signal_requeue(q[i].signo, q[i].siginfo);
	}
}

static int sync_signal(int sig, int code)
{
	return code > 0 && (sig == RDB_SIGSEGV || sig == RDB_SIGBUS || sig == RDB_SIGILL ||
	                    sig == RDB_SIGFPE || sig == RDB_SIGTRAP);
}

/* A signal deferred while rdb_prog_syscall is about to enter the kernel
 * (or to restart a call the kernel rewound): the call is cut short and
 * runs again after the handler (syscall.S). */
static void cut_syscall(void *uc)
{
	extern const char rdb_psc_begin[], rdb_psc_end[], rdb_psc_cut[];
	uint64_t *pc = &gregs(uc)[REG_RIP];
	if (TH->signal.sc_cut && *pc >= (uintptr_t)rdb_psc_begin && *pc < (uintptr_t)rdb_psc_end)
		*pc = (uintptr_t)rdb_psc_cut;
}

/* Record: a signal for the program's handler waits for the next SIC check,
 * where replay can deliver it again: the program's next one, or the entry
 * stub's check after the syscall the runtime is running (the kernel may
 * deliver it there because the call blocked, sent it to ourselves, or
 * unblocked it).  So the handler always runs at a program-level depth,
 * after the call's effects, and every delivery is recorded (AT_SIC) and
 * queued again by replay.  A blocking call the signal interrupts returns
 * EINTR as it would, or is cut short and run again after the handler
 * (SA_RESTART, or the signal came just before it).  Returns 1 when
 * deferred. */
static int defer(int sig, void *si, void *uc)
{
	int code = *(int *)((char *)si + SI_CODE);
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		/* What the trace queued again (not when it arrives in a syscall:
		 * the recording queued it once more, for the stub's check) and
		 * faults; anything else (another process's) is dropped: the
		 * trace delivers what the recording delivered. */
		if (take_queued(sig))
			return TH->signal.in_stub;
		return !sync_signal(sig, code);
	}
	if (RT->mode != RDB_TF_MODE_RECORD)
		return 0;
	if (take_queued(sig)) {
		/* one queued again by an event (several: a real-time signal
		 * queued while the handler blocks it); blocked there, it comes
		 * in a syscall: to the stub's check, as a new delivery */
		if (RT->start.debug > 1)
			rdb_printf("rdb: signal %d delivered after its event%s\n", sig,
			           TH->signal.in_stub ? ", in a syscall: again" : "");
		if (!TH->signal.in_stub)
			return 0;
	} else if (sync_signal(sig, code)) {
		return 0;
	}
	cut_syscall(uc);
	for (int i = 0; i < TH->sig.npending; i++)
		if (rdb_pending()[i].signo == sig && sig < 32)
			return 1; /* standard signals do not queue */
	if (!rdb_pending_room())
		return 1; /* as a full kernel queue would */
	if (RT->start.debug > 1)
		rdb_printf("rdb: signal %d deferred (code %d, %d pending%s)\n", sig, code,
		           TH->sig.npending, TH->signal.in_stub ? ", in a syscall" : "");
	rdb_pending()[TH->sig.npending].signo = sig;
	rdb_memcpy(rdb_pending()[TH->sig.npending].info, si, 128);
	TH->sig.npending++;
	rdb_sic_want(uc);
	return 1;
}

/* ---- delivery at the entry stub's check ------------------------------- */

/* Calls whose mask holds while they wait: signals they let in are
 * delivered with it (then the mask they leave), as the kernel does. */
static int call_mask(long nr, const long *a, uint64_t *m)
{
	long pm[2]; /* syscalls.spec SIGMASK: the mask's address and size */
	if (!rdb_systab_sigmask(nr, a, pm))
		return 0;
	const uint64_t *p = (const uint64_t *)pm[0];
	long size = pm[1];
	if (!p || size != 8 || !rdb_covered((uintptr_t)p, 8))
		return 0;
	*m = *p & ~(RT->signal.reserved_sigs | bit(RDB_SIGSEGV));
	return 1;
}

int rdb_pending_room(void)
{
	uint64_t n = (uint64_t)TH->sig.npending + 1;
	return rdb_th_slot() ? n <= RDB_TH_PENDING :
	                       rdb_grow(RDB_G_PENDING, n * sizeof(struct rdb_pending));
}

void rdb_signal_stub_enter(long nr, const long a[6])
{
	/* A handler that interrupted a syscall's runtime part (unrecorded)
	 * and was left by longjmp: the program is above that call again. */
	if (TH->sc_nest && (uintptr_t)a > TH->signal.sc_nest_sp)
		TH->sc_nest = 0;
	TH->signal.stub_sp = (uintptr_t)a;
	TH->signal.in_stub = 1;
	TH->signal.sc_mask_ok = call_mask(nr, a, &TH->signal.sc_mask);
	TH->signal.restore_ok = 0; /* (taken by the handler it was for, or stale) */
}

void rdb_signal_stub_leave(void) { TH->signal.in_stub = 0; }

/* The mask a handler's own is added to: the interrupted code's, but
 * sigsuspend's (ppoll's, ...) when the signal ends it (unrecorded: the
 * handler runs here; recording and replaying, rdb_signal_after_event does
 * this at the stub's check). */
static uint64_t handler_base_mask(void *uc)
{
	extern const char rdb_psc_end[];
	uint64_t *g = gregs(uc);
	if (RT->mode == 0 && TH->signal.in_stub && TH->signal.sc_mask_ok && g[REG_RIP] == (uintptr_t)rdb_psc_end &&
	    g[REG_RAX] == (uint64_t)-RDB_EINTR)
		return TH->signal.sc_mask;
	return *ucmask(uc);
}

/* Calls replay runs again never return the cut: they do not block (nor
 * do those syscalls.spec marks NOCUT). */
static int cuttable(long nr)
{
	return !(rdb_systab_attrs(nr) & (RDB_ATTR_ADDRSPACE | RDB_ATTR_REEXEC | RDB_ATTR_NOCUT));
}

long rdb_signal_syscall(long nr, const long a[6])
{
	static const int no_cut = 0;
	int cut = TH->signal.sc_cut; /* (a call of run_spawn's inside the program's) */
	TH->signal.sc_cut = RT->mode == RDB_TF_MODE_RECORD && TH->signal.in_stub && cuttable(nr);
	long r = rdb_prog_syscall(nr, a, TH->signal.sc_cut ? &TH->sig.npending : &no_cut);
	TH->signal.sc_cut = cut;
	return r;
}

void rdb_signal_after_event(void *uc, uint64_t pc, uint64_t requeued_before)
{
	extern const char rdb_stub_check[];
	if (pc != (uintptr_t)rdb_stub_check)
		return;
	int ok = TH->signal.sc_mask_ok;
	TH->signal.sc_mask_ok = 0;
	/* (a call that returned otherwise left its mask before the kernel
	 * delivered anything) */
	if (!ok || RT->signal.requeued == requeued_before || rdb_gregs(uc)[REG_RAX] != (uint64_t)-RDB_EINTR)
		return;
	TH->signal.restore_ok = 1;
	TH->signal.restore_mask = *ucmask(uc);
	*ucmask(uc) = TH->signal.sc_mask;
}

/* The program's sigaltstack, emulated (the kernel's is the runtime's):
 * its SA_ONSTACK handlers run there (rdb_sig_entry).  sp: the caller's
 * stack pointer. */
long rdb_sig_altstack(const uint64_t *ss, uint64_t *old, uintptr_t sp)
{
	uint64_t o[3] = {TH->signal.prog_ss[RDB_SS_SP], TH->signal.prog_ss[RDB_SS_FLAGS], TH->signal.prog_ss[RDB_SS_SIZE]};
	int on = on_altstack(sp);
	if ((ss && !rdb_covered((uintptr_t)ss, 24)) || (old && !rdb_covered((uintptr_t)old, 24)))
		return -RDB_EFAULT;
	if (ss && on)
		return -RDB_EPERM;
	if (ss) {
		uint64_t flags = (uint32_t)ss[RDB_SS_FLAGS] & ~RDB_SS_ONSTACK; /* Linux ignores it */
		if (flags & ~(RDB_SS_DISABLE | RDB_SS_AUTODISARM))
			return -RDB_EINVAL;
		if (!(flags & RDB_SS_DISABLE) && ss[RDB_SS_SIZE] < RDB_MINSIGSTKSZ)
			return -RDB_ENOMEM;
		TH->signal.prog_ss[RDB_SS_SP] = flags & RDB_SS_DISABLE ? 0 : ss[RDB_SS_SP];
		TH->signal.prog_ss[RDB_SS_FLAGS] = flags;
		TH->signal.prog_ss[RDB_SS_SIZE] = flags & RDB_SS_DISABLE ? 0 : ss[RDB_SS_SIZE];
	}
	if (old) {
		old[RDB_SS_SP] = o[RDB_SS_SP];
		old[RDB_SS_FLAGS] = on ? RDB_SS_ONSTACK | (o[RDB_SS_FLAGS] & RDB_SS_AUTODISARM) :
		                         o[RDB_SS_FLAGS];
		old[RDB_SS_SIZE] = o[RDB_SS_SIZE];
	}
	return 0;
}

/* The kernel's alternate stack: the runtime's, for good.  The program
 * starts with none of its own (execve drops it). */
static void own_sigstack(void)
{
	uint64_t ss[3] = {[RDB_SS_SP] = TH->sig_lo, [RDB_SS_SIZE] = RDB_SIGSTACK_SIZE};
	long r = rdb_sys2(__NR_sigaltstack, ss, 0);
	if (r < 0)
		rdb_die("cannot set the runtime's signal stack (error %ld)\n", -r);
	altstack_off();
}

void rdb_signal_init(void)
{
	own_sigstack();
	for (int sig = 1; sig < RDB_NSIG; sig++) {
		struct rdb_ksigaction old;
		if (sig == RDB_SIGKILL || sig == RDB_SIGSTOP ||
		    ksigaction(sig, 0, &old) < 0) {
			rdb_memset(&RT->signal.view[sig], 0, sizeof RT->signal.view[sig]);
			continue;
		}
		RT->signal.view[sig] = old; /* inherited across exec: DFL or IGN */
		install(sig);
	}
}

long rdb_sig_action(long sig, const struct rdb_ksigaction *act,
                    struct rdb_ksigaction *oact, long setsize)
{
	if (setsize != 8 || sig < 1 || sig >= RDB_NSIG)
		return -RDB_EINVAL;
	if (act && (sig == RDB_SIGKILL || sig == RDB_SIGSTOP))
		return -RDB_EINVAL;
	struct rdb_ksigaction old = RT->signal.view[sig];
	if (act) {
		RT->signal.view[sig] = *act;
		RT->signal.view[sig].mask &= ~(bit(RDB_SIGKILL) | bit(RDB_SIGSTOP));
		if (!(RT->signal.reserved_sigs & bit((int)sig))) {
			long r = install((int)sig);
			if (r < 0) {
				RT->signal.view[sig] = old;
				return r;
			}
		}
	}
	if (oact) {
		*oact = old;
		rdb_shadow_syswrite((uintptr_t)oact, sizeof *oact);
	}
	return 0;
}

/* The program may not block the runtime's own signals; it sees its own
 * idea of their mask bits. */
long rdb_sig_procmask(long how, const uint64_t *set, uint64_t *oset,
                      long setsize)
{
	uint64_t s = 0, o = 0, res = RT->signal.reserved_sigs | bit(RDB_SIGSEGV);
	if (setsize != 8 || (set && how != RDB_SIG_BLOCK && how != RDB_SIG_UNBLOCK &&
	                     how != RDB_SIG_SETMASK))
		return rdb_sys4(__NR_rt_sigprocmask, how, set, oset, setsize);
	if (set)
		s = *set; /* before the kernel writes oset: they may alias */
	/* The view of ours changes first: a signal the call lets in comes
	 * as it returns, and its delivery reads the view (a SIGSEGV blocked
	 * there kills: force_sigsegv).  The kernel never blocks ours. */
	uint64_t was = TH->signal.reserved_blocked, want = s & res;
	if (set && how == RDB_SIG_BLOCK)
		TH->signal.reserved_blocked |= want;
	else if (set && how == RDB_SIG_UNBLOCK)
		TH->signal.reserved_blocked &= ~want;
	else if (set)
		TH->signal.reserved_blocked = want;
	s &= ~res;
	long r = rdb_sys4(__NR_rt_sigprocmask, how, set ? &s : 0, oset ? &o : 0, 8);
	if (r < 0) {
		TH->signal.reserved_blocked = was;
		return r;
	}
	if (oset) {
		*oset = (o & ~res) | was;
		rdb_shadow_syswrite((uintptr_t)oset, 8);
	}
	return 0;
}

/* A fault in an instrumentation sequence is the program's own access
 * faulting in its hook (the planes are always mapped): say so when asked
 * (RDB_DEBUG in the environment), the exit status is as without rdb. */
static void note_fault(int sig, void *si, void *uc)
{
	uintptr_t pc = gregs(uc)[REG_RIP], start = 0;
	const struct rdb_iot_entry *e = rdb_iot_find(pc, &start);
	TH->fault_pc = pc;
	TH->fault_in_hook = e != 0;
	if (!RT->start.debug)
		return;
	uintptr_t addr = *(uintptr_t *)((char *)si + SI_ADDR);
	if (e)
		rdb_printf("rdb: signal %d at pc %p (image offset 0x%lx) in the hook sequence "
		           "[%p, +%u) of an instrumented access (fault address %p)\n",
		           sig, (void *)pc, (unsigned long)(pc - RT->start.bias), (void *)start, e->len,
		           (void *)addr);
	else
		rdb_printf("rdb: signal %d at pc %p (image offset 0x%lx, fault address %p)\n",
		           sig, (void *)pc, (unsigned long)(pc - RT->start.bias), (void *)addr);
	/* (char arrays, not pointers: no relocation, rt.h) */
	static const char names[16][4] = {"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	                                  "rdi", "rsi", "rbp", "rbx", "rdx", "rax", "rcx", "rsp"};
	for (int i = 0; RT->start.debug > 1 && i < 16; i++)
		rdb_printf("rdb:   %s = 0x%lx\n", names[i], (unsigned long)gregs(uc)[i]);
}

/* A program access outside the covered range (a null pointer) faults in
 * its hook, on the shadow address: give the program's handler the address
 * it accessed.  Inside the range the planes are mapped, so a fault there is
 * the program's own instruction, and so is any fault outside a hook (a
 * replay without hooks, unhook.c). */
static void unshadow_fault_addr(int sig, void *si, void *uc)
{
	int code = *(int *)((char *)si + SI_CODE);
	if ((sig != RDB_SIGSEGV && sig != RDB_SIGBUS) || code <= 0)
		return;
	uintptr_t *addr = (uintptr_t *)((char *)si + SI_ADDR);
	if (*addr >= RDB_COVER_LO && *addr < RDB_COVER_HI)
		return;
	int plane = rdb_hook_plane(gregs(uc)[REG_RIP]);
	if (plane)
		*addr += plane == 'S' ? RDB_S_OFFSET : RDB_R_OFFSET;
}

/* A read hook with a check leaves the flags of an equal compare, and a
 * replay without hooks has cmp %r13, %r13 in its place (unhook.c), but
 * the hook's own compare of the R bytes may fault first (an address
 * outside the planes: a null pointer) with the flags the code before
 * left: the handler gets those of the equal compare, as in that replay
 * (tests/record/progs/fault-flags.c).  The hook sets no flags before
 * its compare: one instruction less in every checked read. */
static void check_hook_flags(int sig, int code, void *uc)
{
	uint64_t pc = gregs(uc)[REG_RIP];
	if (sync_signal(sig, code) && rdb_iot_insn(pc) != pc && rdb_in_check_hook(pc))
		gregs(uc)[REG_EFL] = (gregs(uc)[REG_EFL] & ~0x8d5ull) | 0x44; /* ZF PF */
}

/* Killed by sig (not a fault that comes again), as without rdb: the
 * termination callbacks, then sig with the default action, the only
 * signal unblocked when the delivery returns. */
static void kill_by(int sig, void *uc)
{
	rdb_run_term(-1, sig);
	struct rdb_ksigaction k = {RDB_SIG_DFL, 0, 0, 0};
	ksigaction(sig, &k, 0);
	long pid = rdb_sys0(__NR_getpid), tid = rdb_sys0(__NR_gettid);
	rdb_sys3(__NR_tgkill, pid, tid, sig);
	*ucmask(uc) = ~bit(sig);
}

static void default_action(int sig, void *si, void *uc)
{
	int code = *(int *)((char *)si + SI_CODE);
	if (!sync_signal(sig, code) || sig == RDB_SIGTRAP) {
		kill_by(sig, uc);
		return;
	}
	/* the instruction faults again, now fatally */
	note_fault(sig, si, uc);
	rdb_run_term(-1, sig);
	struct rdb_ksigaction k = {RDB_SIG_DFL, 0, 0, 0};
	ksigaction(sig, &k, 0);
}

/* ---- the program's handler ---------------------------------------------- */

/* The kernel's xsave image at fp: its size (the kernel's fpx_sw_bytes
 * say), 512 for a bare fxsave image. */
uint32_t rdb_xstate_size(const uint8_t *fp)
{
	uint32_t magic, size;
	rdb_memcpy(&magic, fp + 464, 4);
	rdb_memcpy(&size, fp + 468, 4);
	if (magic == 0x46505853u /* FP_XSTATE_MAGIC1 */ && size >= 512 &&
	    size <= sizeof RT->replay.fpbuf)
		return size;
	return 512;
}

/* Where each xsave component lies in the standard format (CPUID leaf 0xd:
 * asked once, cpuid is slow in a virtual machine). */
void rdb_xstate_layout(void)
{
	if (RT->signal.xs_known)
		return;
	for (unsigned i = 2; i < 32; i++) {
		uint32_t a, b, c, d;
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(i));
		RT->signal.xs_size[i] = a;
		RT->signal.xs_off[i] = b;
	}
	RT->signal.xs_known = 1;
}

/* The kernel's xsave image src (n bytes) into dst, with every byte the
 * processor does not write zero: the reserved bytes and the components in
 * their initial state (XSTATE_BV clear: xrstor ignores them) hold what
 * the runtime's signal stack held before, which differs between record
 * and replay, and the copy is program memory. */
static void copy_xstate(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	rdb_memset(dst, 0, n);
	rdb_memcpy(dst, src, 416); /* x87 and SSE control, st0-7, xmm0-15 */
	for (int st = 0; st < 8; st++) /* each st register's 6 reserved bytes */
		rdb_memset(dst + 32 + 16 * st + 10, 0, 6);
	rdb_memcpy(dst + 464, src + 464, 48); /* the kernel's fpx_sw_bytes */
	if (n < 512 + 64 + 4)
		return;
	uint64_t bv, features;
	rdb_memcpy(&bv, src + 512, 8);
	rdb_memcpy(&features, src + 472, 8);
	rdb_memcpy(dst + 512, &bv, 8);
	rdb_xstate_layout();
	for (unsigned i = 2; i < 32; i++) {
		uint32_t off = RT->signal.xs_off[i], size = RT->signal.xs_size[i];
		if ((bv & features & (1ull << i)) && off >= 576 && off + size <= n - 4)
			rdb_memcpy(dst + off, src + off, size);
	}
	rdb_memcpy(dst + n - 4, src + n - 4, 4); /* FP_XSTATE_MAGIC2 */
}

/* sp on the program's alternate stack as the kernel tests it when it
 * delivers (with SS_AUTODISARM: never, the kernel disarms it instead). */
static int kernel_on_altstack(uint64_t sp)
{
	return !(TH->signal.prog_ss[RDB_SS_FLAGS] & RDB_SS_AUTODISARM) && on_altstack(sp);
}

/* Where the kernel would build the handler's frame (its get_sigframe):
 * below the interrupted %rsp past the red zone, or at the top of the
 * program's alternate stack (SA_ONSTACK, not on it yet); the xsave image
 * (xsize bytes, 64-aligned) above the frame, which ends 8 bytes off a
 * 16-byte boundary (the handler's entry, as after a call).  Returns the
 * frame, 0 if it would overflow the alternate stack (the kernel sends
 * SIGSEGV then); *fx the xsave image. */
static uintptr_t frame_at(const struct rdb_ksigaction *v, uint64_t isp, uint32_t xsize,
                          uintptr_t *fx)
{
	uint64_t lo, hi, sp = isp - 128;
	rdb_altstack(&lo, &hi);
	int alt = kernel_on_altstack(isp);
	if ((v->flags & RDB_SA_ONSTACK) && hi > lo && !kernel_on_altstack(sp)) {
		sp = hi;
		alt = 1;
	}
	*fx = sp = (sp - xsize) & ~63ull;
	sp = ((sp - sizeof(struct rdb_sigframe)) & ~15ull) - 8;
	if (alt && !(sp > lo && sp - lo <= hi - lo))
		return 0;
	return sp;
}

/* The fault rdb_copy_out (syscall.S) may take on the program's memory: it
 * returns -1 instead. */
static int copy_fault(void *uc)
{
	extern const char rdb_copy_begin[], rdb_copy_end[], rdb_copy_fault[];
	uint64_t *pc = &gregs(uc)[REG_RIP];
	if (*pc < (uintptr_t)rdb_copy_begin || *pc >= (uintptr_t)rdb_copy_end)
		return 0;
	*pc = (uintptr_t)rdb_copy_fault;
	return 1;
}

/* The program's view of the signal mask uc holds (the runtime's own
 * signals and SIGSEGV are never blocked in the kernel). */
static uint64_t view_mask(void *uc)
{
	uint64_t res = RT->signal.reserved_sigs | bit(RDB_SIGSEGV);
	return (*ucmask(uc) & ~res) | (TH->signal.reserved_blocked & res);
}

/* The frame for handler v of sig at fp (the image at fx), as the kernel
 * writes it: the interrupted context uc as the handler sees it (the
 * program's alternate stack and its signal mask, mask; a fault's instruction; none
 * of the kernel's fault details for an asynchronous signal, where they are
 * left over from an earlier fault), the siginfo, the xsave image; and in
 * the reserved words, what the handler's return restores (hs). */
static void fill_frame(struct rdb_sigframe *f, uint8_t *x, uintptr_t fp, uintptr_t fx, int sig,
                       const void *si, void *uc, uint64_t mask, const struct rdb_hstate *hs)
{
	f->pretcode = (uintptr_t)&rdb_handler_return;
	rdb_memcpy(f->uc, uc, sizeof f->uc);
	f->uc[RDB_UC_LINK] = 0;
	uint64_t alo, ahi;
	rdb_altstack(&alo, &ahi);
	/* uc_stack: the program's alternate stack (never SS_ONSTACK) */
	f->uc[RDB_UC_STACK + RDB_SS_SP] = alo;
	f->uc[RDB_UC_STACK + RDB_SS_FLAGS] = ahi > alo ? TH->signal.prog_ss[RDB_SS_FLAGS] : RDB_SS_DISABLE;
	f->uc[RDB_UC_STACK + RDB_SS_SIZE] = ahi - alo;
	uint64_t *g = rdb_gregs(f->uc);
	g[REG_EFL] &= ~0x10000ull; /* RF: how the kernel came in */
	g[REG_R15] = 0; /* the SIC's origin differs in replay; the return sets it */
	if (!sync_signal(sig, *(const int *)((const char *)si + SI_CODE))) {
		g[REG_ERR] = g[REG_TRAPNO] = g[REG_CR2] = 0;
		/* Recording and replaying, at a check, where %r12 holds what
		 * the last hook left (a replay without hooks has another
		 * value) and is dead.  Unrecorded the signal comes where it
		 * comes, maybe between a hook's lea into %r12 and its store:
		 * %r12 is live there and must come back as it was. */
		if (RT->mode)
			g[REG_R12] = 0;
	} else {
		g[REG_CR2] = *(const uint64_t *)((const char *)si + SI_ADDR);
	}
	f->sigmask = g[REG_OLDMASK] = mask;
	const uint8_t *kfx = *(const uint8_t **)((char *)uc + UC_FPREGS);
	f->uc[RDB_UC_FPREGS] = kfx ? fx : 0;
	if (kfx)
		copy_xstate(x, kfx, rdb_xstate_size(kfx));
	f->hs = *hs;
	f->hs.magic = RDB_HSTATE_MAGIC ^ fp;
	rdb_memcpy(f->info, si, sizeof f->info);
}

/* No frame for sig's handler (the kernel's force_sigsegv): for SIGSEGV,
 * or when SIGSEGV has no handler of the program's or it blocks it, killed
 * by SIGSEGV; else a SIGSEGV (SI_KERNEL) for its handler comes next, at
 * the interrupted code, as with the kernel (sig is lost). */
static void force_sigsegv(int sig, void *uc)
{
	const struct rdb_ksigaction *v = &RT->signal.view[RDB_SIGSEGV];
	if (sig == RDB_SIGSEGV || v->handler == RDB_SIG_DFL || v->handler == RDB_SIG_IGN ||
	    (TH->signal.reserved_blocked & bit(RDB_SIGSEGV))) {
		kill_by(RDB_SIGSEGV, uc);
		return;
	}
	uint8_t info[128];
	rdb_memset(info, 0, sizeof info);
	*(int *)info = RDB_SIGSEGV;
	*(int *)(info + SI_CODE) = 0x80; /* SI_KERNEL */
	long pid = rdb_sys0(__NR_getpid), tid = rdb_sys0(__NR_gettid);
	rdb_sys4(__NR_rt_tgsigqueueinfo, pid, tid, RDB_SIGSEGV, info);
}

/* Starts the program's handler v for sig (si, uc): its frame goes where
 * the kernel would have put it, and uc becomes the handler's entry, as the
 * kernel sets it up: %rip the handler, %rsp the frame, the arguments,
 * %rax 0, DF, RF and TF clear, the FPU in its initial state (no xsave
 * image: rt_sigreturn clears it), the handler's mask hm.  The rest of the
 * registers are the interrupted code's; the frame's uc_sigmask is mask.
 * 0 if the frame cannot be written (force_sigsegv). */
static int start_handler(const struct rdb_ksigaction *v, int sig, void *si, void *uc, uint64_t isp,
                         uint64_t hm, uint64_t mask, const struct rdb_hstate *hs)
{
	enum { SPAN = sizeof TH->signal.framebuf };
	uint8_t *buf = TH->signal.framebuf; /* (all blocked: one at a time) */
	const uint8_t *kfx = *(const uint8_t **)((char *)uc + UC_FPREGS);
	uint32_t xsize = kfx ? rdb_xstate_size(kfx) : 0;
	uintptr_t fx, fp = frame_at(v, isp, xsize, &fx);
	size_t span = fx + xsize - fp;
	long bad = 1;
	if (fp && span <= SPAN) {
		rdb_memset(buf, 0, span);
		fill_frame((struct rdb_sigframe *)buf, buf + (fx - fp), fp, fx, sig, si, uc, mask, hs);
		/* A fault on the program's memory must reach us (blocked, the
		 * kernel would kill): copy_fault. */
		uint64_t segv = ~bit(RDB_SIGSEGV);
		rdb_set_mask(segv);
		bad = rdb_copy_out((void *)fp, buf, span);
		rdb_block_all();
	}
	if (bad) {
		if (RT->start.debug)
			rdb_printf("rdb: no room for the frame of signal %d's handler at %p (%s)\n", sig,
			           (void *)fp, fp ? "not writable" : "past the alternate stack");
		force_sigsegv(sig, uc);
		return 0;
	}
	/* what the kernel wrote, as a syscall's writes (flowback) */
	rdb_shadow_syswrite(fp, span);
	uint64_t *g = gregs(uc);
	g[REG_RIP] = v->handler;
	g[REG_RSP] = fp;
	g[REG_RDI] = (uint64_t)sig;
	g[REG_RSI] = fp + offsetof(struct rdb_sigframe, info);
	g[REG_RDX] = fp + offsetof(struct rdb_sigframe, uc);
	g[REG_RAX] = 0;
	g[REG_EFL] &= ~(0x400ull | 0x10000ull | 0x100ull); /* DF RF TF */
	*(uint64_t *)((char *)uc + UC_FPREGS) = 0;
	*ucmask(uc) = hm;
	TH->hframe = fp;
	return 1;
}

static void cut_present(void *uc, struct rdb_hstate *hs);

void rdb_sig_entry(int sig, void *si, void *uc)
{
	if (sig == RDB_SIGSEGV && rdb_on_sigstack(gregs(uc)[REG_RSP])) {
		/* the runtime's own code, with SIGSEGV let in around a frame's
		 * copy: its fault; another SIGSEGV waits for the program */
		int code = *(int *)((char *)si + SI_CODE);
		if (sync_signal(sig, code) && copy_fault(uc))
			return;
		if (!sync_signal(sig, code)) {
			long pid = rdb_sys0(__NR_getpid), tid = rdb_sys0(__NR_gettid);
			rdb_sys4(__NR_rt_tgsigqueueinfo, pid, tid, sig, si);
			return;
		}
	}
	if (sig == RDB_SIG_TIMER && (RT->signal.reserved_sigs & bit(sig))) {
		if (RT->mode == RDB_TF_MODE_RECORD)
			rdb_interval_timer(uc);
		return;
	}
	if (sig == RDB_SIGSEGV && (rdb_sic_fault(si, uc) || rdb_watch_fault(si, uc)))
		return;
	if (sig == RDB_SIGTRAP && rdb_watch_trap(si, uc))
		return;
	/* Recording, a signal defer() queued again comes twice: the
	 * callbacks saw it when it first came (replay: once, queued). */
	int again = RT->mode == RDB_TF_MODE_RECORD && queued_at(sig) >= 0;
	for (int i = 0; !again && i < RT->api.n_cb; i++)
		if (RT->api.cb[i].sig && RT->api.cb[i].sig(sig, si, uc))
			return;
	struct rdb_ksigaction v = RT->signal.view[sig];
	int code = *(int *)((char *)si + SI_CODE);
	/* A fault the program blocks or ignores kills it (the kernel's
	 * force_sig); the kernel sees to that itself but for SIGSEGV, which it
	 * never blocks or ignores for us. */
	if (sig == RDB_SIGSEGV && sync_signal(sig, code) &&
	    ((TH->signal.reserved_blocked & bit(sig)) || v.handler == RDB_SIG_IGN)) {
		rdb_memset(&RT->signal.view[sig], 0, sizeof RT->signal.view[sig]);
		install(sig);
		v = RT->signal.view[sig];
	}
	if (v.handler == RDB_SIG_IGN)
		return;
	if (v.handler == RDB_SIG_DFL) {
		default_action(sig, si, uc);
		return;
	}
	if (defer(sig, si, uc))
		return;
	if (v.flags & RDB_SA_RESETHAND) {
		rdb_memset(&RT->signal.view[sig], 0, sizeof RT->signal.view[sig]);
		install(sig);
	}
	unshadow_fault_addr(sig, si, uc);
	check_hook_flags(sig, code, uc);
	uint64_t res = RT->signal.reserved_sigs | bit(RDB_SIGSEGV);
	uint64_t hm = handler_base_mask(uc) | v.mask | ((v.flags & RDB_SA_NODEFER) ? 0 : bit(sig));
	/* What the handler's return restores (rdb_handler_done); the frame
	 * is program memory: the same in replay (WATCH_SYS is set only in a
	 * replayed syscall, where defer() holds every async signal: 0 here). */
	struct rdb_hstate hs = {0, TH->hframe, 0, 0, 0,
	                        (TH->signal.in_stub ? RDB_HS_IN_STUB : 0) |
	                            (TH->watch_sys ? RDB_HS_WATCH_SYS : 0),
	                        0, 0};
	/* A fault: the handler sees the pc of the program's instruction, as
	 * without rdb (a handler may read it, or step over it), not the
	 * hook's or, replaying, a no-op's or prefix's. */
	if (sig != RDB_SIGTRAP && sync_signal(sig, code))
		hs.fault_pc = gregs(uc)[REG_RIP] = rdb_iot_insn(gregs(uc)[REG_RIP]);
	/* Unrecorded, a signal may come in the middle of the runtime's part
	 * of a syscall: the program is at its call, and the handler's own
	 * calls stay on its stack (syscall.S). */
	uint64_t isp = gregs(uc)[REG_RSP];
	int in_call = rdb_on_scstack(isp);
	if (in_call) {
		isp = TH->signal.stub_sp;
		hs.flags |= RDB_HS_IN_CALL;
		hs.stub_sp = TH->signal.stub_sp;
		hs.nest_sp = TH->signal.sc_nest_sp;
		rdb_call_present(uc, &hs);
	} else {
		cut_present(uc, &hs);
	}
	if (rdb_on_sigstack(isp))
		rdb_die("signal %d for the program's handler came in on the runtime's signal stack "
		        "(pc %p)\n", sig, (void *)gregs(uc)[REG_RIP]);
	/* The frame's mask: the interrupted code's, but after sigsuspend's
	 * check the one the call leaves (rdb_signal_after_event), as the
	 * kernel saves it */
	uint64_t view = view_mask(uc);
	if (TH->signal.restore_ok)
		view = (TH->signal.restore_mask & ~res) | (view & res);
	if (!start_handler(&v, sig, si, uc, isp, hm & ~res, view, &hs))
		return;
	/* The handler is program code, not the runtime's syscall (it may
	 * leave by longjmp: the flags stay clear); the program's view of
	 * the reserved signals' bits is the handler's mask. */
	TH->signal.in_stub = 0;
	TH->watch_sys = 0;
	TH->signal.restore_ok = 0;
	TH->signal.reserved_blocked = (view | hm) & res;
	if (in_call) {
		TH->sc_nest++;
		TH->signal.sc_nest_sp = TH->signal.stub_sp;
	}
	/* SS_AUTODISARM: the handler runs with the alternate stack disarmed
	 * (its frame's uc_stack has it: the return arms it again). */
	if (TH->signal.prog_ss[RDB_SS_SIZE] && (TH->signal.prog_ss[RDB_SS_FLAGS] & RDB_SS_AUTODISARM))
		altstack_off();
}

/* Recording: the signals for the program's handlers that the kernel holds
 * and the mask rt_sigreturn restores lets in (a handler's mask held them
 * back: raise() of its own signal) join the deferred ones, taken off the
 * kernel's queue.  Those an event queued again stay there: the kernel
 * delivers them at the rt_sigreturn itself, in record and replay alike. */
static void take_let_in(uint64_t mask)
{
	uint64_t set = 0, res = RT->signal.reserved_sigs | bit(RDB_SIGSEGV);
	if (rdb_sys2(__NR_rt_sigpending, &set, 8) < 0)
		return;
	set &= ~mask & ~res;
	for (int sig = 1; sig < RDB_NSIG && set; sig++) {
		uintptr_t h = RT->signal.view[sig].handler;
		if (!(set & bit(sig)) || h == RDB_SIG_DFL || h == RDB_SIG_IGN || queued_at(sig) >= 0)
			continue;
		uint64_t one = bit(sig), ts[2] = {0, 0};
		uint8_t info[128];
		if (rdb_sys4(__NR_rt_sigtimedwait, &one, info, ts, 8) != sig)
			continue;
		int dup = 0;
		for (int i = 0; i < TH->sig.npending; i++)
			dup |= rdb_pending()[i].signo == sig && sig < 32;
		if (dup || !rdb_pending_room())
			continue; /* as the kernel's queue would */
		if (RT->start.debug > 1)
			rdb_printf("rdb: signal %d let in by a handler's return\n", sig);
		rdb_pending()[TH->sig.npending].signo = sig;
		rdb_memcpy(rdb_pending()[TH->sig.npending].info, info, 128);
		TH->sig.npending++;
	}
}

/* The kernel delivers what a handler's return lets in right at its
 * rt_sigreturn, before the interrupted code's next instruction; a check
 * after it would be too late (the code may read what the handler was to
 * change: sig_mask's "calls 3").  So an event here, at (count,
 * rdb_handler_return), the return having counted one: no check has that
 * pc.  Recording, when a signal waits; replaying, when the trace has one
 * here.  uc: the context rt_sigreturn loads; mask: the one it restores. */
static void event_at_return(uint64_t *uc, uint64_t mask)
{
	uint64_t count = rdb_sic_count(rdb_gregs(uc)[REG_R15]);
	uint64_t pc = (uintptr_t)&rdb_handler_return;
	if (RT->mode == RDB_TF_MODE_RECORD)
		take_let_in(mask);
	int rec = RT->mode == RDB_TF_MODE_RECORD && TH->sig.npending;
	int rep = RT->mode == RDB_TF_MODE_REPLAY && rdb_replay_target_at(RDB_TF_SIGNAL, count, pc);
	if (!rec && !rep)
		return;
	TH->sic.in_event = 1;
	TH->sic.poked = 0;
	if (RT->start.debug > 1)
		rdb_printf("rdb: event at count %lu at a handler's return\n", (unsigned long)count);
	if (rep)
		rdb_replay_event(uc, count, pc);
	else
		rdb_record_event(uc, count, pc);
	TH->sic.in_event = 0;
}

/* A handler of the program returned (rdb_handler_return, all signals
 * blocked, on the runtime's signal stack): what rt_sigreturn from its
 * frame f does for the runtime; returns the ucontext to rt_sigreturn
 * from (syscall.S).  The
 * return counts one (returns with no count between them, of handlers
 * without calls or loops, are told apart), and the interrupted code goes
 * on with the handler's count: rt_sigreturn would restore the old %r15,
 * and counts and events would be lost. */
/* Recording or replaying, a signal that cut a syscall short is delivered
 * at the entry stub's check after it, and the call runs again after the
 * handler.  The handler sees the program at its call, as the kernel shows
 * a call it will restart (musl's cancellation reads the pc: a thread
 * cancelled in a blocking read); rdb_call_back (thread.c) takes the
 * return back into the stub, or, if the handler moved the pc, abandons
 * the call (EINTR).  The same in record and replay: the delivery is at
 * the same check. */
static void cut_present(void *uc, struct rdb_hstate *hs)
{
	extern const char rdb_stub_check[];
	uint64_t *g = gregs(uc);
	if (!RT->mode || g[REG_RIP] != (uintptr_t)rdb_stub_check + 4 ||
	    g[REG_RAX] != (uint64_t)-RDB_SC_CUT)
		return;
	/* the stub's frame: the number at %rbp, the program's %rbp, then
	 * the arguments, the flags and the return address */
	const uint64_t *a = (const uint64_t *)(g[REG_RBP] + 16);
	uint64_t ret = a[7];
	if (!rdb_covered(ret - 5, 5) || *(const uint8_t *)(ret - 5) != 0xe8 /* call rel32 */)
		return;
	hs->stub_sp = (uintptr_t)a;
	hs->run_pc = g[REG_RIP];
	hs->run_sp = g[REG_RSP];
	hs->flags |= RDB_HS_AT_CALL;
	g[REG_RIP] = ret - 5;
	g[REG_RSP] = (uintptr_t)(a + 8);
}

uint64_t *rdb_handler_done(struct rdb_sigframe *f)
{
	/* The copy rt_sigreturn reads; the program's frame keeps what the
	 * handler left (no SIC, nothing of the runtime's: it is program
	 * memory, the same in replay). */
	struct rdb_sigframe *r = &TH->signal.retframe;
	rdb_memcpy(r, f, sizeof *r);
	/* The runtime's part: the frame's, or, where the handler put another
	 * context's there (a thread switch), that one's; none if the words
	 * hold no frame's. */
	struct rdb_hstate hs = r->hs;
	uint64_t owner = hs.magic ^ RDB_HSTATE_MAGIC;
	if (owner != (uintptr_t)f && !rdb_covered(owner, sizeof *f))
		rdb_memset(&hs, 0, sizeof hs);
	uint64_t *g = rdb_gregs(r->uc), *ss = &r->uc[RDB_UC_STACK];
	/* rt_sigreturn sets the program's alternate stack from uc_stack as
	 * sigaltstack would (refused on it); the kernel's stays ours */
	rdb_sig_altstack(&f->uc[RDB_UC_STACK], 0, (uintptr_t)f + 8);
	ss[RDB_SS_SP] = TH->sig_lo;
	ss[RDB_SS_FLAGS] = 0;
	ss[RDB_SS_SIZE] = RDB_SIGSTACK_SIZE;
	if (hs.flags & RDB_HS_AT_CALL)
		rdb_call_back(g, &hs);
	if ((hs.flags & RDB_HS_IN_CALL) && TH->sc_nest > 0) {
		TH->sc_nest--;
		TH->signal.sc_nest_sp = hs.nest_sp;
		TH->signal.stub_sp = hs.stub_sp;
	}
	/* Back to the faulting access (the handler mapped or mended what it
	 * needs): its hooks ran before the fault, maybe in an earlier interval
	 * (a boundary inside the handler) or for other addresses (the handler
	 * changed a register).  They run again.  So do those of another
	 * instrumented instruction the handler resumes at (it knows the pc by
	 * a label of hand-written code, which altr puts after the hooks, at
	 * the instruction: emit.c labels_to_defer). */
	if ((hs.fault_pc && g[REG_RIP] == hs.fault_pc) || rdb_iot_after_hooks(g[REG_RIP]))
		g[REG_RIP] = rdb_iot_rerun(g[REG_RIP]);
	TH->signal.in_stub = !!(hs.flags & RDB_HS_IN_STUB);
	TH->watch_sys = !!(hs.flags & RDB_HS_WATCH_SYS);
	/* the mask the handler left in the frame, the program's view */
	uint64_t res = RT->signal.reserved_sigs | bit(RDB_SIGSEGV);
	TH->signal.reserved_blocked = r->sigmask & res;
	r->sigmask &= ~res;
	TH->hframe = hs.prev;
	rdb_ran_resume(g[REG_RIP]);
	uint64_t r15;
	__asm__ volatile("lea 1(%%r15), %%r15\n\tmov %%r15, %0" : "=r"(r15) : : "memory");
	g[REG_R15] = r15;
	event_at_return(r->uc, r->sigmask);
	return r->uc;
}
