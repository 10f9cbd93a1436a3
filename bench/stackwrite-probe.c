/* stackwrite-probe.c: whether and at what cost this kernel can say which
 * pages of a range were written since the last look, the candidate for
 * issue 17's stack watchpoints (stores relative to %rsp/%rbp leave no
 * WRITTEN record).  Two ways are tried:
 *   - soft-dirty bits (clear_refs 4, pagemap bit 55);
 *   - a userfaultfd registered write-protect-async on the range, read and
 *     re-protected in one PAGEMAP_SCAN ioctl (Linux 6.7 and later).
 * Older headers lack the PAGEMAP_SCAN names, so they are spelled here.
 *   cc -O1 bench/stackwrite-probe.c -o probe && ./probe
 * Prints whether each way saw two known writes, then the costs. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define WP_UNPOPULATED (1 << 13)
#define WP_ASYNC (1 << 15)
struct page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGE_IS_WRITTEN (1 << 1)
#define PM_SCAN_WP_MATCHING (1 << 0)
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int softdirty(void *p)
{
	int f = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e = 0;
	if (pread(f, &e, 8, (uintptr_t)p / 4096 * 8) != 8)
		e = 0;
	close(f);
	return e >> 55 & 1;
}

static struct page_region reg[4096];

int main(void)
{
	enum { NP = 2048 };
	size_t len = (size_t)NP * 4096;
	char *m = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(m, 1, len);

	int f = open("/proc/self/clear_refs", O_WRONLY);
	int cleared = f >= 0 && write(f, "4", 1) == 1;
	close(f);
	m[5 * 4096] = 2;
	printf("soft-dirty: clear_refs %s, a written page reads %d (1 if supported)\n",
	       cleared ? "accepted" : "refused", softdirty(m + 5 * 4096));

	int u = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	struct uffdio_api api = {.api = UFFD_API, .features = WP_ASYNC | WP_UNPOPULATED};
	struct uffdio_register r = {.range = {(uintptr_t)m, len}, .mode = UFFDIO_REGISTER_MODE_WP};
	if (u < 0 || ioctl(u, UFFDIO_API, &api) || ioctl(u, UFFDIO_REGISTER, &r)) {
		printf("userfaultfd wp-async: unavailable (%s)\n", strerror(errno));
		return 1;
	}
	int pm = open("/proc/self/pagemap", O_RDONLY);
	struct pm_scan_arg a = {.size = sizeof a, .flags = PM_SCAN_WP_MATCHING,
				.start = (uintptr_t)m, .end = (uintptr_t)m + len,
				.vec = (uintptr_t)reg, .vec_len = 4096,
				.category_mask = PAGE_IS_WRITTEN, .return_mask = PAGE_IS_WRITTEN};
	ioctl(pm, PAGEMAP_SCAN, &a); /* every page counts as written at first */
	m[5 * 4096] = 2;
	m[40 * 4096 + 7] = 3;
	long n = ioctl(pm, PAGEMAP_SCAN, &a);
	int ok = n == 2 && reg[0].start == (uintptr_t)m + 5 * 4096 && reg[1].start == (uintptr_t)m + 40 * 4096;
	printf("PAGEMAP_SCAN: %ld regions after writes to pages 5 and 40: %s\n", n, ok ? "right" : "WRONG");

	double t0 = now();
	for (int k = 0; k < 100; k++)
		ioctl(pm, PAGEMAP_SCAN, &a);
	printf("  scan of %d clean pages: %.1f us\n", NP, (now() - t0) / 100 / 1e3);
	double tf = 0, ts = 0;
	for (int k = 0; k < 20; k++) {
		t0 = now();
		for (size_t i = 0; i < NP; i += 2)
			m[i * 4096] = k;
		tf += now() - t0;
		t0 = now();
		ioctl(pm, PAGEMAP_SCAN, &a);
		ts += now() - t0;
	}
	printf("  first write to a protected page: %.2f us; scan and re-protect of %d written pages: %.1f us\n",
	       tf / 20 / (NP / 2) / 1e3, NP / 2, ts / 20 / 1e3);
	return !ok;
}
