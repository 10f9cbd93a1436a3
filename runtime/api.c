/* api.c: registration of an instrumentation library's callbacks (paper
 * 3.2).  Init callbacks are named at link time (RDB_INIT, start.c runs
 * them); these add termination and signal callbacks at run time.  The
 * tables live in the runtime state, so the pointers stored are the
 * relocated ones the caller computed. */
#include "rt.h"

int rdb_on_term(rdb_term_fn *fn)
{
	if (RT->n_term >= RDB_MAX_CB)
		return -1;
	RT->term[RT->n_term++] = fn;
	return 0;
}

int rdb_on_signal(rdb_signal_fn *fn)
{
	if (RT->n_sig >= RDB_MAX_CB)
		return -1;
	RT->sig[RT->n_sig++] = fn;
	return 0;
}
