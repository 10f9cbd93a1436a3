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

#endif
