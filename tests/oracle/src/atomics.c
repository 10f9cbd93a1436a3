/* __atomic and __sync builtins: lock-prefixed RMW, xchg, cmpxchg, xadd. */
#include <stdint.h>
int a32; long a64; short a16; char a8; __int128 a128;
int f1(int v) { return __atomic_fetch_add(&a32, v, __ATOMIC_SEQ_CST); }
long f2(long v) { return __atomic_add_fetch(&a64, v, __ATOMIC_SEQ_CST); }
int f3(int v) { return __atomic_exchange_n(&a32, v, __ATOMIC_SEQ_CST); }
int f4(int e, int v) { return __atomic_compare_exchange_n(&a32, &e, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
long f5(long v) { return __sync_fetch_and_or(&a64, v); }
long f6(long v) { return __sync_and_and_fetch(&a64, v); }
short f7(short v) { return __sync_fetch_and_sub(&a16, v); }
char f8(char v) { return __sync_lock_test_and_set(&a8, v); }
void f9(void) { __sync_synchronize(); }
void f10(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
int f11(void) { return __atomic_load_n(&a32, __ATOMIC_ACQUIRE); }
void f12(int v) { __atomic_store_n(&a32, v, __ATOMIC_SEQ_CST); }
long f13(long o, long n) { return __sync_val_compare_and_swap(&a64, o, n); }
void f14(void) { __atomic_fetch_xor(&a32, 5, __ATOMIC_RELAXED); }
void f15(void) { __atomic_fetch_and(&a8, 3, __ATOMIC_RELAXED); }
int f16(void) { return __atomic_fetch_or(&a32, 4, __ATOMIC_SEQ_CST) & 4; }
void f17(void) { __atomic_fetch_add(&a64, 1, __ATOMIC_RELAXED); }
void f18(void) { __atomic_fetch_sub(&a16, 1, __ATOMIC_RELAXED); }
int f19(int *p) { return __sync_bool_compare_and_swap(p, 0, 1); }
void f20(void) { __sync_lock_release(&a8); }
__int128 f21(__int128 o, __int128 n) { __atomic_compare_exchange_n(&a128, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return o; }
long f22(long *p) { long r; __asm__ volatile("lock xaddq %0, %1" : "=r"(r), "+m"(*p) : "0"(1L)); return r; }
void f23(long *p) { __asm__ volatile("lock incq %0; lock decl %1; lock notq %0; lock negl %1" : "+m"(*p), "+m"(a32)); }
int f24(long *p) { unsigned char c; __asm__ volatile("lock btsq $3, %0; setc %1" : "+m"(*p), "=r"(c) :: "cc"); return c; }
void f25(long *p, long v) { __asm__ volatile("xchgq %1, %0" : "+m"(*p), "+r"(v)); }
void f26(long *p) { __asm__ volatile("lock cmpxchg8b %0" : "+m"(*p) : "a"(0), "d"(0), "b"(1), "c"(0) : "cc"); }
