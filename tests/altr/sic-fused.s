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
.Lrdb_iot_b1:
	lea 1(%r15), %r15
	cmpl $10, %eax
.Lrdb_iot_e1:
	jne .L1
.L2:
.Lrdb_iot_b2:
	lea 1(%r15), %r15
	subq $1, %rcx
.Lrdb_iot_e2:
	.loc 1 7 3
	jnz .L2
.L3:
	testl %eax, %eax
.L4:
.Lrdb_iot_b3:
	lea 1(%r15), %r15
	jle .L3
.Lrdb_iot_e3:
	cmpq %r12, %rax
.Lrdb_iot_b4:
	lea 1(%r15), %r15
	jb .L4
.Lrdb_iot_e4:
	decl %edx
	.p2align 4
.Lrdb_iot_b5:
	lea 1(%r15), %r15
	jne .L4
.Lrdb_iot_e5:
.Lrdb_iot_b6:
	lea 1(%r15), %r15
	loop .L1
.Lrdb_iot_e6:
	addss %xmm0, %xmm1
.Lrdb_iot_b7:
	lea 1(%r15), %r15
	jp .L1
.Lrdb_iot_e7:
	cmpl $3, %eax
	je .L5
.L5:
	ret
	.size f, .-f
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .Lrdb_iot_b1 - .
	.long .Lrdb_iot_e1 - .Lrdb_iot_b1
	.long 1
	.quad .Lrdb_iot_b2 - .
	.long .Lrdb_iot_e2 - .Lrdb_iot_b2
	.long 1
	.quad .Lrdb_iot_b3 - .
	.long .Lrdb_iot_e3 - .Lrdb_iot_b3
	.long 0
	.quad .Lrdb_iot_b4 - .
	.long .Lrdb_iot_e4 - .Lrdb_iot_b4
	.long 0
	.quad .Lrdb_iot_b5 - .
	.long .Lrdb_iot_e5 - .Lrdb_iot_b5
	.long 0
	.quad .Lrdb_iot_b6 - .
	.long .Lrdb_iot_e6 - .Lrdb_iot_b6
	.long 0
	.quad .Lrdb_iot_b7 - .
	.long .Lrdb_iot_e7 - .Lrdb_iot_b7
	.long 0
