Rules that can see a jump's label: a literal across mnemonic and label,
a regex on op1 that only a label matches, ${0} and ${1} in the code, a
whole-text regex naming a label.  No plan is shared (emit.c, struct
shape): each jump gets what its own label makes.
# @rules
rule straddle {
    match insn =~ /jmp	\.L3/
    before { # straddle }
}
rule one-label {
    match branch && op1 =~ /^\.L1$/
    before { # one-label ${1} }
}
rule stmt {
    match cond_branch
    after { # stmt ${0} }
}
rule blind-fails {
    match uncond_branch && insn =~ /%r12|,/
    before { # blind-fails }
}
rule blind {
    match uncond_branch
    before { lea 1(%r15), %r15 }
}
rule whole {
    match uncond_branch && insn =~ /^jmp	\.L2$/
    before { # whole }
}
# @args --no-iot
# @input
	.text
	.type	f, @function
f:
	jmp	.L1
	jmp	.L2
	jmp	.L3
	jne	.L1
	jne	.L2
	jmp .L2
.L1:
	jmp	.L4
.L2:
	jne	.L4
.L3:
	ret
.L4:
	ret
	.size	f, .-f
# @expect
	.text
	.type	f, @function
f:
	# one-label .L1
	lea 1(%r15), %r15
	jmp	.L1
	lea 1(%r15), %r15
	# whole
	jmp	.L2
	# straddle
	lea 1(%r15), %r15
	jmp	.L3
	# one-label .L1
	jne	.L1
	# stmt jne	.L1
	jne	.L2
	# stmt jne	.L2
	lea 1(%r15), %r15
	jmp .L2
.L1:
	lea 1(%r15), %r15
	jmp	.L4
.L2:
	jne	.L4
	# stmt jne	.L4
.L3:
	ret
.L4:
	ret
	.size	f, .-f
