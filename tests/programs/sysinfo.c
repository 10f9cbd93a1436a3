/* sysinfo: uname, getrlimit/setrlimit/prlimit, times, getrusage, sysinfo,
 * the pid family, getcwd/chdir, umask, gethostname.  Properties only:
 * pids, hosts and sizes differ from machine to machine and run to run. */
#include "prog.h"
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>

int main(void)
{
	struct utsname u;
	CHECK(uname(&u) == 0);
	printf("uname: %s %s, release nonempty %d\n", u.sysname, u.machine, u.release[0] != 0);
	char host[256];
	CHECK(gethostname(host, sizeof host) == 0);
	printf("hostname matches uname: %d\n", strcmp(host, u.nodename) == 0);

	struct rlimit rl, rl2;
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	printf("nofile: cur <= max %d, cur >= 64 %d\n",
	       rl.rlim_max == RLIM_INFINITY || rl.rlim_cur <= rl.rlim_max, rl.rlim_cur >= 64);
	rl2 = rl;
	rl2.rlim_cur = 100;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl2) == 0);
	CHECK(getrlimit(RLIMIT_NOFILE, &rl2) == 0);
	printf("nofile lowered to %llu\n", (unsigned long long)rl2.rlim_cur);
	CHECK(prlimit(0, RLIMIT_NOFILE, &rl, &rl2) == 0);
	printf("prlimit old %llu", (unsigned long long)rl2.rlim_cur);
	printf(", restored %d\n", getrlimit(RLIMIT_NOFILE, &rl2) == 0 && rl2.rlim_cur == rl.rlim_cur);
	CHECK(getrlimit(RLIMIT_STACK, &rl) == 0);
	printf("stack limit at least 1MB: %d\n", rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (1 << 20));

	volatile unsigned long spin = 0;
	for (unsigned long i = 0; i < 20000000; i++)
		spin += i;
	struct tms tm;
	clock_t c = times(&tm);
	printf("times: ok %d\n", c != (clock_t)-1);
	struct rusage ru;
	CHECK(getrusage(RUSAGE_SELF, &ru) == 0);
	printf("rusage: maxrss positive %d, some cpu %d\n", ru.ru_maxrss > 0,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec > 0);
	struct sysinfo si;
	CHECK(sysinfo(&si) == 0);
	printf("sysinfo: ram positive %d, uptime positive %d\n", si.totalram > 0, si.uptime > 0);

	pid_t pid = getpid(), ppid = getppid();
	printf("pids positive: %d %d, gettid == pid %d\n", pid > 0, ppid > 0,
	       (pid_t)syscall(SYS_gettid) == pid);
	printf("ids: uid==euid %d, gid==egid %d\n", getuid() == geteuid(), getgid() == getegid());
	fflush(stdout);
	pid_t child = fork();
	if (child == 0)
		_exit(getppid() == pid ? 0 : 1);
	int st;
	CHECK(waitpid(child, &st, 0) == child);
	printf("child sees parent's pid: %d; child pid differs: %d\n",
	       WIFEXITED(st) && WEXITSTATUS(st) == 0, child != pid);
	CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0);

	char cwd[4096], cwd2[4096];
	CHECK(getcwd(cwd, sizeof cwd) != NULL);
	CHECK(chdir("/") == 0);
	CHECK(getcwd(cwd2, sizeof cwd2) != NULL);
	printf("cwd after chdir /: %s\n", cwd2);
	CHECK(chdir(cwd) == 0);
	CHECK(getcwd(cwd2, sizeof cwd2) != NULL && strcmp(cwd, cwd2) == 0);
	char small[2];
	CHECK(getcwd(small, sizeof small) == NULL);
	printf("getcwd small buffer: %s\n", errname(errno));
	mode_t old = umask(077);
	printf("umask: set 077, read back %03o\n", (unsigned)umask(old));
	long pg = sysconf(_SC_PAGESIZE);
	printf("page size: %ld\n", pg);
	return prog_done("sysinfo");
}
