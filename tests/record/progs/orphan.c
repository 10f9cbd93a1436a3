/* orphan: a fork child writes to the recording's stdout after the parent
 * has exited.  The recording holds that output (after the parent's end);
 * the replay writes it too, after the parent's own (it left it out).
 * rr-native: differs: the order of the lines depends on the child's 100 ms
 * rr-expect-out: ^parent done$
 * rr-expect-out: ^orphan child done$ */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	if (fork() == 0) {
		usleep(100000);
		printf("orphan child done\n");
		return 0;
	}
	printf("parent done\n");
	return 0;
}
