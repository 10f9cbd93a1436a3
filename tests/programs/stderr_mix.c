/* stderr_mix: output on both streams: unbuffered stderr through fprintf,
 * fputs and write(2), buffered stdout, large writes on each, a stdout
 * buffer flushed only at exit, and perror-style messages built from
 * errno names (strerror's text differs between C libraries). */
#include "prog.h"
#include <fcntl.h>

int main(void)
{
	fprintf(stderr, "stderr: first message\n");
	printf("stdout: first line\n");
	CHECK(write(2, "stderr: via write(2)\n", 21) == 21);
	for (int i = 0; i < 5; i++) {
		printf("stdout %d\n", i);
		fprintf(stderr, "stderr %d\n", i);
	}
	if (open("/nonexistent/file", 0) < 0)
		fprintf(stderr, "stderr: open failed: %s\n", errname(errno));
	char big[10000];
	for (int i = 0; i < (int)sizeof big; i++)
		big[i] = i % 64 == 63 ? '\n' : 'A' + i % 26;
	fwrite(big, 1, sizeof big, stderr);
	fwrite(big, 1, sizeof big, stdout);
	fputs("stderr: partial line without newline", stderr);
	fputc('\n', stderr);
	fprintf(stderr, "stderr: last message\n");
	printf("stdout: %s\n", "last data line");
	return prog_done("stderr_mix");
}
