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
.Laltr_lb0:
	cmpl %r13d, 8(%rdi,%r14)
	jne .Laltr1_0
	.Laltr1_1:
	.pushsection .text.unlikely.rdb_hooks, "ax", @progbits
	.Laltr1_0:
	movl %r13d, 8(%rdi,%r14)
	cmp %r13, %r13
	jmp .Laltr1_1
	.popsection
.Laltr_le0:
	movl	8(%rdi), %eax
.Laltr_lb1:
	cmpl %r13d, 8(%rdi,%r14)
	jne .Laltr2_0
	.Laltr2_1:
	.pushsection .text.unlikely.rdb_hooks, "ax", @progbits
	.Laltr2_0:
	movl %r13d, 8(%rdi,%r14)
	cmp %r13, %r13
	jmp .Laltr2_1
	.popsection
.Laltr_le1:
	movl	8(%rdi), %eax
.Laltr_lb2:
	cmpl %r13d, 0(%rsi,%r14)
	jne .Laltr3_0
	.Laltr3_1:
	.pushsection .text.unlikely.rdb_hooks, "ax", @progbits
	.Laltr3_0:
	movl %r13d, 0(%rsi,%r14)
	cmp %r13, %r13
	jmp .Laltr3_1
	.popsection
.Laltr_le2:
	movl	(%rsi), %eax
	ret
	.size	f, .-f
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .Laltr_lb0 - ., .Laltr_le0 - .Laltr_lb0
	.long .Laltr_lb1 - ., .Laltr_le1 - .Laltr_lb1
	.long .Laltr_lb2 - ., .Laltr_le2 - .Laltr_lb2
