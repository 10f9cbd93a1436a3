trace.rules and rdb's reserved registers: an instruction naming %r12 gets
no hook (the counter still counts a call); one writing %r13-%r15 gets an
.error the assembler stops on, since every hook depends on them; reading
%r15 (the SIC) is allowed.
# @rules-file trace.rules
# @args --no-iot
# @input
	.text
g:
	call *(%rax,%r12,8)
	movq (%rdi,%r12), %rax
	mov %rsi, %r14
	movq %r15, %rax
	movq (%rdi), %rax
	ret
# @expect
	.text
g:
	.LR1_1:
	movb $1, .LR1_0(%rip)
	.pushsection rdb_ran,"awR",@progbits
	.LR1_0: .byte 0
	.popsection
	.pushsection rdb_ranmap,"aR",@progbits
	.balign 4
	.long .LR1_1-., .LR1_0-.
	.popsection
	lea 1(%r15), %r15
	call *(%rax,%r12,8)
	movq (%rdi,%r12), %rax
	.error "rdb: this instruction writes %r13, %r14 or %r15, which rdb reserves (docs/hooks.md)"
	mov %rsi, %r14
	movq %r15, %rax
.LRlb0:
	cmpq %r13, 0(%rdi,%r14)
	jne .LR8_0
	.LR8_1:
	.pushsection .text.unlikely.rdb_hooks
	.LR8_0:
	movq %r13, 0(%rdi,%r14)
	cmp %r13, %r13
	jmp .LR8_1
	.popsection
.LRle0:
	movq (%rdi), %rax
	ret
	.section rdb_hooks_rc,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
