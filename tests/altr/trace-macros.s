Loads made by .rept and by a macro invocation are read, hooked and listed
like any other (altr expands .macro/.rept/.irp/.irpc before reading; the
expansion's lines replace the definition and the block).
# @rules-file trace.rules
# @args --no-iot
# @input
	.macro	ld2 reg
	movl	(\reg), %eax
	.endm
	.text
	.type	f, @function
f:
	.rept	2
	movl	8(%rdi), %eax
	.endr
	ld2	%rsi
	ret
	.size	f, .-f
# @expect
	.text
	.type	f, @function
f:
	.LR1_1:
	movb $1, .LR1_0(%rip)
	.pushsection rdb_ran,"awR",@progbits
	.LR1_0: .byte 0
	.popsection
	.pushsection rdb_ranmap,"aR",@progbits
	.balign 4
	.long .LR1_1-., .LR1_0-.
	.popsection
.LRlb0:
	cmpl %r13d, 8(%rdi,%r14)
	jne .LR2_0
	.LR2_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR2_0:
	movl %r13d, 8(%rdi,%r14)
	cmp %r13, %r13
	jmp .LR2_1
	.popsection
.LRle0:
	movl	8(%rdi), %eax
.LRlb1:
	cmpl %r13d, 8(%rdi,%r14)
	jne .LR3_0
	.LR3_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR3_0:
	movl %r13d, 8(%rdi,%r14)
	cmp %r13, %r13
	jmp .LR3_1
	.popsection
.LRle1:
	movl	8(%rdi), %eax
.LRlb2:
	cmpl %r13d, 0(%rsi,%r14)
	jne .LR4_0
	.LR4_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR4_0:
	movl %r13d, 0(%rsi,%r14)
	cmp %r13, %r13
	jmp .LR4_1
	.popsection
.LRle2:
	movl	(%rsi), %eax
	ret
	.size	f, .-f
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
	.long .LRlb1-.,.LRle1-.LRlb1
	.long .LRlb2-.,.LRle2-.LRlb2
