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
.Laltr_lb0:
	cmpq %r13, 8(%rax,%r14)
	jne .Laltr1_0
	.Laltr1_1:
	.pushsection .text.unlikely.rdb_hooks, "ax", @progbits
	.Laltr1_0:
	movq %r13, 8(%rax,%r14)
	cmp %r13, %r13
	jmp .Laltr1_1
	.popsection
.Laltr_le0:
	pushq 8(%rax)
.Laltr_lb1:
	movq %r13, %gs:16(%rbx)
.Laltr_le1:
	popq 16(%rbx)
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
.Laltr_lb2:
	cmpq %r13, 24(%rcx,%r14)
	jne .Laltr4_0
	.Laltr4_1:
	.pushsection .text.unlikely.rdb_hooks, "ax", @progbits
	.Laltr4_0:
	movq %r13, 24(%rcx,%r14)
	cmp %r13, %r13
	jmp .Laltr4_1
	.popsection
.Laltr_le2:
	call *24(%rcx)
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
.Laltr_lb3:
	movq %r13, 0(%rdx,%r14)
.Laltr_le3:
	jmp *(%rdx)
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .Laltr_lb0 - ., .Laltr_le0 - .Laltr_lb0
	.long .Laltr_lb2 - ., .Laltr_le2 - .Laltr_lb2
	.section rdb_hooks_w,"aR",@progbits
	.balign 4
	.long .Laltr_lb1 - ., .Laltr_le1 - .Laltr_lb1
	.section rdb_hooks_r,"aR",@progbits
	.balign 4
	.long .Laltr_lb3 - ., .Laltr_le3 - .Laltr_lb3
