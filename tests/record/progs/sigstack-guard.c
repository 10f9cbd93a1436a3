/* sigstack-guard: the program may not unmap, remap or map over the
 * runtime's signal stack (runtime/layout.h): it would take the stack every
 * signal comes in on.  It lies outside the covered range, where the calls
 * fail with ENOMEM (rdb says why on stderr); a hint there lands
 * elsewhere. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static const char *err(void) { return errno == ENOMEM ? "ENOMEM" : strerror(errno); }

int main(void)
{
	char *s = (char *)0x500280000000;
	int r = munmap(s, 4096);
	printf("munmap: %d %s\n", r, r ? err() : "");
	r = mprotect(s + 8192, 4096, PROT_NONE);
	printf("mprotect: %d %s\n", r, r ? err() : "");
	void *p = mmap(s + 4096, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	               -1, 0);
	printf("mmap MAP_FIXED: %s\n", p == MAP_FAILED ? err() : "mapped");
	p = mmap(s + 4096, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("mmap hint: %s\n", p == MAP_FAILED ? err() : p == s + 4096 ? "there" : "elsewhere");
	return 0;
}
