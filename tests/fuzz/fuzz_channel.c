/*
 * fuzz_channel.c: libFuzzer harness for the runtime's side of replay: each
 * input is what `rdb replay` sends a program over the channel (HELLO, its
 * auxv and AT_RANDOM bytes, then TARGET, TRAP, DATA, NONDET, BOUNDARY,
 * CONTEXT, VALUES, SIGNAL, SHARED, CHILD_OUTPUT, STOP, END records), read
 * by the runtime's own readers: runtime/chan.c (rdb_chan_read/peek,
 * rdb_chan_init's HELLO), sysreplay.c (the syscall replay's next_trap
 * and copy_data), nondet.c (rdb_nondet), exit.c (END and TERM),
 * replay.c (read_target, the event replay: BOUNDARY, read_context,
 * load_values, SIGNAL and AT_SIC_TOO) and children.c (rdb_kids_consume,
 * rdb_kids_drain), compiled as host code.  A malformed input must end in
 * the runtime's clean exit: rdb_die (status 127, "rdb: ..."),
 * rdb_replay_diverged (125, "rdb: replay diverged ..."), or the end as
 * recorded (END, TERM, STOP: any status, rdb compares it with the
 * recording's); a crash, a sanitizer report, any
 * other exit or a write outside program memory is a bug.
 *
 * How the runtime runs here: channel_shim.h routes every raw syscall to
 * fuzz_sys6 below (a read of the channel fd serves the input; exit and
 * kill longjmp back here; writes to fds 1 and 2 are kept as the message,
 * read from the program's buffer as the kernel would, EFAULT where
 * nothing is mapped; everything else fails with ENOSYS) and makes the
 * covered program memory a 1 MiB arena (channel_arena.h).  The runtime's
 * state lives where it always does, at RDB_STATE_ADDR.  The harness plays
 * the program: after HELLO and the first TARGET it looks at the next
 * record and does what makes the runtime read it: the syscall a TRAP
 * names (with its arguments), the instruction a NONDET names, the SIC
 * check the last TARGET announced; a getpid for any other record.
 * Syscalls that replay runs for real are not run: they return the TRAP's
 * recorded result.  Not covered: replay from interval K's restore
 * (rdb_replay_restore: MAPS, STACK, entering the program through
 * rt_sigreturn) and the code behind the stubs at the end of this file
 * (shared.c's copies, signal.c's delivery, watch.c, checksums, planes).
 *
 * Seeds (tests/fuzz/corpus-channel/) are the channel bytes of real replays
 * of the trace corpus's recordings, written by chan_seed.c (DATA moved
 * into the arena), made with the trace corpus by one command:
 *   tests/fuzz/make-trace-corpus.sh BUILD [SECONDS]
 * Inputs that found bugs stay in tests/fuzz/regress-channel/.  By hand:
 *   clang -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined \
 *     -Iruntime -Itests/fuzz -include tests/fuzz/channel_shim.h \
 *     tests/fuzz/fuzz_channel.c runtime/chan.c runtime/rr.c runtime/record.c \
 *     runtime/sysreplay.c runtime/exit.c runtime/nondet.c runtime/replay.c \
 *     runtime/children.c runtime/util.c -o fuzz_channel
 * With -DFUZZ_CHANNEL_REPLAY it has its own main, which replays files and
 * folders: the ctest fuzz_channel_corpus, under ASan and UBSan, which
 * fails as stale when less than half the inputs get past HELLO's version
 * check (--min-past 50), and fuzz_channel_regress over the regression
 * inputs, which fails unless every one does (--regress --min-past 100).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "channel_arena.h"
#define ARENA FUZZ_ARENA
#define ARENA_SIZE FUZZ_ARENA_SIZE
#define MAX_STEPS 100000

static const uint8_t *in;
static size_t in_len, in_pos;
static jmp_buf *catcher;
static long exit_status;
static char msg[2048];
static size_t msg_len;
static unsigned long nruns, ndied, ndiverged, nended;
static unsigned long npast; /* inputs whose HELLO rdb_chan_init took */
static int recorded_end;    /* rdb_watch_report ran: an end as recorded */
static unsigned long auxv[2] = {RDB_AT_NULL, 0};

int fuzz_covered(uintptr_t a, size_t n)
{
	return a >= ARENA && a <= ARENA + ARENA_SIZE && n <= ARENA + ARENA_SIZE - a;
}

static _Noreturn void ended(long status)
{
	exit_status = status;
	longjmp(*catcher, 1);
}

long fuzz_sys6(long n, long a, long b, long c, long d, long e, long f)
{
	(void)d, (void)e, (void)f;
	switch (n) {
	case SYS_read:
		if (a != RDB_CHAN_FD)
			return -9; /* EBADF */
		if ((size_t)c > in_len - in_pos)
			c = (long)(in_len - in_pos);
		memcpy((void *)b, in + in_pos, (size_t)c);
		in_pos += (size_t)c;
		return c;
	case SYS_write:
		/* Replay writes the program's output again from the program's
		 * buffer, a recorded address: read as the kernel would, EFAULT
		 * and no crash where nothing is mapped. */
		if (a == 1 || a == 2) {
			/* the last bytes written: the runtime's message comes last */
			char t[sizeof msg - 1];
			size_t k = (size_t)c < sizeof t ? (size_t)c : sizeof t;
			struct iovec l = {t, k}, r = {(void *)b, k};
			if (k && process_vm_readv(getpid(), &l, 1, &r, 1, 0) != (ssize_t)k)
				return -14; /* EFAULT */
			if (msg_len + k > sizeof t) {
				size_t drop = msg_len + k - sizeof t;
				memmove(msg, msg + drop, msg_len - drop);
				msg_len -= drop;
			}
			memcpy(msg + msg_len, t, k);
			msg_len += k;
			msg[msg_len] = 0;
		}
		return c;
	case SYS_exit:
	case SYS_exit_group: ended(a);
	case SYS_kill: ended(-b); /* die_as_recorded's SIGKILL */
	case SYS_getpid: return 4242;
	case SYS_fcntl:
	case SYS_rt_sigprocmask: return 0;
	default: return -38; /* ENOSYS */
	}
}

/* ---- the program ------------------------------------------------------- */

static uint8_t uc[4096]; /* a zeroed ucontext: fpregs NULL */
/* What a syscall that replay runs for real (address space, signal
 * framework) returns: the recording's result, not run. */
static long run_ret;

/* The next record the program acts on, from the input where the
 * runtime's reading stands (past what it has buffered): records the
 * runtime reads on its way (NOTE, EXEC, CHILD_OUTPUT, SHARED) are looked
 * past.  0 at the end of the input. */
static int next_record(struct rdb_tf_rec *h, void *p, size_t cap)
{
	size_t o = in_pos - (RT->chan.rend - RT->chan.rpos);
	while (in_len - o >= sizeof *h) {
		memcpy(h, in + o, sizeof *h);
		if (h->type != RDB_TF_NOTE && h->type != RDB_TF_EXEC &&
		    h->type != RDB_TF_CHILD_OUTPUT && h->type != RDB_TF_SHARED) {
			size_t k = in_len - o - sizeof *h;
			memset(p, 0, cap);
			memcpy(p, in + o + sizeof *h, k < cap ? k : cap);
			return 1;
		}
		if (h->len > in_len - o - sizeof *h)
			break;
		o += sizeof *h + h->len;
	}
	return 0;
}

static void play(void)
{
	rdb_chan_init();
	if (RT->mode != RDB_TF_MODE_REPLAY)
		return;
	npast++;
	rdb_replay_first_target();
	for (int step = 0; step < MAX_STEPS; step++) {
		struct rdb_tf_rec h;
		union { struct rdb_tf_trap t; struct rdb_tf_nondet v; } r;
		long args[6] = {0};
		if (!next_record(&h, &r, sizeof r))
			return; /* the program's next read would end it */
		if (h.type == RDB_TF_TRAP) {
			memcpy(args, r.t.args, sizeof args);
			run_ret = r.t.ret;
			rdb_rr_syscall(r.t.nr, args);
		} else if (h.type == RDB_TF_NONDET) {
			uint64_t g[16] = {0};
			g[RDB_NDG_RAX] = r.v.in[0], g[RDB_NDG_RCX] = r.v.in[1]; /* cpuid's inputs */
			rdb_nondet(r.v.kind, g);
		} else if (h.type == RDB_TF_BOUNDARY || h.type == RDB_TF_SIGNAL ||
		           h.type == RDB_TF_STOP) {
			rdb_replay_event(uc, RT->replay.tgt.sic, RT->replay.tgt.pc);
		} else {
			rdb_rr_syscall(SYS_getpid, args);
		}
	}
}

static void setup(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	if (mmap((void *)RDB_STATE_ADDR, RDB_STATE_SIZE, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)RDB_STATE_ADDR ||
	    /* the main thread's state (rt.h TH), where thread.c keeps it */
	    mmap((void *)RDB_THREAD_ADDR, 1 << RDB_THREAD_SHIFT, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)RDB_THREAD_ADDR ||
	    mmap((void *)ARENA, ARENA_SIZE, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)ARENA) {
		perror("fuzz_channel: mmap");
		abort();
	}
}

/* Whether the bytes written (the program's output, which may hold NUL
 * bytes, then the runtime's message) hold s. */
static int said(const char *s)
{
	return memmem(msg, msg_len, s, strlen(s)) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	memset(RT, 0, sizeof *RT);
	rdb_grow_init();
	RT->start.auxv = auxv;
	RT->interval = 1; /* as sic.c starts it */
	in = data, in_len = size, in_pos = 0;
	msg_len = 0, msg[0] = 0;
	run_ret = -38;
	recorded_end = 0;
	exit_status = -1000;
	jmp_buf jb;
	catcher = &jb;
	if (!setjmp(jb))
		play();
	catcher = NULL;
	nruns++;
	if (exit_status == -1000) {
		/* the input ended where the program would read on */
	} else if (recorded_end) {
		nended++;
	} else if (exit_status == 127 && said("rdb: ")) {
		ndied++;
	} else if (exit_status == 125 && said("rdb: replay diverged ")) {
		ndiverged++;
	} else {
		fprintf(stderr, "fuzz_channel: exit %ld without the runtime's message: %s\n",
		        exit_status, msg);
		abort();
	}
	if (getenv("FUZZ_CHANNEL_VERBOSE"))
		fprintf(stderr, "status %ld: %s\n", exit_status, msg);
	return 0;
}

/* ---- what the readers call that is not under test ---------------------- */

uint64_t rdb_block_all(void) { return 0; }
void rdb_set_mask(uint64_t m) { (void)m; }
void rdb_checksum(const uint64_t *gregs, const struct rdb_tf_map *m, size_t n, uint64_t *ht,
                  uint64_t *hf)
{
	(void)gregs, (void)m, (void)n;
	*ht = *hf = 0;
}
int rdb_elf_iot_section(int fd, uint64_t *addr, uint64_t *size)
{
	(void)fd, (void)addr, (void)size;
	return -1;
}
unsigned long rdb_getauxval(unsigned long type) { (void)type; return 0; }
void rdb_interval_end(void) {}
void rdb_interval_exec(void) {}
void rdb_interval_exec_failed(void) {}
int rdb_interval_fork_child(void) { return 0; }
void rdb_interval_saved_stack(struct rdb_thread *t, uint64_t sp) { (void)t, (void)sp; }
uint64_t rdb_live_flags(uintptr_t pc) { (void)pc; return ~0ull; }
int rdb_mremap_refused(const long *a) { (void)a; return 0; }
const struct rdb_phdr *rdb_phdrs(unsigned long *n) { *n = 0; return NULL; }
void rdb_planes_clear_maps(int (*taken)(const struct rdb_tf_map *)) { (void)taken; }
/* The program's memory: the arena, writable. */
int rdb_procmaps(void)
{
	RT->procmaps.maps[0] = (struct rdb_tf_map){ARENA, ARENA + ARENA_SIZE, 3, RDB_TF_MAP_ANON};
	RT->procmaps.nmaps = 1;
	return 1;
}
const struct rdb_tf_map *rdb_map_find(const struct rdb_tf_map *m, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (a >= m[i].start && a < m[i].end)
			return &m[i];
	return NULL;
}
/* grow.c's tables: a fixed slot each here (the harness's inputs are small;
 * a table that would pass it takes the runtime's "cannot grow" path). */
#define GROW_SLOT (1u << 20)
static uint8_t grow_slots[RDB_G_N][GROW_SLOT] __attribute__((aligned(64)));
void rdb_grow_init(void)
{
	RT->procmaps.maps = (struct rdb_tf_map *)grow_slots[RDB_G_MAPS];
	RT->record.reg = (struct rdb_region *)grow_slots[RDB_G_REGIONS];
	RT->shared.shared = (struct rdb_shared *)grow_slots[RDB_G_SHARED];
	RT->signal.pending = (struct rdb_pending *)grow_slots[RDB_G_PENDING];
	RT->signal.queued = (struct rdb_tf_queued *)grow_slots[RDB_G_QUEUED];
	RT->ctx.q = (struct rdb_tf_queued *)grow_slots[RDB_G_CTXQ];
	RT->api.cb = (struct rdb_cb *)grow_slots[RDB_G_CB];
}
int rdb_grow_slow(int slot, uint64_t n)
{
	if (n > GROW_SLOT)
		return 0;
	RT->grow.grown[slot] = GROW_SLOT;
	return 1;
}
void rdb_interval_fds_shut(void) {}
/* Not covered here: the hash of the bytes a write-like call wrote (the
 * recorded addresses are not the harness's memory) and the FPU
 * comparison (the harness's register context is all zeros). */
int rdb_whash_regions(long nr, const long *a, long r, int arr,
                      void (*fn)(void *ctx, uintptr_t a, size_t n), void *ctx)
{
	(void)nr, (void)a, (void)r, (void)arr, (void)fn, (void)ctx;
	return 0;
}
int rdb_whash(long nr, const long *a, long r, uint64_t *h)
{
	(void)nr, (void)a, (void)r, (void)h;
	return 0;
}
uint32_t rdb_xstate_size(const uint8_t *fp) { (void)fp; return 0; }
int rdb_fp_diff(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb, char *what,
                size_t cap)
{
	(void)a, (void)na, (void)b, (void)nb, (void)what, (void)cap;
	return 0;
}
long rdb_run_syscall(long nr, const long args[6], rdb_wrote_fn *emit)
{
	(void)nr, (void)args, (void)emit;
	return run_ret;
}
void rdb_run_term(int status, int signo) { (void)status, (void)signo; }
void rdb_shadow_read(uintptr_t a, size_t n) { (void)a, (void)n; }
void rdb_shadow_syswrite(uintptr_t a, size_t n) { (void)a, (void)n; }
/* shared.c's copy of others' stores: the bytes are read past, as it does,
 * not stored (rdb_kids_consume checked len against the record). */
void rdb_shared_apply(const struct rdb_tf_shared *s)
{
	if (s->len && rdb_chan_read(0, s->len) != 1)
		rdb_die("replay: the channel ended inside a SHARED record\n");
}
void rdb_shared_from_maps(const struct rdb_tf_map *m, size_t n) { (void)m, (void)n; }
void rdb_shared_prefork(void) {}
void rdb_shared_fork_child(void) {}
void rdb_shared_sync(uint64_t id, long nr, const long a[6], long r)
{
	(void)id, (void)nr, (void)a, (void)r;
}
void rdb_shared_track(long nr, const long args[6], long ret) { (void)nr, (void)args, (void)ret; }
uint64_t rdb_sic(void) { return 0; }
/* sched.c: one thread, never switched (a SWITCH record is then one the
 * readers reject) */
void rdb_sched_init(uint32_t slice, int chaos) { (void)slice, (void)chaos; }
void rdb_sched_forked(void) {}
int rdb_sched_alone(void) { return 1; }
void rdb_sched_replay_block(long nr) { (void)nr; }
void rdb_sched_replay_give(const struct rdb_tf_switch *s) { (void)s; }
void rdb_sched_replay_slice(void *uc, const struct rdb_tf_switch *s) { (void)uc, (void)s; }
void rdb_sched_boundary_check(uint64_t count, uint64_t pc) { (void)count, (void)pc; }
/* threvive.c: no threads to make again (a THCTX after the start TARGET
 * is then read as the start's next record and rejected there) */
unsigned rdb_threads_revive_read(void) { return 0; }
_Noreturn void rdb_threads_revive_start(unsigned holder)
{
	rdb_die("replay: no threads here (thread %u)\n", holder);
}
int rdb_thread_syscall(long nr, const long a[6])
{
	(void)nr, (void)a;
	return 0;
}
uint64_t rdb_sic_set(uint64_t count, uint64_t stop) { (void)stop; return count; }
uint64_t *rdb_sic_origin(void) { return &RT->sic_origin; }
void rdb_signal_queue_again(const struct rdb_tf_queued *q, uint64_t n) { (void)q, (void)n; }
void rdb_signal_reinstall(void) {}
void rdb_signal_requeue(int signo, const uint8_t info[128]) { (void)signo, (void)info; }
long rdb_signal_send_self(int signo, const uint8_t info[128])
{
	(void)signo, (void)info;
	return 0;
}
unsigned rdb_systab_attrs(long nr) { (void)nr; return 0; }
const char *rdb_systab_name(long nr) { (void)nr; return NULL; }
int rdb_systab_nargs(long nr) { (void)nr; return 6; }
int rdb_systab_uses_fd(long nr, const long args[6], long fd)
{
	(void)nr, (void)args, (void)fd;
	return 0;
}
int rdb_systab_fact(int kind, long nr, const long args[6], long r, long out[4])
{
	(void)kind, (void)nr, (void)args, (void)r, (void)out;
	return 0;
}
int rdb_systab_wfd(long nr) { (void)nr; return -1; }
void rdb_unhook(int reads, int writes) { (void)reads, (void)writes; }
void rdb_watch_arm(void) {}
void rdb_watch_init(const struct rdb_tf_watch *req) { (void)req; }
void rdb_watch_interval(void) {}
void rdb_watch_pause(int pause) { (void)pause; }
/* Called on the ways out that end the replay as recorded (END, TERM,
 * STOP), which exit with the recorded status, any number. */
void rdb_watch_report(void) { recorded_end = 1; }

#ifdef FUZZ_CHANNEL_REPLAY
#include "replay.h"

static void summary(int n, long pct, int bad)
{
	fprintf(stderr, "fuzz_channel: replayed %d file(s): %lu past HELLO (%ld%%); %lu rdb_die, "
	        "%lu divergence(s), %lu recorded end(s), %lu read to the end%s\n", n, npast, pct,
	        ndied, ndiverged, nended, nruns - ndied - ndiverged - nended,
	        bad ? ", with errors" : "");
}

/* fuzz_channel_replay [--min-past PCT] PATH...: past means past HELLO's
 * version check (the seeds are of one format version and channel
 * revision). */
int main(int argc, char **argv)
{
	char check[80];
	snprintf(check, sizeof check, "HELLO's check of version %#x", RDB_TF_HELLO_VERSION);
	return fuzz_replay_past("fuzz_channel", argc, argv, &npast, summary, check);
}
#endif
