# .rept with literal and arithmetic counts, nested, on one line, with
# labels, local numeric labels and a load in the body; symbols set before.
	.text
	.globl	f
	.type	f, @function
f:
	.rept 3
	movq	(%rdi), %rax
	addq	$8, %rdi
	.endr
	.REPT 2*3-4
	incl	%eax
	.endr
	.rept 2; nop; .endr; nop
N = 2
	.set M, N+1
	.rept N*M
1:	decl	%ecx
	jnz	1b
	.endr
	.rept 2
	.rept 2
	movl	4(%rsi), %edx
	.endr
	.endr
	.rept 0
	ud2
	.endr
	.rept (1+1)<<1 /* four */
	xorl	%eax, %eax # comment .endr
	.endr
	ret
	.size	f, .-f
	.data
	.rept 3
	.byte 1, 2
	.endr
	.section .rodata
	.rept 2
	.long	0x12345678
	.endr
