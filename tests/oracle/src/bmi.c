/* oracle-flags: -mbmi -mbmi2 -mlzcnt -mpopcnt */
#include <x86intrin.h>
unsigned f1(unsigned a, unsigned b) { return _andn_u32(a, b); }
unsigned long f2(unsigned long a, unsigned long b) { return _bextr_u64(a, 3, 8) + _bextr_u64(b, 1, 4); }
unsigned f3(unsigned a) { return _blsi_u32(a) ^ _blsr_u32(a) ^ _blsmsk_u32(a); }
unsigned long f4(unsigned long a, unsigned b) { return _bzhi_u64(a, b); }
unsigned long f5(unsigned long a, unsigned long m) { return _pdep_u64(a, m) ^ _pext_u64(a, m); }
unsigned long f6(unsigned long a, unsigned long b, unsigned long long *hi) { return _mulx_u64(a, b, hi); }
unsigned f7(unsigned a) { return (a >> 7) | (a << 25); }
long f8(long a, int n) { return a >> n; }
unsigned long f9(unsigned long a, int n) { return (a << n) + (a >> (n & 7)); }
int f10(unsigned long a) { return __builtin_ctzl(a) + __builtin_clzl(a) + __builtin_popcountl(a); }
int f11(const unsigned *p) { return __builtin_ctz(*p) + __builtin_clz(p[1]) + __builtin_popcount(p[2]); }
unsigned f12(const unsigned *p, int n) { return p[0] >> n; }
unsigned f13(const unsigned *p, unsigned b) { return _andn_u32(*p, b) + _bzhi_u32(p[1], b) + _pdep_u32(p[2], b); }
unsigned long f14(const unsigned long *p) { return _blsr_u64(*p) + _tzcnt_u64(p[1]) + _lzcnt_u64(p[2]); }
unsigned f15(const unsigned *p) { return (*p >> 3) | (*p << 29); }
unsigned short f16(unsigned short a) { return __builtin_bswap16(a); }
