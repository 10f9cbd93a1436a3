/* rsp.c: gdb's remote serial protocol on the wire: `$data#xx` packets
 * acknowledged with `+` (until QStartNoAckMode), ^C (0x03) between them.
 * Anything else from gdb ends the session with a message saying what
 * came: a connection that sends garbage or ends in the middle of a
 * packet is not a debugger rdb can serve. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbserver.h"

enum { MAXPKT = 1 << 17 }; /* twice qSupported's PacketSize, escapes and all */

struct rdb_rsp {
	int fd;
	int noack;
	char in[4096];
	size_t in_at, in_n;
	char *pkt;
	int intr; /* a ^C read while looking for a packet */
};

int rdb_rsp_listen(const char *host, int port, int *bound)
{
	struct addrinfo hints, *ai;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	int e = getaddrinfo(host && *host ? host : "127.0.0.1", ps, &hints, &ai);
	if (e)
		rdb_fatal("--gdbserver %s:%d: %s", host ? host : "", port, gai_strerror(e));
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1))
		rdb_fatal("--gdbserver %s:%d: %s", host ? host : "127.0.0.1", port, strerror(errno));
	freeaddrinfo(ai);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		rdb_fatal("getsockname: %s", strerror(errno));
	*bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
	                                          ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

struct rdb_rsp *rdb_rsp_accept(int lfd)
{
	int fd;
	while ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0)
		if (errno != EINTR)
			rdb_fatal("accept: %s", strerror(errno));
	close(lfd);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct rdb_rsp *c = rdb_xmalloc(sizeof *c);
	memset(c, 0, sizeof *c);
	c->fd = fd;
	c->pkt = rdb_xmalloc(MAXPKT + 1);
	return c;
}

void rdb_rsp_close(struct rdb_rsp *c)
{
	if (!c)
		return;
	close(c->fd);
	rdb_free(c->pkt);
	rdb_free(c);
}

int rdb_rsp_fd(const struct rdb_rsp *c) { return c->fd; }
void rdb_rsp_noack(struct rdb_rsp *c) { c->noack = 1; }

/* The next byte: 1, 0 at the end of the connection, -1 on an error. */
static int byte(struct rdb_rsp *c, int *b)
{
	if (c->in_at == c->in_n) {
		ssize_t r;
		while ((r = read(c->fd, c->in, sizeof c->in)) < 0 && errno == EINTR)
			;
		if (r <= 0)
			return r == 0 ? 0 : -1;
		c->in_at = 0;
		c->in_n = (size_t)r;
	}
	*b = (unsigned char)c->in[c->in_at++];
	return 1;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int rdb_rsp_get(struct rdb_rsp *c, char **data, size_t *n, const char **why)
{
	static char msg[160];
	int b, bad = 0;
	for (;;) {
		int r = byte(c, &b);
		if (r <= 0) {
			*why = r == 0 ? "gdb closed the connection" : "the connection failed";
			return 0;
		}
		if (b == '+' || b == '-')
			continue; /* acks of ours (a nack: gdb asks again itself) */
		if (b == 3) {
			c->intr = 1; /* ^C with the program stopped: nothing to do */
			continue;
		}
		if (b != '$') {
			snprintf(msg, sizeof msg, "gdb sent garbage (byte 0x%02x outside a packet)", b);
			*why = msg;
			return 0;
		}
		size_t len = 0;
		unsigned sum = 0;
		for (;;) {
			if ((r = byte(c, &b)) <= 0) {
				*why = "the connection ended in the middle of a packet";
				return 0;
			}
			if (b == '#')
				break;
			if (len == MAXPKT) {
				*why = "gdb sent a packet longer than the PacketSize rdb offered";
				return 0;
			}
			c->pkt[len++] = (char)b;
			sum += (unsigned)b;
		}
		int h1, h2;
		if (byte(c, &h1) <= 0 || byte(c, &h2) <= 0) {
			*why = "the connection ended in the middle of a packet";
			return 0;
		}
		if (hexval(h1) < 0 || hexval(h2) < 0) {
			snprintf(msg, sizeof msg, "gdb sent garbage (a packet's checksum '%c%c')", h1, h2);
			*why = msg;
			return 0;
		}
		if (!c->noack && (unsigned)(hexval(h1) * 16 + hexval(h2)) != (sum & 0xff)) {
			if (++bad == 10) {
				*why = "gdb sent ten packets with bad checksums in a row";
				return 0;
			}
			rdb_run_send_all(c->fd, "-", 1);
			continue;
		}
		if (!c->noack && rdb_run_send_all(c->fd, "+", 1)) {
			*why = "the connection failed";
			return 0;
		}
		c->pkt[len] = 0;
		*data = c->pkt;
		*n = len;
		return 1;
	}
}

int rdb_rsp_poll_interrupt(struct rdb_rsp *c)
{
	if (c->intr) {
		c->intr = 0;
		return 1;
	}
	if (c->in_at == c->in_n) {
		struct pollfd p = {c->fd, POLLIN, 0};
		if (poll(&p, 1, 0) <= 0)
			return 0;
	}
	int b;
	int r = byte(c, &b);
	if (r <= 0)
		return -1;
	if (b == 3)
		return 1;
	if (b == '+' || b == '-')
		return 0;
	/* a packet while the program runs (none is allowed in all-stop):
	 * left for rdb_rsp_get, which will say what it is */
	c->in_at--;
	return 0;
}

int rdb_rsp_put(struct rdb_rsp *c, const char *data, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	char *buf = rdb_xmalloc(n + 5);
	unsigned sum = 0;
	buf[0] = '$';
	for (size_t i = 0; i < n; i++) {
		buf[1 + i] = data[i];
		sum += (unsigned char)data[i];
	}
	buf[n + 1] = '#';
	buf[n + 2] = hx[(sum >> 4) & 15];
	buf[n + 3] = hx[sum & 15];
	int r = rdb_run_send_all(c->fd, buf, n + 4);
	/* the ack: a nack sends it again, a few times */
	for (int tries = 0; !r && !c->noack; tries++) {
		int b;
		do {
			if (byte(c, &b) <= 0)
				b = 0;
			if (b == 3)
				c->intr = 1;
		} while (b && b != '+' && b != '-');
		if (b == '+')
			break;
		r = !b || tries == 5 || rdb_run_send_all(c->fd, buf, n + 4) ? -1 : 0;
	}
	rdb_free(buf);
	return r;
}

int rdb_rsp_vputf(struct rdb_rsp *c, const char *fmt, va_list ap)
{
	char buf[4096];
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof buf)
		n = (int)strlen(buf);
	return rdb_rsp_put(c, buf, (size_t)n);
}

int rdb_rsp_putf(struct rdb_rsp *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = rdb_rsp_vputf(c, fmt, ap);
	va_end(ap);
	return r;
}
