/* asm-macros.h: assembler macros shared by the runtime's .S files. */
#ifndef RDB_ASM_MACROS_H
#define RDB_ASM_MACROS_H

/* Pushes each register, keeping the CFA offset right for unwinding. */
.macro PUSH_CFI regs:vararg
	.irp r, \regs
	push \r
	.cfi_adjust_cfa_offset 8
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

#endif
