# Entry for the instrumented build: prints __altr_load_count in decimal.
	.text
	.globl _start
_start:
	andq $-16, %rsp
	call main
	movq __altr_load_count(%rip), %rax
	leaq buf+31(%rip), %rsi
	movb $10, (%rsi)
	movl $1, %ecx
	movl $10, %r8d
1:	xorl %edx, %edx
	divq %r8
	addb $48, %dl
	decq %rsi
	movb %dl, (%rsi)
	incl %ecx
	testq %rax, %rax
	jne 1b
	movl %ecx, %edx
	movl $1, %edi
	movl $1, %eax
	syscall
	movl $0, %edi
	movl $60, %eax
	syscall
	.bss
	.globl __altr_load_count
__altr_load_count:
	.zero 8
buf:	.zero 32
	.section .note.GNU-stack,"",@progbits
