/* sys_pipe.c: pipe(2) writes the two descriptors; going back they are
 * what they were before the call, and a watchpoint on one stops at it. */
#include <unistd.h>

int fds[2] = {-5, -6};
char got[4];

int main(void)
{
	fds[1] = -7; // @before
	pipe(fds); // @pipe
	write(fds[1], "ok", 2);
	read(fds[0], got, 2); // @read
	return got[0] != 'o'; // @end
}
