/* rr: a program with signal handlers (recorded with signals blocked while
 * records are sent); the handler runs synchronously (raise), so replay
 * reproduces it.
 * rr-native: differs: musl writes the first stdout line at once, glibc buffers it
 * rr-expect-out: ^after raise 2: got 10$ */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static volatile int got;
static void on_usr1(int s)
{
	got = s;
	write(1, "in handler\n", 11);
}
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, 0);
	for (int i = 0; i < 3; i++) {
		raise(SIGUSR1);
		printf("after raise %d: got %d\n", i, got);
	}
	return 0;
}
