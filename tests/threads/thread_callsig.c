/* thread_callsig: a program handler interrupts the runtime's part of a
 * call in one thread while another thread is in its own call.  A and B
 * each block in read() on their own pipe; main sends SIGUSR1 to A, whose
 * handler (no SA_RESTART) writes to B's pipe: B's read returns that byte,
 * A's read fails with EINTR.  Then the same with SA_RESTART: A's read
 * goes on and returns what main writes next. */
#include "../programs/prog.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>

static int pa[2], pb[2];
static volatile sig_atomic_t handled;
static volatile pid_t tid_a;

/* Waits until thread TID sleeps in read() (/proc's syscall file names the
 * call a blocked thread is in: 0).  A signal sent before that would find
 * A outside read(), and without SA_RESTART A would then block for ever:
 * a loaded machine broke the fixed sleep this replaced. */
static void wait_in_read(pid_t tid)
{
	char path[64], buf[32];
	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
	for (int i = 0; i < 20000; i++) {
		int fd = open(path, O_RDONLY);
		CHECK(fd >= 0);
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n >= 2 && buf[0] == '0' && buf[1] == ' ')
			return;
		usleep(1000);
	}
	CHECK(!"thread A never blocked in read()");
}

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	CHECK(write(pb[1], "b", 1) == 1); /* a call inside the handler */
}

static void *reader_a(void *arg)
{
	char c;
	(void)arg;
	tid_a = gettid();
	long r = read(pa[0], &c, 1);
	return (void *)(r < 0 ? (long)-errno : (long)c);
}

static void *reader_b(void *arg)
{
	char c;
	(void)arg;
	long r = read(pb[0], &c, 1);
	return (void *)(r < 0 ? (long)-errno : (long)c);
}

static void round_(int restart)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, 0);
	pthread_t a, b;
	handled = 0;
	tid_a = 0;
	CHECK(pthread_create(&a, 0, reader_a, 0) == 0);
	CHECK(pthread_create(&b, 0, reader_b, 0) == 0);
	while (!tid_a)
		usleep(1000);
	wait_in_read(tid_a);
	CHECK(pthread_kill(a, SIGUSR1) == 0);
	void *rb, *ra;
	CHECK(pthread_join(b, &rb) == 0);
	if (restart)
		CHECK(write(pa[1], "a", 1) == 1);
	CHECK(pthread_join(a, &ra) == 0);
	printf("%s: handler ran %d; B read '%c'; A's read %s\n", restart ? "SA_RESTART" : "no restart",
	       (int)handled, (char)(long)rb,
	       (long)ra == -EINTR ? "failed with EINTR" : (long)ra == 'a' ? "read 'a'" : "other");
	CHECK(handled == 1 && (long)rb == 'b' && (long)ra == (restart ? 'a' : -EINTR));
}

int main(void)
{
	CHECK(pipe(pa) == 0 && pipe(pb) == 0);
	round_(0);
	round_(1);
	return prog_done("thread_callsig");
}
