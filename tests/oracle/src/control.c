/* Control flow: switch tables, indirect calls, tail calls, recursion,
 * setjmp/longjmp, varargs, alloca. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static jmp_buf jb;
int sw(int x) { switch (x) { case 0: return 10; case 1: return 21; case 2: return 33; case 3: return 47; case 4: return 51; case 5: return 66; case 6: return 70; case 7: return 83; default: return -1; } }
int (*fp)(int) = sw;
int call_ind(int x) { return fp(x) + 1; }
int tail(int x) { return sw(x + 1); }
int rec(int n) { return n < 2 ? n : rec(n - 1) + rec(n - 2); }
void jumper(int v) { longjmp(jb, v); }
int try_jump(int v) { if (setjmp(jb)) return 1; jumper(v); return 0; }
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
double dsum(int n, ...) { va_list ap; va_start(ap, n); double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s; }
long double ldsum(int n, ...) { va_list ap; va_start(ap, n); long double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, long double); va_end(ap); return s; }
int use_sum(void) { return sum(3, 1, 2, 3) + (int)dsum(2, 1.0, 2.0) + (int)ldsum(1, 3.0L); }
int use_alloca(int n) { char *p = __builtin_alloca(n); memset(p, 1, n); return p[n - 1]; }
int vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i; return a[n / 2]; }
void loop_calls(void (*f)(int), int n) { for (int i = 0; i < n; i++) f(i); }
int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
void sort(int *a, int n) { qsort(a, n, sizeof *a, cmp); }
int print(int x) { return printf("%d %s\n", x, "x"); }
struct S { long a, b, c; };
struct S ret_struct(long x) { struct S s = {x, x + 1, x + 2}; return s; }
long take_struct(struct S s) { return s.a + s.c; }
__attribute__((noinline)) static int nested(int x) { return x * 2; }
int computed_goto(int i) { static void *t[] = {&&a, &&b, &&c}; goto *t[i % 3]; a: return nested(1); b: return nested(2); c: return nested(3); }
void trap(void) { __builtin_trap(); }
void unreach(int x) { if (x) __builtin_unreachable(); }
int loops(const int *p, int n) { int s = 0; do { s += *p++; } while (--n); return s; }
void asm_loop(long n) { __asm__ volatile("1: loop 1b; jrcxz 2f; 2: nop; jecxz 3f; 3:" : "+c"(n)); }
void pushes(void) { __asm__ volatile("pushq %%rax; popq %%rax; pushfq; popfq; pushw %%ax; popw %%ax; pushq $1; addq $8, %%rsp; pushq 8(%%rsp); popq 8(%%rsp); lahf; sahf" ::: "rax", "memory", "cc"); }
void enter_leave(void) { __asm__ volatile("enter $16, $0; leave" ::: "memory"); }
