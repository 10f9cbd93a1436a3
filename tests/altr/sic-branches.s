The SIC rule of trace.rules: an increment before every backward branch,
call, indirect jump and tail jump; none before forward branches, returns
or jumps inside the function that go forward.
# @rules
rule sic {
    match call || indirect_jump || tail_jump || backward
    before { lea 1(%r15), %r15 }
}
# @args --no-iot
# @input
	.text
	.type	f, @function
f:
.L2:
	addl	$1, %eax
	cmpl	$9, %eax
	jle	.L2
	jg	.L3
	call	g
	jmp	*%rdx
.L3:
1:	decl	%ecx
	jne	1b
	jne	1f
1:	jmp	h
	.size	f, .-f
	.type	g, @function
g:
	jmp	f
	ret
	.size	g, .-g
# @expect
	.text
	.type	f, @function
f:
.L2:
	addl	$1, %eax
	cmpl	$9, %eax
	lea 1(%r15), %r15
	jle	.L2
	jg	.L3
	lea 1(%r15), %r15
	call	g
	lea 1(%r15), %r15
	jmp	*%rdx
.L3:
1:	decl	%ecx
	lea 1(%r15), %r15
	jne	1b
	jne	1f
1:
	lea 1(%r15), %r15
	jmp	h
	.size	f, .-f
	.type	g, @function
g:
	lea 1(%r15), %r15
	jmp	f
	ret
	.size	g, .-g
