/* util.c: the runtime's own small libc: memory and string helpers and a
 * formatted message to fd 2 through raw write(2).  Nothing here may call
 * the program's (instrumented) libc, so these are named rdb_* and the
 * build checks that librdb.a has no undefined symbol outside itself. */
#include <stdarg.h>

#include "rt.h"

void *rdb_memset(void *d, int c, size_t n)
{
	void *r = d;
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return r;
}

void *rdb_memcpy(void *d, const void *s, size_t n)
{
	void *r = d;
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return r;
}

size_t rdb_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int rdb_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int rdb_memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

long rdb_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	return rdb_sys6(nr, a, b, c, d, e, f);
}

void rdb_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		long r = rdb_sys3(__NR_write, fd, p, n);
		if (r == -4) /* EINTR */
			continue;
		if (r <= 0)
			return;
		p += r;
		n -= (size_t)r;
	}
}

long rdb_send_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		long r = rdb_sys6(__NR_sendto, fd, (long)c, (long)n, RDB_MSG_NOSIGNAL, 0, 0);
		if (r == -RDB_EINTR)
			continue;
		if (r <= 0)
			return r ? r : -RDB_EPIPE;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

long rdb_high_fd(long fd, long min)
{
	long hi = rdb_sys3(__NR_fcntl, fd, 1030 /* F_DUPFD_CLOEXEC */, min);
	if (hi < 0)
		return fd;
	rdb_sys1(__NR_close, fd);
	return hi;
}

long rdb_peek(void *to, uint64_t a, uint64_t n)
{
	struct { uint64_t base, len; } l = {(uint64_t)to, n}, r = {a, n};
	return rdb_sys6(__NR_process_vm_readv, rdb_sys0(__NR_getpid), (long)&l, 1, (long)&r, 1, 0);
}

void rdb_poke_mem(uint64_t a, const void *p, uint64_t n)
{
	long r = 0;
	if (!RT->util.mem_fd) {
		r = rdb_sys4(__NR_openat, -100, (long)"/proc/self/mem", 2 /* O_RDWR */ | RDB_O_CLOEXEC, 0);
		if (r >= 0)
			RT->util.mem_fd = (int)rdb_high_fd(r, RDB_WATCH_FD);
	}
	if (RT->util.mem_fd)
		r = rdb_sys4(__NR_pwrite64, RT->util.mem_fd, (long)p, (long)n, (long)a);
	if (r != (long)n)
		rdb_die("replay: cannot write %lu bytes at %p through /proc/self/mem (error %ld)\n",
		        (unsigned long)n, (void *)a, r < 0 ? -r : 0);
}

/* A bounded buffer: messages longer than it are cut, never overflow. */
struct out {
	char buf[512];
	size_t n;
};

static void put(struct out *o, char c)
{
	if (o->n < sizeof o->buf)
		o->buf[o->n++] = c;
}

static void put_u(struct out *o, unsigned long v, unsigned base)
{
	char tmp[24];
	int k = 0;
	do {
		tmp[k++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (k)
		put(o, tmp[--k]);
}

static void vformat(struct out *o, const char *f, va_list ap)
{
	for (; *f; f++) {
		if (*f != '%') {
			put(o, *f);
			continue;
		}
		int lng = 0;
		f++;
		while (*f == 'l' || *f == 'z')
			lng = 1, f++;
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			for (s = s ? s : "(null)"; *s; s++)
				put(o, *s);
			break;
		}
		case 'd': {
			long v = lng ? va_arg(ap, long) : va_arg(ap, int);
			if (v < 0) /* negated unsigned: -LONG_MIN overflows a long */
				put(o, '-');
			put_u(o, v < 0 ? 0ul - (unsigned long)v : (unsigned long)v, 10);
			break;
		}
		case 'u':
			put_u(o, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned), 10);
			break;
		case 'x':
			put_u(o, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned), 16);
			break;
		case 'p':
			put(o, '0'), put(o, 'x');
			put_u(o, (unsigned long)va_arg(ap, void *), 16);
			break;
		case '%':
			put(o, '%');
			break;
		default:
			put(o, '%'), put(o, *f);
			if (!*f)
				return;
		}
	}
}

void rdb_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct out o;
	o.n = 0;
	vformat(&o, fmt, ap);
	size_t n = o.n < cap ? o.n : cap - 1;
	rdb_memcpy(buf, o.buf, n);
	buf[n] = 0;
}

void rdb_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rdb_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
}

void rdb_printf(const char *fmt, ...)
{
	struct out o;
	o.n = 0;
	va_list ap;
	va_start(ap, fmt);
	vformat(&o, fmt, ap);
	va_end(ap);
	rdb_write_all(2, o.buf, o.n);
}

_Noreturn void rdb_die(const char *fmt, ...)
{
	struct out o;
	o.n = 0;
	const char *p = "rdb: ";
	while (*p)
		put(&o, *p++);
	va_list ap;
	va_start(ap, fmt);
	vformat(&o, fmt, ap);
	va_end(ap);
	rdb_write_all(2, o.buf, o.n);
	for (;;)
		rdb_sys1(__NR_exit_group, 127);
}
