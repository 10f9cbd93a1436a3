/* api.c: registration of an instrumentation library's callbacks (paper
 * 3.2).  Init callbacks are named at link time (RDB_INIT, start.c runs
 * them); these add termination and signal callbacks at run time.  The
 * table grows (grow.c RDB_G_CB): a library may register as many as it
 * likes.  The pointers stored are the relocated ones the caller
 * computed. */
#include "rt.h"

static int add(rdb_term_fn *term, rdb_signal_fn *sig)
{
	if (!rdb_grow(RDB_G_CB, (uint64_t)(RT->api.n_cb + 1) * sizeof RT->api.cb[0]))
		return -1;
	RT->api.cb[RT->api.n_cb].term = term;
	RT->api.cb[RT->api.n_cb].sig = sig;
	RT->api.n_cb++;
	return 0;
}

int rdb_on_term(rdb_term_fn *fn) { return add(fn, 0); }

int rdb_on_signal(rdb_signal_fn *fn) { return add(0, fn); }
