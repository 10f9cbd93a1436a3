/* Scalar float and double: SSE arithmetic, conversions, compares. */
#include <math.h>
double f1(double a, double b) { return a * b + a / b - sqrt(a); }
float f2(float a, float b) { return a * b + a / b - sqrtf(a); }
int f3(double a) { return (int)a; }
long f4(float a) { return (long)a; }
unsigned long f5(double a) { return (unsigned long)a; }
double f6(long a) { return (double)a; }
float f7(unsigned long a) { return (float)a; }
double f8(unsigned a) { return a; }
float f9(double a) { return (float)a; }
double f10(float a) { return a; }
int f11(double a, double b) { return a < b ? 1 : a > b ? 2 : a == b ? 3 : 4; }
int f12(float a, float b) { return isless(a, b) + isgreater(a, b) + isunordered(a, b); }
double f13(double a, double b) { return fmin(a, b) + fmax(a, b) + fabs(a) + copysign(a, b); }
double f14(double a) { return floor(a) + ceil(a) + trunc(a) + rint(a) + nearbyint(a) + round(a); }
float f15(const float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i] * p[i]; return s; }
double f16(const double *p, const double *q, int n) { double s = 0; for (int i = 0; i < n; i++) s += p[i] * q[i]; return s; }
void f17(float *p, double *q, int n) { for (int i = 0; i < n; i++) q[i] = p[i] * 2.0; }
void f18(int *p, float *q, int n) { for (int i = 0; i < n; i++) q[i] = (float)p[i]; }
double f19(double a) { return -a; }
long f20(double a) { return lrint(a) + lround(a); }
double f21(const double *p) { return *p > 0 ? *p : -*p; }
float f22(float a) { return a < 0 ? 0 : a; }
double f23(double a, int e) { return ldexp(a, e); }
int f24(double a) { return isnan(a) + isinf(a) * 2 + signbit(a) * 4; }
double f25(float *p, int *i, long *l, short *s) { return *p + *i + *l + *s; }
void f26(double *d, const float *s) { d[0] = s[0]; d[1] = s[1]; }
_Complex double f27(_Complex double a, _Complex double b) { return a * b / (a + b); }
float f28(float a) { return (float)(int)a + (float)(long)a; }
