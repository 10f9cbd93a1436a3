/* ran.c: which code ran in an interval (RAN, docs/trace-format.md).  Each
 * function entry (none after calls or syscalls: rdb finds frames resumed
 * without an entry on the saved stack) of
 * instrumented code sets a byte of its own in section rdb_ran
 * (trace.rules "Code ran"), and rdb_ranmap pairs each byte with its code
 * address.  At a boundary the addresses whose bytes are set go out as
 * points (length 1) for the interval that ends, and the bytes are
 * cleared; rdb's reverse-continue to a breakpoint leaves out the
 * intervals where the breakpoint's function cannot have run.  A signal
 * handler's return resumes code mid-function, past no mark: the runtime
 * adds that pc (rdb_ran_resume), or, past 16 of them, the whole address
 * space (nothing left out).  rdb reads the frames live at an interval's
 * start from its saved stack; a switch to a stack the boundary did not
 * save (a suspended coroutine's) resumes frames it cannot see: hooks.S
 * sets rdb_ran_switched, and the interval's record says anything ran. */
#include "rt.h"

struct ranmap {
	int32_t code, byte; /* each relative to the field itself */
};

extern const struct ranmap __start_rdb_ranmap[] __attribute__((visibility("hidden")));
extern const struct ranmap __stop_rdb_ranmap[] __attribute__((visibility("hidden")));
extern unsigned char __start_rdb_ran[] __attribute__((visibility("hidden")));
extern unsigned char __stop_rdb_ran[] __attribute__((visibility("hidden")));

/* Each section has at least this entry, so the linker always defines its
 * bounds; the entry's byte is never set (its code address is 0: ignored). */
__attribute__((section("rdb_ran"), used)) static unsigned char none_byte;
__attribute__((section("rdb_ranmap"), used, aligned(4))) static const struct ranmap none_map;

/* Set by __rdb_stack_switch (hooks.S) on a switch to an unsaved stack;
 * in rdb_ran so the full checksum leaves it out too. */
__attribute__((section("rdb_ran"), used, visibility("hidden"))) unsigned char rdb_ran_switched;

enum { CHUNK = 256 };

static void put(uint64_t interval, const struct rdb_tf_range *r, uint32_t n)
{
	struct rdb_tf_written h = {interval, n, 0};
	rdb_chan_put(RDB_TF_RAN, &h, sizeof h, r, n * sizeof r[0]);
}

void rdb_ran_resume(uint64_t pc)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return;
	if (RT->ran.n < sizeof RT->ran.pc / sizeof RT->ran.pc[0])
		RT->ran.pc[RT->ran.n] = pc;
	RT->ran.n++;
}

/* The boundary ending interval `interval`: one RAN record at least (maybe
 * empty), so that rdb can tell "nothing ran" from "not recorded". */
void rdb_ran_scan(uint64_t interval)
{
	struct rdb_tf_range r[CHUNK];
	uint32_t n = 0;
	int sent = 0;
	for (const struct ranmap *e = __start_rdb_ranmap; e < __stop_rdb_ranmap; e++) {
		if (e == &none_map)
			continue;
		unsigned char *b = (unsigned char *)&e->byte + e->byte;
		if (!*b)
			continue;
		*b = 0;
		r[n].addr = (uintptr_t)&e->code + (uintptr_t)(intptr_t)e->code;
		r[n].len = 1;
		if (++n == CHUNK) {
			put(interval, r, n);
			n = 0;
			sent = 1;
		}
	}
	uint32_t nr = RT->ran.n, cap = sizeof RT->ran.pc / sizeof RT->ran.pc[0];
	if (rdb_ran_switched)
		nr = cap + 1; /* anything may have run: the range below */
	rdb_ran_switched = 0;
	for (uint32_t i = 0; i < nr && i < cap; i++) {
		if (n == CHUNK) {
			put(interval, r, n);
			n = 0;
		}
		r[n++] = nr > cap ? (struct rdb_tf_range){0, ~0ull} : (struct rdb_tf_range){RT->ran.pc[i], 1};
		if (nr > cap)
			break;
	}
	RT->ran.n = 0;
	if (n || !sent)
		put(interval, r, n);
}

/* The table's bytes, which the full checksum leaves out: record clears
 * them at each boundary, replay does not. */
int rdb_ran_holds(uintptr_t a)
{
	return a + 8 > (uintptr_t)__start_rdb_ran && a < (uintptr_t)__stop_rdb_ran;
}
