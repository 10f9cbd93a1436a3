trace.rules on instructions with an explicit memory operand and an implicit
stack access: push and call read their operand (the store is the stack's,
unhooked), pop writes its operand (the load is the stack's).  A write hook
on a pushed or called-through operand would tell flowback that the
function pointer was written by the call.
# @rules-file trace.rules
# @args --no-iot
# @input
	.text
h:
	pushq 8(%rax)
	popq 16(%rbx)
	call *24(%rcx)
	jmp *(%rdx)
# @expect
	.text
h:
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
	cmpq %r13, 8(%rax,%r14)
	jne .LR2_0
	.LR2_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR2_0:
	movq %r13, 8(%rax,%r14)
	cmp %r13, %r13
	jmp .LR2_1
	.popsection
.LRle0:
	pushq 8(%rax)
.LRlb1:
	movq %r13, 16(%rbx,%r14,2)
.LRle1:
	popq 16(%rbx)
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
.LRlb2:
	cmpq %r13, 24(%rcx,%r14)
	jne .LR5_0
	.LR5_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR5_0:
	movq %r13, 24(%rcx,%r14)
	cmp %r13, %r13
	jmp .LR5_1
	.popsection
.LRle2:
	call *24(%rcx)
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
.LRlb3:
	movq %r13, 0(%rdx,%r14)
.LRle3:
	jmp *(%rdx)
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
	.long .LRlb2-.,.LRle2-.LRlb2
	.section rdb_hooks_w,"aR",@progbits
	.balign 4
	.long .LRlb1-.,.LRle1-.LRlb1
	.section rdb_hooks_r,"aR",@progbits
	.balign 4
	.long .LRlb3-.,.LRle3-.LRlb3
