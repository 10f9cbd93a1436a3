/* start.S: the program's entry point (paper Fig. 19).  The kernel enters
 * here with %rsp at argc/argv/envp/auxv.  __rdb_start (runtime/start.c)
 * maps the shadow planes and the runtime state,
 * and returns the SIC's first value (replay from an interval never
 * returns: it enters the program where the interval starts);
 * then the reserved registers get their values (docs/hooks.md) and musl's
 * own _start (renamed __musl_start) runs with the stack as the kernel
 * left it: its static-pie self-relocation is instrumented code, so the
 * planes must exist first.  __rdb_start runs on the runtime's syscall
 * stack, mapped here: it takes other paths in record and replay, and what
 * it left below the program's %rsp would differ between them (the
 * program's uninitialised locals read that memory; runtime/layout.h). */
#include "layout.h"
#include "asm-macros.h"

	.text
	.globl _start
	.type _start,@function
_start:
	.cfi_startproc
	.cfi_undefined %rip
	xor %ebp, %ebp
	mov %rsp, %rbx			/* callee-saved: survives the call */
	mov $9, %eax			/* mmap */
	movabs $RDB_SCSTACK_ADDR, %rdi
	mov $RDB_SCSTACK_SIZE, %esi
	mov $3, %edx			/* PROT_READ | PROT_WRITE */
	/* MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE */
	mov $(0x02 | 0x20 | 0x4000 | 0x100000), %r10d
	mov $-1, %r8
	xor %r9d, %r9d
	syscall
	cmp %rax, %rdi
	jne 1f				/* __rdb_start says why (start.c) */
	movabs $(RDB_SCSTACK_ADDR + RDB_SCSTACK_SIZE), %rsp
1:	mov %rbx, %rdi
	and $-16, %rsp
	call __rdb_start
	mov %rbx, %rsp
	xor %ebx, %ebx			/* as the kernel left it */
	movabs $RDB_R_CONST, %r13
	movabs $-RDB_R_OFFSET, %r14
	mov %rax, %r15			/* the SIC: __rdb_start says where it starts */
	xor %r12d, %r12d
	/* The scratch registers too: __rdb_start takes other paths in record
	 * and replay, and what it leaves in them would reach the first
	 * boundary's registers (--verify compares them) if the program has
	 * not written them by then. */
	xor %eax, %eax
	CLEAR_SCRATCH
	jmp __musl_start
	.cfi_endproc
	.size _start, .-_start

	.section .note.GNU-stack,"",@progbits
