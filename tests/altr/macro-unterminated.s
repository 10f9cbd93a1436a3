A .macro without its .endm: a warning naming the place, and the file
passes through unexpanded (gas will reject it), as before expansion.
# @rules-file identity.rules
# @input
	.text
	nop
	.macro	m a
	movl	\a, %eax
# @expect
	.text
	nop
	.macro	m a
	movl	\a, %eax
# @expect-stderr
altr:input.s:3:2: warning: .macro without .endm; macros and repeats in this file are not expanded
altr:input.s:3: warning: macro/repeat body passed through uninstrumented
