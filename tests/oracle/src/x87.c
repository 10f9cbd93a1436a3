/* long double arithmetic and conversions: x87 loads, stores, compares. */
long double ld_add(long double a, long double b) { return a + b; }
long double ld_mul(long double a, long double b) { return a * b - a / b; }
int ld_lt(long double a, long double b) { return a < b; }
int ld_eq(long double a, long double b) { return a == b; }
long ld_to_l(long double a) { return (long)a; }
unsigned long ld_to_ul(long double a) { return (unsigned long)a; }
int ld_to_i(long double a) { return (int)a; }
short ld_to_s(long double a) { return (short)a; }
long double l_to_ld(long a) { return a; }
long double ul_to_ld(unsigned long a) { return a; }
long double i_to_ld(int a) { return a; }
long double s_to_ld(short *a) { return *a; }
long double f_to_ld(float a) { return a; }
long double d_to_ld(double a) { return a; }
float ld_to_f(long double a) { return (float)a; }
double ld_to_d(long double a) { return (double)a; }
long double ld_neg(long double a) { return -a; }
long double ld_abs(long double a) { return __builtin_fabsl(a); }
long double ld_sqrt(long double a) { return __builtin_sqrtl(a); }
long double ld_sum(const long double *p, int n) { long double s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
long double ld_consts(void) { long double x; __asm__("fldpi; fld1; faddp; fldz; faddp; fldl2e; fmulp; fldln2; fmulp; fldlg2; fmulp; fldl2t; fmulp" : "=t"(x)); return x; }
long double ld_misc(long double a) { long double r; __asm__("fld %%st(0); frndint; fscale; fxch %%st(1); fstp %%st(1); f2xm1; fld1; fxch; fyl2x; fprem; fprem1; fchs; fabs; fsqrt; fxam; ftst; fsin; fcos; fptan; fstp %%st(0); fpatan; fyl2xp1" : "=t"(r) : "0"(a) : "st(1)"); return r; }
unsigned short ld_sw(void) { unsigned short s; __asm__ volatile("fnstsw %0" : "=a"(s)); return s; }
unsigned short ld_cw(void) { unsigned short c; __asm__ volatile("fnstcw %0" : "=m"(c)); __asm__ volatile("fldcw %0" : : "m"(c)); return c; }
void ld_env(void *p) { __asm__ volatile("fnstenv (%0); fldenv (%0); fnclex; fwait" : : "r"(p) : "memory"); }
void ld_fx(void *p) { __asm__ volatile("fxsave (%0); fxrstor (%0); fxsave64 (%0); fxrstor64 (%0)" : : "r"(p) : "memory"); }
int ld_cmp3(long double a, long double b) { int r; __asm__("fucomi %%st(1), %%st; seta %b0; fcomi %%st(1), %%st; fucomip %%st(1), %%st; fcomip %%st(1), %%st" : "=q"(r) : "t"(a), "u"(b)); return r; }
double d_mem(double *p, float *q, int *i, short *s) { double r; __asm__("fldl (%1); fadds (%2); fiaddl (%3); fimuls (%4); fsubl (%1); fdivrs (%2); fcoml (%1); fcomps (%2); fisttpll (%1); flds (%2); fistl (%3); fistps (%4); fldl (%1)" : "=t"(r) : "r"(p), "r"(q), "r"(i), "r"(s) : "memory"); return r; }
long long ld_ll(long double a) { return (long long)a; }
long double ll_ld(long long *p) { return *p; }
long double mul_add(long double a, long double b, long double c) { return a * b + c * a - b / c; }
long double ld_cmov(long double a, long double b, int c) { return c > 3 ? a : b; }
