/* rr: reads stdin (given on record only).
 * rr-stdin: first line\nsecond line\n
 * rr-expect-out: ^read: second line$
 * rr-expect-out: ^sum 2120$ */
#include <stdio.h>
int main(void)
{
	char line[256];
	long sum = 0;
	while (fgets(line, sizeof line, stdin)) {
		for (char *c = line; *c; c++)
			sum += (unsigned char)*c;
		printf("read: %s", line);
	}
	printf("sum %ld\n", sum);
	return 0;
}
