	.file	"inline.c"
	.text
#APP
	.macro ld8 dst, src
	movq \src, \dst
.endm
#NO_APP
	.p2align 4
	.globl	sum
	.type	sum, @function
sum:
.LFB0:
	.cfi_startproc
	xorl	%eax, %eax
#APP
# 7 "inline.c" 1
	.rept 4
	addq (%rdi), %rax
	addq $8, %rdi
	.endr
# 0 "" 2
# 12 "inline.c" 1
	ld8 %rdi, 8(%rdi)
# 0 "" 2
#NO_APP
	addq	%rdi, %rax
	ret
	.cfi_endproc
.LFE0:
	.size	sum, .-sum
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
