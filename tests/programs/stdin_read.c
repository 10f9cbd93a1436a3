/* stdin_read: reads all of stdin with read(2) in small odd-sized pieces
 * (no stdio), and prints what wc would say, the longest line, a hash of
 * the bytes, and whether the input ended without a newline.  Under rdb
 * replay the input comes from the trace. */
#include "prog.h"

int main(void)
{
	char buf[37];
	ssize_t n;
	size_t bytes = 0, lines = 0, words = 0, longest = 0, cur = 0, reads = 0;
	int inword = 0, last = -1;
	uint64_t h = 0;
	while ((n = read(0, buf, sizeof buf)) > 0) {
		reads++;
		h = fnv(buf, n, h);
		for (ssize_t i = 0; i < n; i++) {
			unsigned char c = buf[i];
			bytes++;
			if (c == '\n') {
				lines++;
				if (cur > longest)
					longest = cur;
				cur = 0;
			} else {
				cur++;
			}
			int space = c == ' ' || c == '\t' || c == '\n';
			if (!space && !inword)
				words++;
			inword = !space;
			last = c;
		}
	}
	CHECK(n == 0);
	if (cur > longest)
		longest = cur;
	printf("lines %zu words %zu bytes %zu longest %zu\n", lines, words, bytes, longest);
	printf("hash %016llx, ends with newline %d, several reads %d\n", (unsigned long long)h, last == '\n',
	       reads > 1);
	CHECK(read(0, buf, 1) == 0);
	return prog_done("stdin_read");
}
