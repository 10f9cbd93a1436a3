The shipped trace.rules on the access forms of docs/hooks.md: a read with a
base register and an indexed read (lea first), flags dead (a check: compare,
and a store out of line, in .text.unlikely.rdb_hooks, only when the bytes
are not all marked; flags left as by an equal compare), a read with flags
live (one flag-free store), a %rip-relative write and a write with flags
live (each one flag-free store to the S plane), an %rsp-based access (not
hooked), a TLS read, and a syscall.  The hooks are listed for replay
(rdb_hooks_rc, rdb_hooks_r, rdb_hooks_w), but for the TLS read's: it
clobbers the flags, which are dead there, so replay keeps it.
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
	movl	4(%rdi), %ecx
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
	lea (%rdi,%rsi,8), %r12
	cmpq %r13, (%r12,%r14)
	jne .LR3_0
	.LR3_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR3_0:
	movq %r13, (%r12,%r14)
	cmp %r13, %r13
	jmp .LR3_1
	.popsection
.LRle1:
	movq	(%rdi,%rsi,8), %rdx
.LRlb2:
	lea x(%rip), %r12
	movq %r13, (%r12,%r14,2)
.LRle2:
	movq	%rdx, x(%rip)
	cmpl	$1, %eax
.LRlb3:
	movb %r13b, 3(%rdi,%r14,2)
.LRle3:
	movb	%al, 3(%rdi)
.LRlb4:
	movl %r13d, 4(%rdi,%r14)
.LRle4:
	movl	4(%rdi), %ecx
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
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
	.long .LRlb1-.,.LRle1-.LRlb1
	.section rdb_hooks_w,"aR",@progbits
	.balign 4
	.long .LRlb2-.,.LRle2-.LRlb2
	.long .LRlb3-.,.LRle3-.LRlb3
	.section rdb_hooks_r,"aR",@progbits
	.balign 4
	.long .LRlb4-.,.LRle4-.LRlb4
