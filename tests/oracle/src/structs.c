/* Struct copies, bitfields, arrays of structs, global data. */
#include <string.h>
struct bf { unsigned a : 3, b : 7, c : 1; int d : 12; long e : 40; };
struct pt { short x, y; char n; double w; };
struct pt tab[64];
struct bf g;
int f1(struct bf *p) { return p->a + p->b + p->c + p->d + (int)p->e; }
void f2(struct bf *p, int v) { p->a = v; p->b = v >> 3; p->d = -v; p->e = v * 3L; }
double f3(int i) { return tab[i].x + tab[i].y + tab[i].n + tab[i].w; }
void f4(int i, struct pt v) { tab[i] = v; }
struct pt f5(int i) { return tab[i]; }
void f6(struct pt *d, const struct pt *s, int n) { for (int i = 0; i < n; i++) d[i] = s[i]; }
void f7(void) { memset(tab, 0, sizeof tab); }
int f8(void) { return g.a + g.c; }
void f9(char *d) { static const char msg[] = "hello, world, this is a long message for copying"; memcpy(d, msg, sizeof msg); }
long f10(long (*a)[8], int i, int j) { return a[i][j] + a[j][i]; }
char f11(const char *s, long i) { return s[i] + s[i * 2 + 1]; }
int f12(const int *p, long i) { return p[i] + p[i + 1] + p[-i]; }
short f13(const short *p, unsigned i) { return p[i] + p[i * 4]; }
void f14(unsigned char *p, int n) { for (int i = 0; i < n; i++) p[i] = (unsigned char)(p[i] * 3); }
void f15(long *p, const long *q, int n) { for (int i = 0; i < n; i++) p[i] += q[i]; }
void f16(int *p, int n) { for (int i = 0; i < n; i++) p[i] = i; }
void f17(double *p, int n) { for (int i = 0; i < n; i++) p[i] *= 1.5; }
void f18(char *p, int n) { for (int i = 0; i < n; i++) p[i] = p[i] == 'a' ? 'b' : p[i]; }
