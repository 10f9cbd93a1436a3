/* nondet.c: nondeterministic instructions (rdtsc, rdtscp, rdrand,
 * rdseed, cpuid).  nondet.S's helpers save the registers and call
 * rdb_nondet, which runs the instruction and sends a NONDET record
 * (record), or takes the recorded result from the channel (replay). */
#include "rt.h"

#define CF 1ull

static void execute(uint32_t kind, const uint64_t in[2], uint64_t out[4])
{
	uint32_t a, b, c, d;
	uint64_t v;
	unsigned char ok;
	out[0] = out[1] = out[2] = out[3] = 0;
	switch (kind) {
	case RDB_TF_ND_RDTSC:
		__asm__ volatile("rdtsc" : "=a"(a), "=d"(d));
		out[0] = a, out[1] = d;
		break;
	case RDB_TF_ND_RDTSCP:
		__asm__ volatile("rdtscp" : "=a"(a), "=d"(d), "=c"(c));
		out[0] = a, out[1] = d, out[2] = c;
		break;
	case RDB_TF_ND_RDRAND:
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		out[0] = v, out[1] = ok;
		break;
	case RDB_TF_ND_RDSEED:
		__asm__ volatile("rdseed %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		out[0] = v, out[1] = ok;
		break;
	case RDB_TF_ND_CPUID:
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
		                 : "a"((uint32_t)in[0]), "c"((uint32_t)in[1]));
		out[0] = a, out[1] = b, out[2] = c, out[3] = d;
		break;
	}
}

const char *rdb_nondet_name(uint32_t kind)
{
	switch (kind) {
	case RDB_TF_ND_RDTSC: return "rdtsc";
	case RDB_TF_ND_RDTSCP: return "rdtscp";
	case RDB_TF_ND_RDRAND: return "rdrand";
	case RDB_TF_ND_RDSEED: return "rdseed";
	case RDB_TF_ND_CPUID: return "cpuid";
	}
	return "?";
}

void rdb_nondet(uint32_t kind, uint64_t *g)
{
	struct rdb_tf_nondet n;
	rdb_memset(&n, 0, sizeof n);
	n.after = RT->rr.sc_id;
	n.kind = kind;
	if (kind == RDB_TF_ND_CPUID)
		n.in[0] = (uint32_t)g[RDB_NDG_RAX], n.in[1] = (uint32_t)g[RDB_NDG_RCX];
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		struct rdb_tf_rec h;
		struct rdb_tf_nondet r;
		for (;;) {
			if (rdb_chan_read(&h, sizeof h) != 1)
				rdb_die("replay: the channel from rdb ended at %s after syscall #%lu\n",
				        rdb_nondet_name(kind), (unsigned long)RT->rr.sc_id);
			if (rdb_kids_consume(&h))
				continue;
			if (h.type != RDB_TF_NOTE)
				break;
			rdb_chan_read(0, h.len);
		}
		if (h.type != RDB_TF_NONDET || h.len != sizeof r) {
			rdb_replay_diverged("after syscall #%lu: the program executed "
			                    "%s, the recording has record type %u there",
			                    (unsigned long)RT->rr.sc_id, rdb_nondet_name(kind), h.type);
		}
		rdb_chan_read(&r, sizeof r);
		if (r.kind != kind || r.after != n.after || r.in[0] != n.in[0] || r.in[1] != n.in[1]) {
			rdb_replay_diverged("after syscall #%lu: the program executed "
			                    "%s (%lx, %lx), the recording %s (%lx, %lx)",
			                    (unsigned long)RT->rr.sc_id, rdb_nondet_name(kind),
			                    (unsigned long)n.in[0], (unsigned long)n.in[1],
			                    rdb_nondet_name(r.kind), (unsigned long)r.in[0],
			                    (unsigned long)r.in[1]);
		}
		n = r;
	} else {
		execute(kind, n.in, n.out);
		int mask = RT->mode == RDB_TF_MODE_RECORD;
		uint64_t old = mask ? rdb_block_all() : 0;
		n.after = RT->rr.sc_id;
		rdb_chan_put(RDB_TF_NONDET, &n, sizeof n, 0, 0);
		rdb_chan_flush();
		if (mask)
			rdb_set_mask(old);
	}
	RT->nondet.nondets++;
	switch (kind) {
	case RDB_TF_ND_RDTSCP:
		g[RDB_NDG_RCX] = (uint32_t)n.out[2];
		/* fall through */
	case RDB_TF_ND_RDTSC:
		g[RDB_NDG_RAX] = (uint32_t)n.out[0];
		g[RDB_NDG_RDX] = (uint32_t)n.out[1];
		break;
	case RDB_TF_ND_RDRAND:
	case RDB_TF_ND_RDSEED:
		g[RDB_NDG_R12] = n.out[0];
		/* CF from the instruction; OF SF ZF AF PF cleared, as it does */
		g[RDB_NDG_FLAGS] = (g[RDB_NDG_FLAGS] & ~0x8d5ull) | (n.out[1] ? CF : 0);
		break;
	case RDB_TF_ND_CPUID:
		g[RDB_NDG_RAX] = (uint32_t)n.out[0];
		g[RDB_NDG_RBX] = (uint32_t)n.out[1];
		g[RDB_NDG_RCX] = (uint32_t)n.out[2];
		g[RDB_NDG_RDX] = (uint32_t)n.out[3];
		break;
	}
}
