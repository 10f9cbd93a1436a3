/* rr: reads a file that is deleted before replay.
 * rr-setup: printf 'line one\nline two\n' > input.txt
 * rr-args: input.txt
 * rr-before-replay: rm -f input.txt
 * rr-expect-out: ^2: line two$ */
#include <stdio.h>
int main(int argc, char **argv)
{
	FILE *f = fopen(argc > 1 ? argv[1] : "input.txt", "r");
	if (!f) {
		perror("fopen");
		return 1;
	}
	char line[256];
	int n = 0;
	while (fgets(line, sizeof line, f))
		printf("%d: %s", ++n, line);
	fclose(f);
	return 0;
}
