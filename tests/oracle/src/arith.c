/* Integer arithmetic of every width: mul/imul/div/idiv, sign extension,
 * adc/sbb via 128-bit math, cmov, setcc, movabs. */
#include <stdint.h>
int8_t a8; int16_t a16; int32_t a32; int64_t a64;
long f1(long a, long b) { return a * b + a / b - a % b; }
unsigned long f2(unsigned long a, unsigned long b) { return a / b + a % b; }
int f3(int a, int b) { return a / b * (a % b); }
unsigned f4(unsigned a, unsigned b) { return a / b; }
short f5(short a, short b) { return (short)(a / b); }
signed char f6(signed char a, signed char b) { return (signed char)(a / b); }
unsigned char f7(unsigned char a, unsigned char b) { return (unsigned char)(a * b / (b | 1)); }
__int128 f8(__int128 a, __int128 b) { return a * b + a - b; }
unsigned __int128 f9(unsigned long a, unsigned long b) { return (unsigned __int128)a * b; }
__int128 f10(long a, long b) { return (__int128)a * b; }
long f11(int a) { return a; }
long f12(short a) { return a; }
long f13(signed char a) { return a; }
unsigned long f14(unsigned a) { return a; }
int f15(const short *p) { return *p + p[1] * 3; }
int f16(const unsigned char *p) { return p[0] + p[1]; }
long f17(const int *p) { return p[0] + p[2]; }
long f18(long a, long b) { return a < b ? a : b; }
int f19(int a, int b, int c) { return a == b ? c : a; }
long f20(long a, const long *p) { return a > *p ? a : *p; }
int f21(long a, long b) { return (a < b) + (a == b) * 2 + (a > b) * 4 + ((unsigned long)a < (unsigned long)b) * 8; }
int f22(double a, double b) { return (a < b) + (a == b) + (a != b) + (a >= b); }
long f23(void) { return 0x123456789abcdefL; }
long f24(long a) { return a * 10 + a * 7 - a * 0x100000001L; }
int f25(int a) { return a / 7 + a % 13; }
unsigned f26(unsigned a) { return a / 10; }
void f27(void) { a8++; a16 += 3; a32 -= 5; a64 ^= 7; a8 |= 1; a16 &= 2; }
int f28(int a, int b) { int r; return __builtin_add_overflow(a, b, &r) ? -1 : r; }
long f29(long a, long b) { long r; return __builtin_mul_overflow(a, b, &r) ? -1 : r; }
unsigned long f30(unsigned long a, unsigned long b) { unsigned long r; return __builtin_sub_overflow(a, b, &r) ? 0 : r; }
long f31(long a) { return a < 0 ? -a : a; }
int f32(int a, int b) { return (a & b) | (a ^ b) | ~a; }
long f33(char c) { switch (c) { case 'a': return 1; case 'b': return 5; case 'q': return 9; case 'z': return 11; case 'e': return 2; case 'f': return 3; case 'g': return 8; default: return 0; } }
long f34(long *p, long v) { return *p += v, p[1] -= v, p[2] *= v, p[3] /= v, p[4]; }
short f35(short *p, short v) { *p += v; p[1] = (short)(p[1] * v); return p[2] < v; }
void f36(char *p, char v) { *p += v; p[1] ^= v; p[2] = p[2] < v; }
long f37(long a, long b) { long q, r; __asm__("cqto; idivq %3" : "=a"(q), "=d"(r) : "a"(a), "r"(b)); return q + r; }
int f38(int a, int b) { int q, r; __asm__("cltd; idivl %3; cwtl; cltq; cbtw; cwtd" : "=a"(q), "=d"(r) : "a"(a), "r"(b)); return q + r; }
long f39(long *p) { long r; __asm__("mulq %2; imulq %2; imulq %2, %0; imulq $7, %2, %0" : "=&r"(r) : "0"(3L), "m"(*p) : "rax", "rdx", "cc"); return r; }
int f40(int *p) { int r; __asm__("imull $100, %1, %0; mull %1; divl %1; negl %1; notl %1; adcl $1, %1; sbbl %0, %1" : "=&r"(r), "+m"(*p) : : "rax", "rdx", "cc"); return r; }
