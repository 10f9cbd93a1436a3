/* timefmt: time conversion and formatting with TZ=UTC (run.sh sets it;
 * the program sets it too): gmtime_r, localtime_r, mktime, timegm,
 * strftime with explicit conversions (not %c or %x, whose C-locale forms
 * glibc and musl spell differently), strptime, difftime, leap years and
 * the far past and future; the current time only as "after 2020". */
#include "prog.h"
#include <time.h>

static void show(time_t t)
{
	struct tm tm;
	char buf[128];
	CHECK(gmtime_r(&t, &tm) != NULL);
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %A %b %B %j %u %w %y %e|%I %p|%%", &tm);
	printf("%lld: %s yday %d wday %d\n", (long long)t, buf, tm.tm_yday, tm.tm_wday);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	time_t stamps[] = { 0, 951782400 /* 2000-02-29 */, 1234567890, 2147483647, 2147483648LL,
	                    -86400 * 365LL, 4102444800LL /* 2100-01-01 */, 1700000000, 68169600 };
	for (unsigned i = 0; i < sizeof stamps / sizeof *stamps; i++)
		show(stamps[i]);

	struct tm tm = { .tm_year = 124, .tm_mon = 1, .tm_mday = 29, .tm_hour = 12, .tm_min = 30,
	                 .tm_sec = 15, .tm_isdst = 0 };
	time_t t = mktime(&tm);
	printf("mktime 2024-02-29 12:30:15 UTC = %lld, wday %d yday %d\n", (long long)t, tm.tm_wday, tm.tm_yday);
	tm.tm_mday += 1; /* normalisation: March 1st */
	tm.tm_sec += 3600 * 25;
	t = timegm(&tm);
	printf("normalised: %lld %04d-%02d-%02d %02d:%02d:%02d\n", (long long)t, tm.tm_year + 1900,
	       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	struct tm lt;
	localtime_r(&t, &lt);
	printf("localtime in UTC equals gmtime: %d, gmtoff %ld\n", lt.tm_hour == tm.tm_hour && lt.tm_mday == tm.tm_mday,
	       (long)lt.tm_gmtoff);

	struct tm p = { 0 };
	const char *rest = strptime("2023-07-14 08:05:09 tail", "%Y-%m-%d %H:%M:%S", &p);
	printf("strptime: %d-%d-%d %d:%d:%d rest [%s]\n", p.tm_year + 1900, p.tm_mon + 1, p.tm_mday, p.tm_hour,
	       p.tm_min, p.tm_sec, rest ? rest : "(null)");
	printf("difftime %.1f\n", difftime(1234567890, 1000000000));
	char buf[64];
	size_t n = strftime(buf, 5, "%Y-%m-%d", &p);
	printf("strftime too small: %zu\n", n);
	timegm(&p); /* fills tm_wday and tm_yday, which musl's strptime leaves */
	n = strftime(buf, sizeof buf, "%D %T %R %F %G-W%V %U %W", &p);
	printf("composites: %s (%zu)\n", buf, n);

	time_t now = time(NULL);
	printf("now after 2020: %d\n", now > 1577836800);
	struct tm nt;
	gmtime_r(&now, &nt);
	printf("now's year plausible: %d\n", nt.tm_year + 1900 >= 2020 && nt.tm_year + 1900 < 2200);
	return prog_done("timefmt");
}
