/* rr: its syscalls depend on argv (checks.sh divergence: a header from
 * another run makes the replay ask for another syscall than recorded). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "uid"))
		printf("uid %d\n", (int)getuid());
	else
		printf("pid %d\n", (int)getpid());
	return 0;
}
