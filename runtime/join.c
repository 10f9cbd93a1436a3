/* join.c: a process below rdb record that rdb did not start itself (a
 * shell's or make's child, the image a recorded process exec'd) finds the
 * recording through its environment: RDB_RECORD_SOCKET names rdb's
 * listening socket (an abstract AF_UNIX name, docs/process-trees.md).
 * It connects; rdb answers with one byte that carries the new process's
 * values socket (SCM_RIGHTS), then HELLO, as on the channel of the
 * process it started.  The two sockets move to RDB_CHAN_FD and
 * RDB_VALUES_FD and the start-up goes on as if rdb had started it.
 * Anything amiss (rdb gone, no answer in JOIN_WAIT_MS, the fds taken)
 * and the program runs unrecorded: it never waits on rdb for ever.  Runs
 * in __rdb_start, before musl's self-relocation: no pointers in data. */
#include "rt.h"

#define AF_UNIX 1
#define SOCK_STREAM 1
#define SOCK_CLOEXEC 02000000
#define SOL_SOCKET 1
#define SCM_RIGHTS 1
#define MSG_CMSG_CLOEXEC 0x40000000
#define POLLIN 1
#define JOIN_WAIT_MS 30000 /* rdb answers at once unless it is stopped */

static const char key[] = "RDB_RECORD_SOCKET=";

/* The variable's value, or NULL. */
static const char *socket_name(void)
{
	for (char **e = RT->start.envp; *e; e++) {
		size_t i = 0;
		while (key[i] && (*e)[i] == key[i])
			i++;
		if (!key[i])
			return *e + i;
	}
	return 0;
}

/* The kernel's struct msghdr and a cmsghdr with room for one fd. */
struct join_msghdr {
	void *name;
	uint32_t namelen, pad;
	void *iov;
	uint64_t iovlen;
	void *control;
	uint64_t controllen;
	int32_t flags, pad2;
};
struct join_cmsg {
	uint64_t len;
	int32_t level, type;
	int32_t fd, pad;
};

/* The answer's byte and the fd it carries, or -1. */
static long recv_fd(long s)
{
	struct {
		int32_t fd;
		int16_t events, revents;
	} pf = {(int32_t)s, POLLIN, 0};
	long r;
	do
		r = rdb_sys3(__NR_poll, &pf, 1, JOIN_WAIT_MS);
	while (r == -RDB_EINTR);
	if (r != 1)
		return -1;
	char byte;
	uint64_t iov[2] = {(uint64_t)&byte, 1};
	struct join_cmsg c;
	rdb_memset(&c, 0, sizeof c);
	struct join_msghdr m;
	rdb_memset(&m, 0, sizeof m);
	m.iov = iov;
	m.iovlen = 1;
	m.control = &c;
	m.controllen = sizeof c;
	do
		r = rdb_sys3(__NR_recvmsg, s, &m, MSG_CMSG_CLOEXEC);
	while (r == -RDB_EINTR);
	if (r != 1 || m.controllen < 20 || c.level != SOL_SOCKET || c.type != SCM_RIGHTS)
		return -1;
	return c.fd;
}

int rdb_join(void)
{
	const char *name = socket_name();
	if (!name || !*name)
		return 0;
	/* fds the program already holds stay its own */
	if (rdb_sys2(__NR_fcntl, RDB_CHAN_FD, RDB_F_GETFD) >= 0 ||
	    rdb_sys2(__NR_fcntl, RDB_VALUES_FD, RDB_F_GETFD) >= 0)
		return 0;
	struct {
		uint16_t family;
		char path[108];
	} a;
	size_t n = rdb_strlen(name);
	if (n > sizeof a.path - 1)
		return 0;
	a.family = AF_UNIX;
	a.path[0] = 0; /* abstract: no file, nothing to clean up */
	rdb_memcpy(a.path + 1, name, n);
	long s = rdb_sys3(__NR_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return 0;
	long v = -1;
	if (rdb_sys3(__NR_connect, s, &a, 2 + 1 + n) < 0 || (v = recv_fd(s)) < 0 ||
	    rdb_sys3(__NR_dup3, s, RDB_CHAN_FD, RDB_O_CLOEXEC) != RDB_CHAN_FD ||
	    rdb_sys3(__NR_dup3, v, RDB_VALUES_FD, RDB_O_CLOEXEC) != RDB_VALUES_FD) {
		rdb_sys1(__NR_close, RDB_CHAN_FD);
		if (v >= 0)
			rdb_sys1(__NR_close, v);
		rdb_sys1(__NR_close, s);
		return 0;
	}
	rdb_sys1(__NR_close, v);
	rdb_sys1(__NR_close, s);
	return 1;
}

void rdb_join_fork(int snap_ok)
{
	if (!snap_ok || !rdb_join())
		return;
	struct rdb_tf_rec h;
	struct rdb_tf_hello hello;
	RT->chan.rpos = RT->chan.rend = 0;
	RT->chan.sn = 0;
	if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_HELLO || h.len != sizeof hello ||
	    rdb_chan_read(&hello, sizeof hello) != 1 || hello.version != RDB_TF_HELLO_VERSION ||
	    hello.mode != RDB_TF_MODE_RECORD) {
		rdb_sys1(__NR_close, RDB_CHAN_FD);
		rdb_sys1(__NR_close, RDB_VALUES_FD);
		return; /* not what a recording says: untraced, as before */
	}
	rdb_chan_record(&hello, RDB_TF_INIT_FORKED);
	RT->intervals.snap_ok = 1;
	rdb_shared_fork_child();
	if (!rdb_interval_fork_child()) {
		RT->shared.nshared = 0;
		RT->mode = 0;
		RT->intervals.snap_ok = 0;
		rdb_sys1(__NR_close, RDB_CHAN_FD);
		rdb_sys1(__NR_close, RDB_VALUES_FD);
	}
}
