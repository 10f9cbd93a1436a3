The shipped trace.rules on the access forms of docs/hooks.md: a read with a
base register (one store), an indexed read (lea first), a %rip-relative
write and a write with flags live (each one flag-free store to the S plane),
an %rsp-based access (not hooked), a TLS read, and a syscall.
# @rules-file trace.rules
# @args --no-iot
# @input
	.text
	.type	f, @function
f:
	.cfi_startproc
	movl	8(%rdi), %eax
	movq	(%rdi,%rsi,8), %rdx
	movq	%rdx, x(%rip)
	cmpl	$1, %eax
	movb	%al, 3(%rdi)
	je	.L1
	movq	8(%rsp), %rcx
	movl	%fs:y@tpoff, %ecx
	syscall
.L1:
	ret
	.cfi_endproc
	.size	f, .-f
# @expect
	.text
	.type	f, @function
f:
	.cfi_startproc
	movl %r13d, 8(%rdi,%r14)
	movl	8(%rdi), %eax
	lea (%rdi,%rsi,8), %r12
	movq %r13, (%r12,%r14)
	movq	(%rdi,%rsi,8), %rdx
	movq %r13, %gs:x(%rip)
	movq	%rdx, x(%rip)
	cmpl	$1, %eax
	movb %r13b, %gs:3(%rdi)
	movb	%al, 3(%rdi)
	je	.L1
	movq	8(%rsp), %rcx
	lea y@tpoff, %r12
	add %fs:0, %r12
	movl %r13d, (%r12,%r14)
	movl	%fs:y@tpoff, %ecx
	call __rdb_syscall
.L1:
	ret
	.cfi_endproc
	.size	f, .-f
