/* ministart.S: stands in for musl's _start (crt/start.S jumps here) in
 * tests without libc: self-relocation (minireloc.c), tmain(argc, argv),
 * then exit_group through the runtime's syscall stub. */
	.text
	.globl __musl_start
	.type __musl_start,@function
__musl_start:
	push %rax			/* align */
	call t_relocate
	pop %rax
	mov (%rsp), %rdi
	lea 8(%rsp), %rsi
	and $-16, %rsp
	call tmain
	mov %rax, %rdi
	mov $231, %eax
	call __rdb_syscall
	hlt
	.size __musl_start, .-__musl_start
	.section .note.GNU-stack,"",@progbits
