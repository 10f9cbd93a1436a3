Identity rules pass statements joined with ';', and comments and strings
holding ';' and '#', through byte for byte.
# @rules-file identity.rules
# @input
	.text
	.globl	f
	.type	f, @function
f:
	movq (%rdi), %rax ; addq $1, %rax ; movq %rax, (%rdi)	# three; statements # here
	movl $59, %eax;syscall;ret
	/* a C comment; with # and ; */ nop
1:	jmp 1b ; 2: jmp 2f ; 2:
	.section	.rodata
.Ls:	.string	"a;b#c\"; # d"
	.ascii	"x;y", "#;#"
	.byte	';', '#'
# @expect
	.text
	.globl	f
	.type	f, @function
f:
	movq (%rdi), %rax ; addq $1, %rax ; movq %rax, (%rdi)	# three; statements # here
	movl $59, %eax;syscall;ret
	/* a C comment; with # and ; */ nop
1:	jmp 1b ; 2: jmp 2f ; 2:
	.section	.rodata
.Ls:	.string	"a;b#c\"; # d"
	.ascii	"x;y", "#;#"
	.byte	';', '#'
