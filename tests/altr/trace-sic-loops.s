trace.rules counts a loop's backward branch (before its fused flag
setter), not a backward branch to an exit block that cannot reach it.
# @rules-file trace.rules
# @input
	.text
	.type	f, @function
f:
	jmp	.L3
.L1:
	setb	%al
	ret
.L3:
	cmpl	%esi, %edi
	jne	.L1
	addl	$1, %edi
	cmpl	$9, %edi
	jle	.L3
	movl	$1, %eax
	ret
	.size	f, .-f
# @expect
	.text
	.type	f, @function
f:
.LRb1:
	.LR1_1:
	movb $1, .LR1_0(%rip)
	.pushsection rdb_ran,"awR",@progbits
	.LR1_0: .byte 0
	.popsection
	.pushsection rdb_ranmap,"aR",@progbits
	.balign 4
	.long .LR1_1-., .LR1_0-.
	.popsection
	jmp	.L3
.LRe1:
.L1:
	setb	%al
	ret
.L3:
	cmpl	%esi, %edi
	jne	.L1
	addl	$1, %edi
.LRb2:
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
	cmpl	$9, %edi
.LRe2:
	jle	.L3
	movl	$1, %eax
	ret
	.size	f, .-f
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .LRb1-.
	.long .LRe1-.LRb1,1
	.quad .LRb2-.
	.long .LRe2-.LRb2,1
