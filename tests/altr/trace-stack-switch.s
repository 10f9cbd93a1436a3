trace.rules on instructions that load %rsp: a load from elsewhere (longjmp,
a coroutine switch) calls __rdb_stack_switch with the new %rsp in %r12,
computed before the call, and a load from memory keeps its read hook;
%rbp frame restores, %rsp adjustments and leave are not switches.
# @rules-file trace.rules
# @args --no-iot
# @input
	.text
f:
	movq 48(%rdi), %rsp
	mov %rdi, %rsp
	lea -16(%r10), %rsp
	lea -16(%rbp), %rsp
	movq %rbp, %rsp
	leaq 8(%rsp), %rsp
	leave
	ret
# @expect
	.text
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
	movq 48(%rdi), %r12
	call __rdb_stack_switch
.LRlb0:
	cmpq %r13, 48(%rdi,%r14)
	jne .LR3_0
	.LR3_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR3_0:
	movq %r13, 48(%rdi,%r14)
	cmp %r13, %r13
	jmp .LR3_1
	.popsection
.LRle0:
	movq 48(%rdi), %rsp
	movq %rdi, %r12
	call __rdb_stack_switch
	mov %rdi, %rsp
	lea -16(%r10), %r12
	call __rdb_stack_switch
	lea -16(%r10), %rsp
	lea -16(%rbp), %rsp
	movq %rbp, %rsp
	leaq 8(%rsp), %rsp
	leave
	ret
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
