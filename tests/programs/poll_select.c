/* poll_select: readiness through poll, ppoll, select, pselect and epoll on
 * pipes and an eventfd; timeouts that expire (results, not durations, are
 * printed). */
#include "prog.h"
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <time.h>

int main(void)
{
	int p[2], q[2];
	CHECK(pipe(p) == 0 && pipe(q) == 0);

	struct pollfd pf[3] = {
		{ .fd = p[0], .events = POLLIN },
		{ .fd = q[1], .events = POLLOUT },
		{ .fd = q[0], .events = POLLIN },
	};
	int n = poll(pf, 3, 0);
	printf("poll: %d ready: in %d out %d in %d\n", n, !!(pf[0].revents & POLLIN),
	       !!(pf[1].revents & POLLOUT), !!(pf[2].revents & POLLIN));
	CHECK(write(p[1], "ab", 2) == 2);
	n = poll(pf, 3, 1000);
	printf("poll after write: %d ready: in %d out %d in %d\n", n, !!(pf[0].revents & POLLIN),
	       !!(pf[1].revents & POLLOUT), !!(pf[2].revents & POLLIN));
	pf[0].fd = q[0];
	n = poll(pf, 1, 20); /* nothing: times out */
	printf("poll timeout: %d\n", n);
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	sigset_t none;
	sigemptyset(&none);
	n = ppoll(pf, 1, &ts, &none);
	printf("ppoll timeout: %d\n", n);

	close(q[1]); /* q's read end now sees hang-up */
	pf[0].fd = q[0];
	pf[0].events = POLLIN;
	n = poll(pf, 1, 0);
	printf("poll on closed writer: %d hup %d\n", n, !!(pf[0].revents & POLLHUP));

	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	struct timeval tv = { 1, 0 };
	n = select(p[1] + 1, &rd, &wr, NULL, &tv);
	printf("select: %d readable %d writable %d\n", n, FD_ISSET(p[0], &rd), FD_ISSET(p[1], &wr));
	char buf[8];
	CHECK(read(p[0], buf, 8) == 2);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv.tv_sec = 0;
	tv.tv_usec = 10000;
	n = select(p[0] + 1, &rd, NULL, NULL, &tv);
	printf("select timeout: %d readable %d\n", n, FD_ISSET(p[0], &rd));
	FD_SET(p[0], &rd);
	ts.tv_nsec = 1000000;
	n = pselect(p[0] + 1, &rd, NULL, NULL, &ts, &none);
	printf("pselect timeout: %d\n", n);

	/* epoll with an eventfd and a pipe */
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int ev = eventfd(0, EFD_NONBLOCK);
	CHECK(ep >= 0 && ev >= 0);
	struct epoll_event e = { .events = EPOLLIN, .data.u64 = 1 };
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, ev, &e) == 0);
	e.data.u64 = 2;
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &e) == 0);
	struct epoll_event out[4];
	n = epoll_wait(ep, out, 4, 0);
	printf("epoll nothing: %d\n", n);
	uint64_t one = 3;
	CHECK(write(ev, &one, 8) == 8);
	CHECK(write(p[1], "z", 1) == 1);
	n = epoll_wait(ep, out, 4, 1000);
	uint64_t tags = 0;
	for (int i = 0; i < n; i++)
		tags |= out[i].data.u64 == 1 ? 1 : out[i].data.u64 == 2 ? 2 : 4;
	printf("epoll: %d events, tags %llu\n", n, (unsigned long long)tags);
	uint64_t val;
	CHECK(read(ev, &val, 8) == 8);
	printf("eventfd value: %llu\n", (unsigned long long)val);
	CHECK(read(ev, &val, 8) == -1 && errno == EAGAIN);
	CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, ev, NULL) == 0);
	n = epoll_wait(ep, out, 4, 10);
	printf("epoll after del: %d tag %llu\n", n, n > 0 ? (unsigned long long)out[0].data.u64 : 0ull);
	close(ep);
	close(ev);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	return prog_done("poll_select");
}
