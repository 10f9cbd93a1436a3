/* Builtins for nondeterministic and system-ish instructions. */
/* oracle-flags: -mrdrnd -mrdseed -mfxsr -mxsave -mclflushopt */
#include <x86intrin.h>
#include <cpuid.h>
unsigned long f1(void) { return __rdtsc(); }
unsigned long f2(unsigned *aux) { return __rdtscp(aux); }
int f3(unsigned *v) { return _rdrand32_step(v); }
int f4(unsigned long long *v) { return _rdrand64_step(v) + _rdseed64_step(v); }
int f5(unsigned short *v) { return _rdrand16_step(v) + _rdseed16_step(v); }
unsigned f6(void) { unsigned a, b, c, d; __cpuid(0, a, b, c, d); return a + b + c + d; }
unsigned long f7(void) { return _xgetbv(0); }
void f8(void *p) { _fxsave(p); _fxrstor(p); }
void f9(void) { __builtin_ia32_pause(); }
void f10(void *p) { _mm_clflushopt(p); __builtin_prefetch(p, 1, 3); __builtin_prefetch(p, 0, 0); __builtin_prefetch(p, 0, 2); }
long f11(long n) { long r; __asm__ volatile("syscall" : "=a"(r) : "a"(n) : "rcx", "r11", "memory"); return r; }
void f12(void) { __asm__ volatile("int3; ud2; hlt"); }
void f13(void) { __asm__ volatile("int $0x80" ::: "memory"); }
void f14(void) { __asm__ volatile("endbr64; nop; nopl (%rax); nopw 0(%rax,%rax,1); xchgw %ax,%ax"); }
void f15(void *p) { __asm__ volatile("xsave (%0); xrstor (%0)" : : "r"(p), "a"(-1), "d"(-1) : "memory"); }
void f16(void) { __asm__ volatile("fninit; fwait; emms; clc; stc; cmc"); }
unsigned f17(void) { unsigned r; __asm__ volatile("rdpid %q0" : "=r"(r)); return r; }
void f18(long *p) { __asm__ volatile("movbeq %0, %%rax; movbe %%eax, 8%0; movnti %%eax, 16%0" : "+m"(*p) : : "rax"); }
long f19(void) { long r; __asm__("movq %%fs:0, %0; movl %%fs:16, %%eax; movabsq $0x1234567890, %0; movq %%gs:(%0), %0" : "=r"(r) : : "rax"); return r; }
void f20(void) { __asm__ volatile("lock orl $0, (%rsp); mfence; lfence; sfence"); }
