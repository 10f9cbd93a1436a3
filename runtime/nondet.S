/* nondet.S: the helpers rules/trace.rules calls in place of rdtsc,
 * rdtscp, cpuid, rdrand and rdseed.  Each saves every general register and
 * the flags in one array on the stack, lets rdb_nondet (nondet.c) run (on
 * the runtime's stack),
 * record or replay the instruction by editing the array, and restores
 * them: outputs and flags (rdrand's CF) as the instruction leaves them,
 * everything else untouched.  rdrand/rdseed return their value in %r12. */
#include "layout.h"
#include "asm-macros.h"

.macro ND name, kind
	FUNC __rdb_nd_\name
	.cfi_startproc
	pushfq
	.cfi_adjust_cfa_offset 8
	PUSH_CFI %rax, %rbx, %rcx, %rdx, %rsi, %rdi, %rbp
	.cfi_rel_offset %rbp, 0
	PUSH_CFI %r8, %r9, %r10, %r11, %r12
	mov %rsp, %rbp			/* the array: r12 r11 r10 r9 r8 rbp rdi rsi rdx rcx rbx rax flags */
	.cfi_def_cfa_register %rbp
	mov $\kind, %edi
	mov %rsp, %rsi
	/* rdb_nondet runs on the runtime's syscall stack, as the syscall
	 * stub's dispatch does (but where a handler interrupted that): its
	 * frames differ between record and replay, and below the program's
	 * %rsp they would be what the program's next uninitialised slots
	 * hold (replay --verify hashes the live stack). */
	ON_SCSTACK
	cld
	call rdb_nondet
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	popfq
	ret
	.cfi_endproc
	.size __rdb_nd_\name, .-__rdb_nd_\name
.endm

	.text
	ND rdtsc, 1
	ND rdtscp, 2
	ND rdrand, 3
	ND rdseed, 4
	ND cpuid, 5

	.section .note.GNU-stack,"",@progbits
