Without --strict an unknown instruction passes through unchanged, with a
warning naming the file and line.
# @rules
rule r { match load
  before { nop } }
# @args --no-iot
# @input
	.text
	frobnicate %rax, (%rbx)
	movq (%rax), %rax
# @expect
	.text
	frobnicate %rax, (%rbx)
	nop
	movq (%rax), %rax
# @expect-stderr
altr:input.s:2: warning: unknown instruction 'frobnicate %rax, (%rbx)' passed through uninstrumented
