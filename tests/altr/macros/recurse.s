# The manual's recursive macro, ended by an .if on its arguments; \@ in
# labels across nested invocations; .if/.elseif/.else chains and a
# conditional altr cannot evaluate (.ifdef), left to gas.
	.data
	.macro	sum from=0, to=5
	.long	\from
	.if	\to-\from
	sum	"(\from+1)",\to
	.endif
	.endm
	sum	0, 5
	sum	3, 4
	.macro	pick n
	.if	\n == 1
	.byte	1
	.elseif	\n == 2
	.byte	2
	.else
	.byte	3
	.endif
	.ifdef	undefined_sym
	.byte	4
	.else
	.byte	5
	.endif
	.ifnc	\n, 3
	.byte	7
	.endif
	.endm
	pick	1
	pick	2
	pick	3
	.macro	blank a
	.ifb	\a
	.byte	6
	.else
	.byte	\a
	.endif
	.endm
	blank
	blank	8
	.text
	.macro	spin reg
.Lspin\@:
	movl	(\reg), %eax
	testl	%eax, %eax
	jnz	.Lspin\@
	.endm
	.macro	spin2 a, b
	spin	\a
	spin	\b
.Ldone\@:
	.endm
f:
	spin2	%rdi, %rsi
	spin2	%rdx, %rcx
	ret
