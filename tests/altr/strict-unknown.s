An instruction altr does not know passes through with a warning; with
--strict it is an error: exit 1 and nothing written.
# @rules-file identity.rules
# @args --strict
# @input
	.text
	frobnicate %rax, (%rbx)
# @expect-exit 1
# @expect-stderr
altr:input.s:2: unknown instruction 'frobnicate %rax, (%rbx)'
