/* asm-macros.h: assembler macros shared by the runtime's .S files. */
#ifndef RDB_ASM_MACROS_H
#define RDB_ASM_MACROS_H

/* Starts NAME, a function the runtime's other files call (.hidden: nothing
 * outside the static-pie image binds to it, so no PLT or GOT entry). */
.macro FUNC name
	.globl \name
	.hidden \name
	.type \name,@function
\name:
.endm

/* Makes labels inside a function visible to the runtime's C files (the pc
 * ranges signal.c tells an interrupted call or copy by), hidden likewise. */
.macro LABELS names:vararg
	.globl \names
	.hidden \names
.endm

/* Pushes each register, keeping the CFA offset right for unwinding. */
.macro PUSH_CFI regs:vararg
	.irp r, \regs
	push \r
	.cfi_adjust_cfa_offset 8
	.endr
.endm

/* PUSH_CFI's inverse: pops the registers in the order given. */
.macro POP_CFI regs:vararg
	.irp r, \regs
	pop \r
	.cfi_adjust_cfa_offset -8
	.endr
.endm

/* Zeroes the call-clobbered registers C code leaves values in (%rcx,
 * %rdx, %rsi, %rdi, %r8-%r11): record and replay take different paths
 * through the runtime, and what those leave would differ at the next
 * boundary's register compare (--verify). */
.macro CLEAR_SCRATCH
	.irp r, ecx, edx, esi, edi, r8d, r9d, r10d, r11d
	xor %\r, %\r
	.endr
.endm

/* \reg = the running thread's struct rdb_thread (rt.h rdb_th_slot), from
 * %r15.  Clobbers \tmp and the flags. */
.macro THREAD_PTR reg, tmp
	mov %r15, \reg
	movabs $RDB_SIC_WIN, \tmp
	sub \tmp, \reg
	shr $RDB_SIC_SHIFT, \reg
	cmp $RDB_THREAD_MAX, \reg
	jb 2f
	xor \reg, \reg
2:	shl $RDB_THREAD_SHIFT, \reg
	movabs $RDB_THREAD_ADDR, \tmp
	add \tmp, \reg
.endm

/* Moves %rsp to the top of the thread's syscall stack, 16-byte aligned,
 * unless calls nest there (a handler interrupted the runtime's part of a
 * call, unrecorded) or %rsp is on it already: the runtime's C code never
 * runs below the program's %rsp (layout.h).  Clobbers %rcx and %r11. */
.macro ON_SCSTACK
	THREAD_PTR %rcx, %r11
	cmpq $0, RDB_TH_SC_NEST(%rcx)
	jne 1f
	mov %rsp, %r11
	sub RDB_TH_SC_LO(%rcx), %r11
	cmp $RDB_SCSTACK_SIZE, %r11
	jb 1f
	mov RDB_TH_SC_LO(%rcx), %rsp
	add $RDB_SCSTACK_SIZE, %rsp
1:	and $-16, %rsp
.endm

#endif
