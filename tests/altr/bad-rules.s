A malformed rules file: altr:FILE:LINE:COL: message, exit 1, no output.
# @rules
rule r {
    match load &&
}
# @input
	.text
	movq (%rax), %rax
# @expect-exit 1
# @expect-stderr
altr:rules.rules:3:
