/* minireloc.c: what musl's static-pie start-up does first, for the
 * libc-free tests: apply the image's R_X86_64_RELATIVE relocations (the
 * runtime's syscall table holds pointers).  Not instrumented: it runs
 * where musl's _dlstart_c would, with only PC-relative references. */
#include <stddef.h>
#include <stdint.h>

extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern uint64_t _DYNAMIC[] __attribute__((visibility("hidden")));

__attribute__((visibility("hidden"))) void t_relocate(void)
{
	uintptr_t base = (uintptr_t)__ehdr_start;
	const uint64_t *rela = 0;
	uint64_t size = 0;
	for (const uint64_t *d = _DYNAMIC; d[0]; d += 2) {
		if (d[0] == 7) /* DT_RELA */
			rela = (const uint64_t *)(base + d[1]);
		else if (d[0] == 8) /* DT_RELASZ */
			size = d[1];
	}
	for (uint64_t i = 0; rela && i < size / 24; i++, rela += 3)
		if ((uint32_t)rela[1] == 8) /* R_X86_64_RELATIVE */
			*(uint64_t *)(base + rela[0]) = base + rela[2];
}
