Prefixes, segment overrides, indirect operands and string instructions pass
through unchanged under the identity rules.
# @rules-file identity.rules
# @input
	.text
g:
	lock addl $1, (%rdi)
	lock; cmpxchgq %rsi, 8(%rdi)
	xchgq %rax, (%rdx)
	rep movsb
	rep stosq
	repne scasb
	repz cmpsb
	rep; movsl
	notrack jmp *%rax
	data16 nop
	movq %fs:0, %rax
	movl %fs:x@tpoff, %ecx
	movq %gs:16(%rbx,%rcx,8), %rdx
	call *(%rax)
	jmp *.Ltab(,%rdi,8)
	leaq x(%rip), %rsi
	pushq (%rsp)
	popq 8(%rdi)
	ret $8
	.section	.rodata
.Ltab:	.quad	g, g
	.section	.tbss,"awT",@nobits
x:	.zero	8
# @expect
	.text
g:
	lock addl $1, (%rdi)
	lock; cmpxchgq %rsi, 8(%rdi)
	xchgq %rax, (%rdx)
	rep movsb
	rep stosq
	repne scasb
	repz cmpsb
	rep; movsl
	notrack jmp *%rax
	data16 nop
	movq %fs:0, %rax
	movl %fs:x@tpoff, %ecx
	movq %gs:16(%rbx,%rcx,8), %rdx
	call *(%rax)
	jmp *.Ltab(,%rdi,8)
	leaq x(%rip), %rsi
	pushq (%rsp)
	popq 8(%rdi)
	ret $8
	.section	.rodata
.Ltab:	.quad	g, g
	.section	.tbss,"awT",@nobits
x:	.zero	8
