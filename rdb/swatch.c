/* swatch.c: the instructions rdb's gdb server meets when it watches
 * through the shadow pages (target.c, docs/gdb.md "Watchpoints without
 * debug registers").  Every hooked store of the program writes the S
 * plane first (docs/hooks.md): `mov{b,w,l,q} %r13, DISP(BASE,%r14,2)`;
 * every hooked read touches the R plane first: `cmp %r13, DISP(BASE,%r14)`
 * or `mov %r13, DISP(BASE,%r14)`.  With the plane pages under the watched
 * bytes read-only (S) or inaccessible (R), that access faults; rdb
 * decodes it (runtime/planeop.h, the runtime's decoder), does it itself
 * and tells whether it touches watched bytes. */
#include <stddef.h>
#include <string.h>

#include "gdbserver.h"
#include "planeop.h"

int rdb_sw_decode(const uint8_t p[16], const struct user_regs_struct *r, struct rdb_planeop *op)
{
	/* user_regs_struct's general registers in the ModRM numbering */
	const uint64_t g[16] = {r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi, r->rdi,
	                        r->r8,  r->r9,  r->r10, r->r11, r->r12, r->r13, r->r14, r->r15};
	return rdb_planeop_decode(p, g, op);
}

int rdb_sw_is_hook(const uint8_t b[8])
{
	size_t i = b[0] == 0x66 ? 1 : 0;
	if (b[0] == 0x90 || (b[i] == 0x0f && b[i + 1] == 0x1f))
		return 1; /* a hook a replay made a no-op */
	unsigned rex = (b[i] & 0xf0) == 0x40 ? b[i++] : 0;
	unsigned op = b[i], modrm = b[i + 1], sib = b[i + 2];
	if (op == 0x8d) /* lea ..., %r12 */
		return (rex & 0x4) && (modrm >> 3 & 7) == 4 && (modrm >> 6) != 3;
	/* a store of %r13 to the S plane, or to the R plane, or a compare of
	 * the R plane with it (a replay that keeps its read hooks) */
	return (op == 0x88 || op == 0x89 || op == 0x38 || op == 0x39) && (rex & 0x4) &&
	       (modrm >> 3 & 7) == 5 && (modrm & 7) == 4 && (modrm >> 6) != 3 && (rex & 0x2) &&
	       (sib >> 3 & 7) == 6 && (sib >> 6) <= (op >= 0x88 ? 1u : 0u);
}
