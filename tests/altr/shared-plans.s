Jumps to different labels whose rules cannot see the label share one
plan (emit.c, struct shape); each still gets its own code, as if each had
its own plan.  Calls, whose op1 a rule reads, do not share.
# @rules
rule blind-fails {
    match uncond_branch && insn =~ /%r12|,/
    before { # blind-fails }
}
rule blind {
    match uncond_branch || (call && !(op1 =~ /^__tls_get_addr/))
    before { lea 1(%r15), %r15 }
}
# @args --no-iot
# @input
	.text
	.type	f, @function
f:
	jmp	.L1
	jmp	.L2
	call	g
	call	__tls_get_addr
	jne	.L1
	jmp .L2
	jmp	.L3
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
	lea 1(%r15), %r15
	jmp	.L1
	lea 1(%r15), %r15
	jmp	.L2
	lea 1(%r15), %r15
	call	g
	call	__tls_get_addr
	jne	.L1
	lea 1(%r15), %r15
	jmp .L2
	lea 1(%r15), %r15
	jmp	.L3
.L1:
	lea 1(%r15), %r15
	jmp	.L4
.L2:
	jne	.L4
.L3:
	ret
.L4:
	ret
	.size	f, .-f
