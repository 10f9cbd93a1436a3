A macro that invokes itself without end: altr stops at 100 nested
expansions and passes the file through unexpanded (gas reports it).
# @rules-file identity.rules
# @input
	.macro	r
	nop
	r
	.endm
	r
# @expect
	.macro	r
	nop
	r
	.endm
	r
# @expect-stderr
altr:input.s:5:2: warning: macros or repeats nested more than 100 deep; macros and repeats in this file are not expanded
