/* sockets: socketpair (stream and datagram), a file descriptor passed with
 * SCM_RIGHTS, a loopback TCP listen/connect/accept exchange, loopback UDP,
 * socket options and shutdown.  Ports are ephemeral and never printed. */
#include "prog.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

static void send_fd(int s, int fd)
{
	char data = 'F';
	struct iovec iov = { &data, 1 };
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
	memset(&u, 0, sizeof u);
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	                    .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	CHECK(sendmsg(s, &m, 0) == 1);
}

static int recv_fd(int s)
{
	char data;
	struct iovec iov = { &data, 1 };
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	                    .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	if (recvmsg(s, &m, 0) != 1 || data != 'F')
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

static void tcp(void)
{
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(ls >= 0);
	int one = 1, v = 0;
	socklen_t vl = sizeof v;
	CHECK(setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0);
	CHECK(getsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &v, &vl) == 0);
	printf("SO_REUSEADDR: %d (len %u)\n", v != 0, (unsigned)vl);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(ls, (struct sockaddr *)&a, sizeof a) == 0);
	CHECK(listen(ls, 4) == 0);
	socklen_t al = sizeof a;
	CHECK(getsockname(ls, (struct sockaddr *)&a, &al) == 0);
	printf("listening on loopback, port nonzero: %d\n", a.sin_port != 0);

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) { /* client */
		close(ls);
		int c = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, sizeof a) != 0)
			_exit(2);
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		char msg[5000];
		for (int i = 0; i < 5000; i++)
			msg[i] = 'a' + i % 26;
		for (size_t off = 0; off < sizeof msg;) {
			ssize_t w = send(c, msg + off, sizeof msg - off, 0);
			if (w <= 0)
				_exit(3);
			off += w;
		}
		shutdown(c, SHUT_WR);
		char reply[64];
		ssize_t n, got = 0;
		while ((n = recv(c, reply + got, sizeof reply - 1 - got, 0)) > 0)
			got += n;
		reply[got] = 0;
		_exit(strcmp(reply, "received 5000") == 0 ? 0 : 4);
	}
	struct sockaddr_in peer;
	socklen_t pl = sizeof peer;
	int s = accept(ls, (struct sockaddr *)&peer, &pl);
	CHECK(s >= 0);
	printf("accepted from loopback: %d\n", peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	char buf[1024];
	ssize_t n;
	size_t total = 0;
	uint64_t h = 0;
	while ((n = recv(s, buf, sizeof buf, 0)) > 0) {
		h = fnv(buf, n, h);
		total += n;
	}
	printf("tcp: %zu bytes, hash %016llx\n", total, (unsigned long long)h);
	char reply[32];
	int rl = snprintf(reply, sizeof reply, "received %zu", total);
	CHECK(send(s, reply, rl, 0) == rl);
	close(s);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	printf("tcp client: exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	close(ls);

	/* connecting to a closed port is refused */
	int c = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(connect(c, (struct sockaddr *)&a, sizeof a) == -1);
	printf("connect to closed port: %s\n", errname(errno));
	close(c);
}

static void udp(void)
{
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(r, (struct sockaddr *)&a, sizeof a) == 0);
	socklen_t al = sizeof a;
	CHECK(getsockname(r, (struct sockaddr *)&a, &al) == 0);
	for (int i = 0; i < 3; i++) {
		char m[16];
		int len = snprintf(m, sizeof m, "dgram %d", i);
		CHECK(sendto(s, m, len, 0, (struct sockaddr *)&a, sizeof a) == len);
	}
	for (int i = 0; i < 3; i++) {
		char m[32];
		struct sockaddr_in from;
		socklen_t fl = sizeof from;
		ssize_t n = recvfrom(r, m, sizeof m - 1, 0, (struct sockaddr *)&from, &fl);
		CHECK(n > 0);
		m[n > 0 ? n : 0] = 0;
		printf("udp: %s (from loopback %d)\n", m, from.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	}
	close(r);
	close(s);
}

int main(void)
{
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	CHECK(write(sv[0], "ping", 4) == 4);
	char buf[64];
	CHECK(read(sv[1], buf, 4) == 4 && memcmp(buf, "ping", 4) == 0);
	CHECK(send(sv[1], "pong!", 5, 0) == 5);
	ssize_t n = recv(sv[0], buf, sizeof buf, MSG_PEEK);
	printf("peek %zd, ", n);
	n = recv(sv[0], buf, sizeof buf, 0);
	buf[n] = 0;
	printf("recv %zd: %s\n", n, buf);
	CHECK(shutdown(sv[0], SHUT_WR) == 0);
	CHECK(read(sv[1], buf, 1) == 0);

	/* pass a file descriptor (a pipe's read end) over the pair */
	int p[2];
	CHECK(pipe(p) == 0);
	send_fd(sv[1], p[0]);
	int got = recv_fd(sv[0]);
	CHECK(got >= 0 && got != p[0]);
	CHECK(write(p[1], "via fd", 6) == 6);
	n = read(got, buf, sizeof buf);
	buf[n > 0 ? n : 0] = 0;
	printf("passed fd reads: %s\n", buf);
	close(got);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);

	CHECK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
	CHECK(send(sv[0], "one", 3, 0) == 3 && send(sv[0], "three", 5, 0) == 5);
	printf("dgram sizes: %zd", recv(sv[1], buf, sizeof buf, 0));
	printf(" %zd\n", recv(sv[1], buf, sizeof buf, 0));
	close(sv[0]);
	close(sv[1]);

	tcp();
	udp();
	return prog_done("sockets");
}
