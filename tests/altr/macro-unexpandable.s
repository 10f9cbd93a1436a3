A .rept count altr cannot evaluate (a label difference: gas knows it only
when assembling) keeps the old behaviour: the file passes through
unexpanded, its bodies uninstrumented, with warnings.  So do .altmacro
and runaway recursion (see macro-recursion.s).
# @rules-file trace.rules
# @args --no-iot
# @input
	.text
a:	nop
b:
	.rept	b-a
	movl	(%rdi), %eax
	.endr
# @expect
	.text
a:
	.LR1_1:
	movb $1, .LR1_0(%rip)
	.pushsection rdb_ran,"awR",@progbits
	.LR1_0: .byte 0
	.popsection
	.pushsection rdb_ranmap,"aR",@progbits
	.balign 4
	.long .LR1_1-., .LR1_0-.
	.popsection
	nop
b:
	.rept	b-a
	movl	(%rdi), %eax
	.endr
# @expect-stderr
altr:input.s:4:2: warning: cannot evaluate the .rept count 'b-a'; macros and repeats in this file are not expanded
altr:input.s:4: warning: macro/repeat body passed through uninstrumented
