# .irp and .irpc, with \SYM, \() and blanks, quoted values, nesting.
	.text
	.globl	g
g:
	.irp	reg, rbx, rbp, r12
	pushq	%\reg
	.endr
	.irp	reg r12 rbp rbx
	popq	%\reg
	.endr
	.irpc	n, 1248
	movq	\n(%rdi), %rax
	leaq	(%rdi,%rsi,\n), %rdx
	.endr
	.irp	off, 0, 8
	.irp	r, eax, ebx
	movl	\off(%rsi), %\r
	.endr
	.endr
	.irp	x
	movl	$1\x, %eax
	.endr
	ret
	.data
	.irp	s, "a b", c, "d"
	.ascii	"\s"
	.endr
	.irpc	c, "x y"
	.byte	'\c
	.endr
	.irp	v, 1, 2
	.byte	\v, \@
	.endr
