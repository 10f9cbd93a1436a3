An .endm or .endr with nothing to end: a warning naming the place; the
file passes through unexpanded.
# @rules-file identity.rules
# @input
	.rept	2
	nop
	.endr
	.endr
	.endm
# @expect
	.rept	2
	nop
	.endr
	.endr
	.endm
# @expect-stderr
altr:input.s:4:2: warning: .endr without .rept, .irp or .irpc; macros and repeats in this file are not expanded
