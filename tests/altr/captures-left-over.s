A rule whose code uses ${c1} without a regex of its own sees the captures
of the last regex that matched in the rules before it, even in a rule that
did not apply (docs/rules.md).  Here grab's op1 regex matches and its
mnemonic test fails: use still sees grab's capture.  (altr skips a rule's
regexes when a cheap conjunct such as the mnemonic test fails, but not
when a rule could see what they would have captured.)
# @rules
rule grab { match op1 =~ /^%(r..)$/ && mnemonic =~ /^nosuch$/ }
rule use { match load
  before { # ${c1} }
}
# @args --no-iot
# @input
	.text
	addq %rcx, (%rax)
	movq %rdx, %rsi
	addq %rdx, (%rdi)
# @expect
	.text
	# rcx
	addq %rcx, (%rax)
	movq %rdx, %rsi
	# rdx
	addq %rdx, (%rdi)
