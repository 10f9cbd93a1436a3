# .macro with positional, keyword, default, :req and :vararg arguments,
# \@ labels, \() separators, .exitm, .purgem, macros defining and
# invoking macros, .rept inside a macro and a macro inside .rept, .if
# inside a body (left to gas).
	.macro	LOAD dst, src=(%rdi), off=0
	leaq	\off(%rdi), %r8
	movq	\src, %\dst
	.endm
	.macro	SUM dst:req, regs:vararg
	xorl	%\dst, %\dst
	.irp	r, \regs
	addl	%\r, %\dst
	.endr
	.endm
	.macro	LOOP n, body
.Lloop\@:
	\body
	decl	%ecx
	jnz	.Lloop\@
	.endm
	.macro	twice what
	\what
	\what
	.endm
	.macro	defm name, insn
	.macro	\name
	\insn
	.endm
	.endm
	.macro	early x
	movl	$\x, %eax
	.exitm
	movl	$99, %eax
	.endm
	.macro	cond x
	.if	\x > 1
	movl	4(%rbx), %eax
	.else
	movl	8(%rbx), %eax
	.endif
	.endm
	.macro	reps n
	.rept	\n
	movq	(%rsi), %r8
	.endr
	.endm
	.macro	num
1:	incl	%eax
	cmpl	$10, %eax
	jb	1b
	.endm

	.text
	.globl	h
h:
	LOAD	rax
	LOAD	rbx, 8(%rdi)
	LOAD	rcx off=16
	load	src=(%rsi), dst=rdx
	LOAD	rdx, , 24
	SUM	eax, ebx, ecx, edx
	SUM	esi, edi
	LOOP	3, "movl (%rdx), %eax"
	LOOP	3, nop
	twice	"movl 4(%rdi), %eax"
	defm	getit, "movq (%r9), %r10"
	getit
	getit
	.purgem	getit
	defm	getit, "movq 8(%r9), %r10"
	getit
	early	5
	cond	1
	cond	2
	reps	2
	.rept	2
	LOAD	r11, (%rbp)
	num
	.endr
lbl:	LOAD	rax
	LOAD	rax; LOAD rbx, (%rcx)
	ret
	.data
	.macro	str s, t="dflt"
	.ascii	"\s-\t-\@"
	.endm
	str	abc
	str	"x y", "z"
	str	t=q s=r
	.macro	va first, rest:vararg
	.ascii	"\first|\rest"
	.endm
	va	1, 2 ,  3 , 4  5
	va	1  2  3
	.macro	amp v
	.byte	1&v, &v&0
	.endm
	amp	3
