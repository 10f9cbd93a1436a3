/* chan.c: the channel to rdb (trace_format.h, docs/trace-format.md).
 * rdb passes one end of a socketpair as fd RDB_CHAN_FD and sends HELLO
 * first; without that fd the program runs unrecorded.  Records go out
 * through a buffer (rdb compresses and writes them: the runtime never
 * touches the disk) and come in through another.  rdb_chan_init runs in
 * __rdb_start, before musl's self-relocation: it uses no pointer in data. */
#include "rt.h"

#define FD RDB_CHAN_FD

/* ---- the channel ------------------------------------------------------ */

static void chan_lost(const char *why, long err)
{
	long was = RT->mode;
	RT->mode = 0;
	rdb_sys1(__NR_close, FD);
	if (was == RDB_TF_MODE_REPLAY)
		rdb_die("replay lost its channel to rdb (%s, error %ld)\n", why, -err);
	if (RT->children.kid)
		return; /* a fork child outliving the recording (join.c): untraced, as before */
	rdb_printf("rdb: the recording lost its channel to rdb (%s, error %ld); "
	           "the program continues unrecorded\n", why, -err);
}

static int send_all(const void *p, size_t n)
{
	long r = rdb_send_all(FD, p, n);
	if (r < 0)
		chan_lost("send", r);
	return r < 0 ? -1 : 0;
}

void rdb_chan_flush(void)
{
	if (RT->chan.sn && RT->mode == RDB_TF_MODE_RECORD) {
		rdb_kids_lock(); /* a fork child may send too (children.c) */
		send_all(RT->chan.sbuf, RT->chan.sn);
		rdb_kids_unlock();
	}
	RT->chan.sn = 0;
}

/* One record: header, p[0..n), q[0..m) (q: DATA bytes, may be large). */
void rdb_chan_put(uint32_t type, const void *p, size_t n, const void *q, size_t m)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return;
	struct rdb_tf_rec h = {type, (uint32_t)(n + m)};
	size_t all = sizeof h + n + m;
	if (RT->chan.sn + all > RDB_SBUF)
		rdb_chan_flush();
	if (all <= RDB_SBUF) {
		rdb_memcpy(RT->chan.sbuf + RT->chan.sn, &h, sizeof h);
		rdb_memcpy(RT->chan.sbuf + RT->chan.sn + sizeof h, p, n);
		if (m)
			rdb_memcpy(RT->chan.sbuf + RT->chan.sn + sizeof h + n, q, m);
		RT->chan.sn += all;
		return;
	}
	rdb_kids_lock(); /* the record goes out whole */
	rdb_memcpy(RT->chan.sbuf, &h, sizeof h);
	rdb_memcpy(RT->chan.sbuf + sizeof h, p, n);
	RT->chan.sn = sizeof h + n;
	rdb_chan_flush();
	if (RT->mode)
		send_all(q, m);
	rdb_kids_unlock();
}

/* Reads exactly n bytes (into d, or discarded when d is NULL); 0 at a
 * clean end of stream before any byte, -1 on a short read. */
int rdb_chan_read(void *d, size_t n)
{
	char *o = d;
	size_t got = 0;
	while (got < n) {
		if (RT->chan.rpos == RT->chan.rend) {
			if (n - got >= RDB_RBUF && o) { /* large: straight into place */
				long r = rdb_sys3(__NR_read, FD, o + got, n - got);
				if (r == -RDB_EINTR)
					continue;
				if (r <= 0)
					return got ? -1 : 0;
				RT->chan_in += (uint64_t)r;
				got += (size_t)r;
				continue;
			}
			long r = rdb_sys3(__NR_read, FD, RT->chan.rbuf, RDB_RBUF);
			if (r == -RDB_EINTR)
				continue;
			if (r <= 0)
				return got ? -1 : 0;
			RT->chan_in += (uint64_t)r;
			RT->chan.rpos = 0;
			RT->chan.rend = (size_t)r;
		}
		size_t k = RT->chan.rend - RT->chan.rpos;
		if (k > n - got)
			k = n - got;
		if (o)
			rdb_memcpy(o + got, RT->chan.rbuf + RT->chan.rpos, k);
		RT->chan.rpos += k;
		got += k;
	}
	return 1;
}

/* The next record's header, left unread; 0 at the end of the channel. */
int rdb_chan_peek(struct rdb_tf_rec *h) { return rdb_chan_peek_n(h, sizeof *h); }

/* The next n (<= RDB_RBUF) bytes, left unread; 0 if the channel ends first. */
int rdb_chan_peek_n(void *d, size_t n)
{
	while (RT->chan.rend - RT->chan.rpos < n) {
		if (RT->chan.rpos) {
			size_t k = RT->chan.rend - RT->chan.rpos;
			for (size_t i = 0; i < k; i++) /* down: a forward copy is safe */
				RT->chan.rbuf[i] = RT->chan.rbuf[RT->chan.rpos + i];
			RT->chan.rpos = 0;
			RT->chan.rend = k;
		}
		long r = rdb_sys3(__NR_read, FD, RT->chan.rbuf + RT->chan.rend, RDB_RBUF - RT->chan.rend);
		if (r == -RDB_EINTR)
			continue;
		if (r <= 0)
			return 0;
		RT->chan_in += (uint64_t)r;
		RT->chan.rend += (size_t)r;
	}
	rdb_memcpy(d, RT->chan.rbuf + RT->chan.rpos, n);
	return 1;
}

/* ---- start-up --------------------------------------------------------- */

/* auxv entries that may differ between runs and that replay restores:
 * ids, AT_SECURE, hardware capabilities, clock tick, page size. */
static int restorable(uint64_t type)
{
	return type == 6 || type == 11 || type == 12 || type == 13 || type == 14 ||
	       type == 16 || type == 17 || type == 23 || type == 51;
}

void rdb_chan_record(const struct rdb_tf_hello *hello, uint32_t init_flags)
{
	/* The values socket too: a program the process execs must not hold
	 * it (rdb's recording ends at its EOF).  Fork children close it
	 * (children.c); the snapshot children never exec. */
	rdb_sys3(__NR_fcntl, RDB_VALUES_FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
	RT->mode = RDB_TF_MODE_RECORD;
	RT->intervals.interval_us = hello->interval_us;
	if (hello->flags & RDB_TF_HELLO_EVERY_SIC) /* a count, not a time */
		RT->intervals.every_sic = hello->every_sic, RT->intervals.interval_us = 0;
	RT->chan.checksum = (hello->flags & RDB_TF_HELLO_CHECKSUM) != 0;
	RT->chan.forks = (hello->flags & RDB_TF_HELLO_FORKS) != 0;
	RT->chan.no_stack_pages = (hello->flags & RDB_TF_HELLO_NO_STACK_PAGES) != 0;
	RT->intervals.fixed = !(hello->flags & RDB_TF_HELLO_STRETCH);
	rdb_sched_init(hello->slice, (hello->flags & RDB_TF_HELLO_CHAOS) != 0);
	uint64_t *rnd = (uint64_t *)rdb_getauxval(RDB_AT_RANDOM);
	size_t na = 0;
	while (RT->start.auxv[2 * na] != RDB_AT_NULL)
		na++;
	struct rdb_tf_init in = {{rnd ? rnd[0] : 0, rnd ? rnd[1] : 0}, (uint32_t)na, init_flags};
	rdb_chan_put(RDB_TF_INIT, &in, sizeof in, RT->start.auxv, na * 16);
	rdb_chan_flush();
}

void rdb_chan_init(void)
{
	if (rdb_sys2(__NR_fcntl, FD, RDB_F_GETFD) < 0) {
		rdb_kids_exec_start(); /* exec'd by a recorded process's child? */
		/* below rdb record, not started by it (join.c)?  A descendant
		 * too records itself, and still sends its output to the
		 * recording it descends from (children.c). */
		if (!rdb_join())
			return; /* no channel: unrecorded */
	}
	struct rdb_tf_rec h;
	struct rdb_tf_hello hello;
	if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_HELLO || h.len < sizeof hello ||
	    rdb_chan_read(&hello, sizeof hello) != 1)
		rdb_die("fd %d is open but does not start with rdb's HELLO record; "
		        "rdb uses that fd for its channel\n", FD);
	if (hello.version != RDB_TF_HELLO_VERSION)
		rdb_die("rdb speaks trace format %u (channel revision %u), this program's runtime "
		        "%u (revision %u): rebuild it with this rdb-cc\n", hello.version & 0xffff,
		        hello.version >> 16, RDB_TF_VERSION, RDB_TF_CHAN_REV);
	rdb_sys3(__NR_fcntl, FD, RDB_F_SETFD, RDB_FD_CLOEXEC);
	uint64_t *rnd = (uint64_t *)rdb_getauxval(RDB_AT_RANDOM);
	if (hello.mode == RDB_TF_MODE_RECORD) {
		rdb_sic_set(0, RT->sic.sic_span); /* the longest interval */
		rdb_chan_record(&hello, 0);
		return;
	}
	if (hello.mode != RDB_TF_MODE_REPLAY ||
	    h.len != sizeof hello + (uint64_t)hello.nauxv * 16 + 16)
		rdb_die("bad HELLO record from rdb (mode %u, %u bytes)\n", hello.mode, h.len);
	RT->mode = RDB_TF_MODE_REPLAY;
	rdb_sched_init(0, 0);
	RT->chan.quiet = (hello.flags & RDB_TF_HELLO_QUIET) != 0;
	RT->chan.verify = !(hello.flags & RDB_TF_HELLO_VERIFY) ? 0 :
	             hello.flags & RDB_TF_HELLO_VERIFY_FULL ? 2 : 1;
	if (hello.flags & RDB_TF_HELLO_DEBUG)
		RT->start.debug = 2;
	RT->chan.from = hello.from;
	RT->chan.rec_pid = hello.pid;
	if (hello.flags & RDB_TF_HELLO_TIMING)
		RT->chan.timing_t0 = hello.rdb_start_ns;
	/* The recorded auxv values the program reads, and AT_RANDOM's bytes
	 * (musl's stack canary and more): before libc's start-up reads them. */
	for (uint32_t i = 0; i < hello.nauxv; i++) {
		uint64_t tv[2];
		rdb_chan_read(tv, sizeof tv);
		if (!restorable(tv[0]))
			continue;
		for (unsigned long *a = RT->start.auxv; a[0] != RDB_AT_NULL; a += 2)
			if (a[0] == tv[0])
				a[1] = tv[1];
	}
	uint64_t r[2];
	rdb_chan_read(r, sizeof r);
	if (rnd)
		rnd[0] = r[0], rnd[1] = r[1];
	if (hello.flags & RDB_TF_HELLO_WATCH) {
		struct rdb_tf_watch w;
		if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_WATCH || h.len != sizeof w ||
		    rdb_chan_read(&w, sizeof w) != 1)
			rdb_die("bad WATCH record from rdb\n");
		rdb_watch_init(&w);
		if (hello.from <= 1)
			rdb_watch_arm();
	}
	if (RT->chan.verify != 1) /* --verify's touched hash needs the planes */
		rdb_unhook(!(hello.flags & RDB_TF_HELLO_READS),
		           !(hello.flags & (RDB_TF_HELLO_WATCH | RDB_TF_HELLO_WRITES | RDB_TF_HELLO_READS)));
}
