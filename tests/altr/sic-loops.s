loop_back and fuses_loop_back (altr/cycles.c): a backward branch counts
only when its target can reach it in the function's control-flow graph.
f: the exit block .L1 before the code that jumps to it (gcc's layout of
bzip2's mainGtU) is on no cycle; the loop's fused jne is, and its count
goes before its flag setter, across the .locs.  g: an indirect jump reaches
every label, but .L11 only returns; the numeric-label loop counts.  h: a
data directive in code may be a jump anywhere: .L32's jump back to .L30
counts.  k: a function that calls its own label may return inside: its
jne to .L41 counts.  m: unlabelled code after an indirect jump is reached
by an address only: it counts as able to reach every label.  Code outside
any function (the first lines): every backward branch counts.  The second
rule shows the backward branches that are no loop's.
# @rules
rule sic {
    match (loop_back && !fused_branch) || fuses_loop_back
    before { lea 1(%r15), %r15 }
}
rule back {
    match backward && !loop_back
    before { # not a loop's
    }
}
# @args --no-iot
# @input
	.text
	jmp	.L61
.L60:
	ret
.L61:
	jmp	.L60
	.type	f, @function
f:
	movl	$0, %eax
	jmp	.L3
.L1:
	setb	%al
	ret
.L3:
	movzbl	(%rdi), %ecx
	cmpb	(%rsi), %cl
	jne	.L1
	addq	$1, %rdi
	addq	$1, %rsi
	.loc 1 7 3
	cmpb	$0, %cl
	.loc 1 8 3
	jne	.L3
	movl	$1, %eax
	ret
	.size	f, .-f
	.type	g, @function
g:
	testl	%edi, %edi
	je	.L12
.L11:
	ret
.L12:
	movq	.L20(,%rdi,8), %rax
	jmp	*%rax
.L13:
	decl	%edi
	jne	.L11
1:	decl	%esi
	jns	1b
	ret
	.size	g, .-g
	.type	h, @function
h:
	jmp	.L31
.L30:
	.byte	0xe9, 0, 0, 0, 0
	ret
.L31:
	decl	%edi
	jne	.L32
	ret
.L32:
	jmp	.L30
	.size	h, .-h
	.type	k, @function
k:
	call	.L42
.L41:
	ret
.L42:
	decl	%edi
	jne	.L41
	ret
	.size	k, .-k
	.type	m, @function
m:
.L51:
	cmpl	$3, %edi
	je	.L52
	ret
.L52:
	jmp	*%rsi
	jmp	.L51
	.size	m, .-m
# @expect
	.text
	jmp	.L61
.L60:
	ret
.L61:
	lea 1(%r15), %r15
	jmp	.L60
	.type	f, @function
f:
	movl	$0, %eax
	jmp	.L3
.L1:
	setb	%al
	ret
.L3:
	movzbl	(%rdi), %ecx
	cmpb	(%rsi), %cl
	# not a loop's
	jne	.L1
	addq	$1, %rdi
	addq	$1, %rsi
	.loc 1 7 3
	lea 1(%r15), %r15
	cmpb	$0, %cl
	.loc 1 8 3
	jne	.L3
	movl	$1, %eax
	ret
	.size	f, .-f
	.type	g, @function
g:
	testl	%edi, %edi
	je	.L12
.L11:
	ret
.L12:
	movq	.L20(,%rdi,8), %rax
	jmp	*%rax
.L13:
	decl	%edi
	# not a loop's
	jne	.L11
1:
	lea 1(%r15), %r15
	decl	%esi
	jns	1b
	ret
	.size	g, .-g
	.type	h, @function
h:
	jmp	.L31
.L30:
	.byte	0xe9, 0, 0, 0, 0
	ret
.L31:
	decl	%edi
	jne	.L32
	ret
.L32:
	lea 1(%r15), %r15
	jmp	.L30
	.size	h, .-h
	.type	k, @function
k:
	call	.L42
.L41:
	ret
.L42:
	lea 1(%r15), %r15
	decl	%edi
	jne	.L41
	ret
	.size	k, .-k
	.type	m, @function
m:
.L51:
	cmpl	$3, %edi
	je	.L52
	ret
.L52:
	jmp	*%rsi
	lea 1(%r15), %r15
	jmp	.L51
	.size	m, .-m
