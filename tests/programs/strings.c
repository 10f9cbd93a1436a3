/* strings: the string functions over sizes 0..300 and every source and
 * destination alignment 0..15: memcpy, memmove (both directions,
 * overlapping), memset, memcmp, memchr, strlen, strcmp, strncmp, strchr,
 * strrchr, strstr, strcpy, strncpy, strcat; then strdup, strtok_r,
 * strspn, snprintf, and a checksum of everything. */
#include "prog.h"

#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wstringop-truncation"

static unsigned char src[1024], dst[1024], ref[1024];
static uint64_t total;

static void mix(uint64_t v) { total = (total ^ v) * 0x100000001b3ull; }

int main(void)
{
	for (int i = 0; i < 1024; i++)
		src[i] = (unsigned char)(i * 37 + 11);
	int bad = 0;
	for (int sa = 0; sa < 16; sa++)
		for (int da = 0; da < 16; da++)
			for (int n = 0; n <= 300; n += (n < 40 ? 1 : 13)) {
				memset(dst, 0xee, 340);
				memcpy(dst + da, src + sa, n);
				bad += memcmp(dst + da, src + sa, n) != 0;
				bad += dst[da + n] != 0xee || (da && dst[da - 1] != 0xee);
				mix(fnv(dst, 340, 0));

				/* memmove overlapping both ways, checked against a copy */
				memcpy(ref, src, 700);
				memcpy(dst, src, 700);
				memmove(dst + sa + da, dst + sa, n);
				memmove(ref + 400 + sa + da, ref + sa, n); /* no overlap */
				bad += memcmp(dst + sa + da, ref + 400 + sa + da, n) != 0;
				memcpy(dst, src, 700);
				memmove(dst + sa, dst + sa + da, n);
				bad += memcmp(dst + sa, src + sa + da, n) != 0;

				memset(dst + da, sa, n);
				int ok = 1;
				for (int i = 0; i < n; i++)
					ok &= dst[da + i] == sa;
				bad += !ok;
			}
	printf("memcpy/memmove/memset: bad %d, hash %016llx\n", bad, (unsigned long long)total);

	/* memcmp's sign, memchr */
	int signs = 0;
	for (int n = 1; n < 200; n++)
		for (int pos = 0; pos < n; pos += 7) {
			memcpy(dst, src, n);
			memcpy(ref, src, n);
			ref[pos]++;
			signs += (memcmp(dst, ref, n) < 0) - (memcmp(ref, dst, n) < 0);
			signs += memchr(dst, src[pos], n) == dst + pos ? 0 : 100;
		}
	printf("memcmp/memchr: %d\n", signs);

	/* C strings at every alignment */
	char s1[400], s2[400];
	long sum = 0;
	for (int a = 0; a < 16; a++)
		for (int len = 0; len < 260; len += 3) {
			char *p = s1 + a, *q = s2 + (15 - a);
			for (int i = 0; i < len; i++)
				p[i] = 'a' + (i * 7 + len) % 26;
			p[len] = 0;
			strcpy(q, p);
			sum += (long)strlen(p) + (strcmp(p, q) != 0);
			if (len) {
				q[len - 1]++;
				sum += strcmp(p, q) < 0 ? 1 : 1000;
				sum += strncmp(p, q, len - 1) == 0 ? 1 : 1000;
				sum += strchr(p, 'z') ? strchr(p, 'z') - p : -1;
				sum += strrchr(p, 'a') ? strrchr(p, 'a') - p : -1;
			}
		}
	printf("strlen/strcmp/strchr: %ld\n", sum);

	char hay[] = "the quick brown fox jumps over the lazy dog; the end";
	printf("strstr: %td %td %d\n", strstr(hay, "the") - hay, strstr(hay + 1, "the") - hay,
	       strstr(hay, "cat") == NULL);
	printf("strspn %zu strcspn %zu strpbrk %s\n", strspn(hay, "thequick "), strcspn(hay, "xyz"),
	       strpbrk(hay, "jz"));
	char buf[64];
	strncpy(buf, "abc", sizeof buf);
	int zeros = 0;
	for (unsigned i = 3; i < sizeof buf; i++)
		zeros += buf[i] == 0;
	strcat(buf, "-def");
	strncat(buf, "ghijkl", 3);
	printf("strncpy pads %d, strcat %s\n", zeros, buf);
	char *copy = strdup(hay), *save, *tok;
	printf("tokens:");
	for (tok = strtok_r(copy, " ;", &save); tok; tok = strtok_r(NULL, " ;", &save))
		printf(" [%s]", tok);
	printf("\n");
	free(copy);
	int n = snprintf(buf, 10, "%s-%d-%x", "truncated", 12345, 255);
	printf("snprintf: %d \"%s\"\n", n, buf);
	printf("%5s|%-5s|%.2s|%c|%5d|%-5d|%05d|%x|%X|%o|%#x|%lld|%llu|%zd|%%\n", "ab", "ab", "abcdef",
	       'q', 42, 42, 42, 3054, 3054, 8, 255, -1234567890123ll, 18446744073709551615ull, (ssize_t)-5);
	CHECK(bad == 0);
	return prog_done("strings");
}
