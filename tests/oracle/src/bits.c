/* Bit operations without BMI: bt*, bsf/bsr, shld/shrd, bswap, rotates. */
#include <stdint.h>
int f1(unsigned long a, int n) { return (a >> n) & 1; }
unsigned long f2(unsigned long a, int n) { return a | (1UL << n); }
unsigned long f3(unsigned long a, int n) { return a & ~(1UL << n); }
unsigned long f4(unsigned long a, int n) { return a ^ (1UL << n); }
int f5(unsigned a) { return __builtin_ctz(a) + __builtin_clz(a); }
int f6(unsigned long a) { return __builtin_ffsl(a) + __builtin_parityl(a) + __builtin_popcountl(a); }
unsigned __int128 f7(unsigned __int128 a, int n) { return a << n; }
__int128 f8(__int128 a, int n) { return a >> n; }
unsigned __int128 f9(unsigned __int128 a) { return a >> 7; }
uint32_t f10(uint32_t a) { return __builtin_bswap32(a); }
uint64_t f11(uint64_t a) { return __builtin_bswap64(a); }
uint32_t f12(uint32_t a, int n) { return (a << n) | (a >> (32 - n)); }
uint8_t f13(uint8_t a) { return (uint8_t)((a << 3) | (a >> 5)); }
uint16_t f14(uint16_t a, int n) { return (uint16_t)((a >> n) | (a << (16 - n))); }
int f15(const unsigned long *p, int n) { return (p[n / 64] >> (n % 64)) & 1; }
void f16(unsigned long *p, int n) { p[n / 64] |= 1UL << (n % 64); }
int f17(long a) { int r; __asm__("btq $5, %1; setc %b0" : "=q"(r) : "r"(a) : "cc"); return r & 1; }
int f18(long *p, long n) { int r; __asm__("btq %2, %1; setc %b0" : "=q"(r) : "m"(*p), "r"(n) : "cc"); return r & 1; }
void f19(long *p, long n) { __asm__("btsq %1, %0; btrl $3, %0; btcw $1, %0" : "+m"(*p) : "r"(n) : "cc"); }
unsigned long f20(unsigned long a, unsigned long b, int n) { __asm__("shldq %%cl, %1, %0; shrdq $3, %1, %0" : "+r"(a) : "r"(b), "c"(n) : "cc"); return a; }
unsigned long f21(unsigned long *p, unsigned long b) { __asm__("shldq $4, %1, %0; shrdq %%cl, %1, %0" : "+m"(*p) : "r"(b), "c"(3) : "cc"); return *p; }
void f22(int *p, int n) { *p <<= n; p[1] >>= 3; p[2] = (int)((unsigned)p[2] >> n); }
void f23(long *p) { *p = ~*p; p[1] = -p[1]; ++p[2]; --p[3]; }
int f24(unsigned a) { int r; __asm__("bsrl %1, %0; bsfl %1, %0" : "=r"(r) : "r"(a) : "cc"); return r; }
long f25(long *p) { long r; __asm__("bsfq %1, %0; bsrq %1, %0" : "=r"(r) : "m"(*p) : "cc"); return r; }
void f26(unsigned *p) { __asm__("roll $3, %0; rorl %%cl, %0; rcll $1, %0; rcrl %0; rolw %0; rorb $2, %0" : "+m"(*p) : "c"(2) : "cc"); }
void f27(long *p) { __asm__("salq $2, %0; sarq %%cl, %0; shrq %0" : "+m"(*p) : "c"(2) : "cc"); }
