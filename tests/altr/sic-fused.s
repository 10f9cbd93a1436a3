A backward conditional jump fused with the cmp/test/add/sub/and/inc/dec
before it (only .loc between, no label) gets code meant for it before
that flag setter instead (fused_branch, fuses_backward).  Not when a label
or another directive comes between, when the setter names %r12-%r15, for
a jump that reads no flags (loop), for a setter that does not fuse
(addss), nor for forward jumps.  The groups that end in a flag setter
have the IOT flag 1: no status flag is live before them.
# @rules
rule sic { match (backward && !fused_branch) || fuses_backward; before { lea 1(%r15), %r15 } }
# @input
	.text
	.type f, @function
f:
.L1:
	addl $1, %eax
	cmpl $10, %eax
	jne .L1
.L2:
	subq $1, %rcx
	.loc 1 7 3
	jnz .L2
.L3:
	testl %eax, %eax
.L4:
	jle .L3
	cmpq %r12, %rax
	jb .L4
	decl %edx
	.p2align 4
	jne .L4
	loop .L1
	addss %xmm0, %xmm1
	jp .L1
	cmpl $3, %eax
	je .L5
.L5:
	ret
	.size f, .-f
# @expect
	.text
	.type f, @function
f:
.L1:
	addl $1, %eax
.LRb1:
	lea 1(%r15), %r15
	cmpl $10, %eax
.LRe1:
	jne .L1
.L2:
.LRb2:
	lea 1(%r15), %r15
	subq $1, %rcx
.LRe2:
	.loc 1 7 3
	jnz .L2
.L3:
	testl %eax, %eax
.L4:
.LRb3:
	lea 1(%r15), %r15
	jle .L3
.LRe3:
	cmpq %r12, %rax
.LRb4:
	lea 1(%r15), %r15
	jb .L4
.LRe4:
	decl %edx
	.p2align 4
.LRb5:
	lea 1(%r15), %r15
	jne .L4
.LRe5:
.LRb6:
	lea 1(%r15), %r15
	loop .L1
.LRe6:
	addss %xmm0, %xmm1
.LRb7:
	lea 1(%r15), %r15
	jp .L1
.LRe7:
	cmpl $3, %eax
	je .L5
.L5:
	ret
	.size f, .-f
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .LRb1-.
	.long .LRe1-.LRb1,1
	.quad .LRb2-.
	.long .LRe2-.LRb2,1
	.quad .LRb3-.
	.long .LRe3-.LRb3,0
	.quad .LRb4-.
	.long .LRe4-.LRb4,0
	.quad .LRb5-.
	.long .LRe5-.LRb5,0
	.quad .LRb6-.
	.long .LRe6-.LRb6,0
	.quad .LRb7-.
	.long .LRe7-.LRb7,0
