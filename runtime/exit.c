/* exit.c: the end of a recorded or replayed run.  Record: the TERM
 * record, with the exit's hashes under --checksum.  Replay: the recording
 * must end here too (--verify compares the hashes), and a replay that
 * reaches the recording's end, or cannot go on, ends as the recording
 * did (END) or with status 125 (diverged). */
#include "rt.h"

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
void rdb_replay_skip_to_end(struct rdb_tf_exit *x, int outputs)
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
_Noreturn void rdb_replay_end(const char *why)
{
	struct rdb_tf_exit x;
	rdb_replay_skip_to_end(&x, !why);
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
		/* rdb says next whether that one was recorded (rdb/replay.c) */
		rdb_printf("rdb: replay ends at syscall #%lu: the recorded program exec'd another "
		           "one\n", (unsigned long)RT->rr.sc_id);
	else
		rdb_printf("rdb: replay reached the end of the trace at syscall #%lu (%s): the "
		           "recording was cut short\n", (unsigned long)RT->rr.sc_id, what);
	die_as_recorded(&x);
}

/* The exit's hashes (record --checksum, replay --verify): memory as a
 * boundary hashes it, with %rsp at the program's last syscall (exit_group's;
 * a fatal signal's end is as deterministic) and no other register. */
static void term_hash(struct rdb_tf_term *t)
{
	uint64_t g[RDB_TF_NGREG];
	rdb_memset(g, 0, sizeof g);
	g[REG_RSP] = TH->signal.stub_sp;
	/* Mappings that cannot be read (every fd in use, limits.sh's fdhard):
	 * no hashes, and replay then compares none. */
	if (!rdb_procmaps())
		return;
	rdb_checksum(g, RT->procmaps.maps, RT->procmaps.nmaps, &t->hash_touched, &t->hash_full);
	t->flags = RDB_TF_B_CHECKSUM;
}

/* Replay --verify: the state at the end against the recording's.  Not the
 * full hash under --verify-full: its replay runs without the hooks, and a
 * stack the program left (a coroutine's, in a mapping %rsp is no longer
 * in) holds other return addresses below its last %rsp then (checksum.c). */
static void verify_term(const struct rdb_tf_term *r)
{
	if (!RT->chan.verify || !(r->flags & RDB_TF_B_CHECKSUM))
		return;
	struct rdb_tf_term t;
	rdb_memset(&t, 0, sizeof t);
	term_hash(&t);
	if (!(t.flags & RDB_TF_B_CHECKSUM))
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) its mappings cannot be read, the "
		                    "recording's could", (unsigned long)RT->interval,
		                    (unsigned long)RT->rr.sc_id);
	if (RT->chan.verify == 1 && t.hash_touched != r->hash_touched)
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) the memory interval %lu read or wrote, or its "
		                    "live stack, differs from the recording's",
		                    (unsigned long)RT->interval, (unsigned long)RT->rr.sc_id,
		                    (unsigned long)RT->interval);
	if (RT->chan.verify == 1 && RT->chan.from <= 1 && t.hash_full != r->hash_full)
		rdb_replay_diverged("in interval %lu: --verify: at the program's end (after "
		                    "syscall #%lu) its writable memory differs from the "
		                    "recording's (memory interval %lu did not touch)",
		                    (unsigned long)RT->interval, (unsigned long)RT->rr.sc_id,
		                    (unsigned long)RT->interval);
}

void rdb_rr_term(int status, int signo)
{
	struct rdb_tf_term t;
	rdb_memset(&t, 0, sizeof t);
	t.status = status;
	t.signo = signo;
	t.after = RT->rr.sc_id;
	if (RT->mode == RDB_TF_MODE_RECORD) {
		if (RT->chan.checksum)
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
		rdb_replay_skip_to_end(&x, 1);
		RT->mode = 0;
		return;
	}
	rdb_replay_diverged("after syscall #%lu: the program ends here "
	                    "(status %d, signal %d), the recording went on (record type %u)",
	                    (unsigned long)RT->rr.sc_id, status, signo, h.type);
}
