/* String and memory routines: rep movs/stos, scas-like loops, byte ops. */
#include <stddef.h>
#include <string.h>
size_t my_strlen(const char *s) { const char *p = s; while (*p) p++; return (size_t)(p - s); }
void *my_memcpy(void *d, const void *s, size_t n) { char *a = d; const char *b = s; while (n--) *a++ = *b++; return d; }
void *my_memset(void *d, int c, size_t n) { unsigned char *a = d; while (n--) *a++ = (unsigned char)c; return d; }
int my_strcmp(const char *a, const char *b) { while (*a && *a == *b) a++, b++; return (unsigned char)*a - (unsigned char)*b; }
char *my_strchr(const char *s, int c) { for (;; s++) { if (*s == c) return (char *)s; if (!*s) return 0; } }
struct big { long a[40]; };
void copy_big(struct big *d, const struct big *s) { *d = *s; }
void zero_big(struct big *d) { memset(d, 0, sizeof *d); }
void rep_movsb(void *d, const void *s, size_t n) { __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory"); }
void rep_stosq(void *d, size_t n) { __asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(0L) : "memory"); }
int repe_cmpsb(const void *a, const void *b, size_t n) { unsigned char r; __asm__ volatile("repe cmpsb; setne %0" : "=r"(r), "+D"(a), "+S"(b), "+c"(n) : : "memory", "cc"); return r; }
size_t repne_scasb(const char *s) { size_t n = (size_t)-1; __asm__ volatile("repne scasb" : "+D"(s), "+c"(n) : "a"(0) : "memory", "cc"); return ~n - 1; }
long lodsq_sum(const long *p, size_t n) { long s = 0, v; while (n--) { __asm__ volatile("lodsq" : "=a"(v), "+S"(p) : : "memory"); s += v; } return s; }
void stosb1(char *p) { __asm__ volatile("stosb" : "+D"(p) : "a"(1) : "memory"); }
void movsl1(int *d, const int *s) { __asm__ volatile("movsl" : "+D"(d), "+S"(s) : : "memory"); }
void movsw1(short *d, const short *s) { __asm__ volatile("movsw" : "+D"(d), "+S"(s) : : "memory"); }
int cmpsl1(const int *a, const int *b) { int r; __asm__ volatile("cmpsl; sete %b0" : "=q"(r), "+D"(a), "+S"(b) : : "memory", "cc"); return r & 1; }
void cld_std(void) { __asm__ volatile("std; cld" ::: "cc"); }
