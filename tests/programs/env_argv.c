/* env_argv: the arguments (run.sh passes: first, "two words", "") and the
 * environment: getenv of set, empty and unset variables, the PROGTEST_
 * variables of environ sorted, setenv (overwrite or not), putenv,
 * unsetenv, and a child exec'd with a chosen environment (execve of this
 * program, argv[1] "show-env"). */
#include "prog.h"
#include <sys/wait.h>

extern char **environ;

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void show_prefixed(const char *tag)
{
	char *v[64];
	int n = 0;
	for (char **e = environ; *e && n < 64; e++)
		if (strncmp(*e, "PROGTEST_", 9) == 0)
			v[n++] = *e;
	qsort(v, n, sizeof *v, cmpstr);
	printf("%s (%d):", tag, n);
	for (int i = 0; i < n; i++)
		printf(" [%s]", v[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "show-env") == 0) {
		show_prefixed("exec'd child sees");
		printf("child: PATH set %d\n", getenv("PATH") != NULL);
		return 0;
	}
	printf("argc %d\n", argc);
	for (int i = 1; i < argc; i++)
		printf("argv[%d] = [%s] (%zu bytes)\n", i, argv[i], strlen(argv[i]));
	printf("argv[argc] is null: %d\n", argv[argc] == NULL);
	const char *g = getenv("PROGTEST_GREETING"), *e = getenv("PROGTEST_EMPTY");
	printf("getenv: greeting [%s], empty set %d len %zu, unset %d\n", g ? g : "(null)", e != NULL,
	       e ? strlen(e) : 0, getenv("PROGTEST_NOT_SET_ANYWHERE") == NULL);
	printf("TZ=%s LC_ALL=%s\n", getenv("TZ") ? getenv("TZ") : "(unset)",
	       getenv("LC_ALL") ? getenv("LC_ALL") : "(unset)");
	show_prefixed("initial");

	CHECK(setenv("PROGTEST_NEW", "fresh", 0) == 0);
	CHECK(setenv("PROGTEST_GREETING", "not replaced", 0) == 0);
	CHECK(setenv("PROGTEST_SPACED", "replaced", 1) == 0);
	static char put[] = "PROGTEST_PUT=by putenv";
	CHECK(putenv(put) == 0);
	CHECK(unsetenv("PROGTEST_EMPTY") == 0);
	CHECK(unsetenv("PROGTEST_NEVER") == 0);
	CHECK(setenv("BAD=NAME", "x", 1) == -1);
	printf("setenv with '=': %s\n", errname(errno));
	show_prefixed("changed");
	put[13] = 'B'; /* putenv shares the string */
	printf("putenv shares: %s\n", getenv("PROGTEST_PUT"));

	char *envp[] = { "PROGTEST_ONLY=1", "PROGTEST_B=two=parts", "PATH=/bin", NULL };
	char *args[] = { argv[0], "show-env", NULL };
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execve("/proc/self/exe", args, envp);
		_exit(127);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(clearenv() == 0);
	printf("after clearenv: %d\n", environ == NULL || environ[0] == NULL);
	return prog_done("env_argv");
}
