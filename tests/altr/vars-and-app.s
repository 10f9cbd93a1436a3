Rule variables (var, overridden with -D), in_app facts, regex captures
and the sized substitutions ${sfx} and ${sreg:REG}.
# @rules
var TAG = "file"
var OTHER = "kept"
rule app { match in_app && mnemonic =~ /^(mov)([bwlq])$/
  before { # ${TAG} ${OTHER} ${c1}-${c2} ${sfx} ${sreg:r13} ${size} }
}
# @args --no-iot -D TAG=cmdline
# @input
	.text
	movl (%rax), %ebx
#APP
# 5 "x.c" 1
	movw (%rax), %bx
	movb %bl, (%rcx)
# 0 "" 2
#NO_APP
# @expect
	.text
	movl (%rax), %ebx
#APP
# 5 "x.c" 1
	# cmdline kept mov-w w %r13w 2
	movw (%rax), %bx
	# cmdline kept mov-b b %r13b 1
	movb %bl, (%rcx)
# 0 "" 2
#NO_APP
