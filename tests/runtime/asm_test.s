# asm_test.s: hand-written cases for rt_test.c, instrumented by altr with
# rules/trace.rules like compiled code.  %r13-%r15 are never touched.
	.text

# long t_flags_live_store(long *p, long a, long b): *p = a with the flags
# of a < b live across the store; returns a < b.
	.globl t_flags_live_store
	.type t_flags_live_store,@function
t_flags_live_store:
	xor %eax, %eax
	cmp %rdx, %rsi
	mov %rsi, (%rdi)
	setl %al
	ret

# long t_string_regs(void *dst, const void *src, long n): 0 when rep movsb
# (and its hook) keeps the flags and every register it does not define.
	.globl t_string_regs
	.type t_string_regs,@function
t_string_regs:
	push %rbx
	push %rbp
	mov %rdx, %rcx
	lea (%rsi,%rdx), %rbx
	lea (%rdi,%rdx), %rbp
	movabs $0x1111111111111111, %r8
	movabs $0x2222222222222222, %r9
	movabs $0x3333333333333333, %r10
	movabs $0x4444444444444444, %r11
	movabs $0x5555555555555555, %rax
	movabs $0x6666666666666666, %rdx
	stc
	rep movsb
	jnc 9f
	cmp %rbx, %rsi
	jne 9f
	cmp %rbp, %rdi
	jne 9f
	test %rcx, %rcx
	jne 9f
	movabs $0x1111111111111111, %rbx
	cmp %rbx, %r8
	jne 9f
	movabs $0x2222222222222222, %rbx
	cmp %rbx, %r9
	jne 9f
	movabs $0x3333333333333333, %rbx
	cmp %rbx, %r10
	jne 9f
	movabs $0x4444444444444444, %rbx
	cmp %rbx, %r11
	jne 9f
	movabs $0x5555555555555555, %rbx
	cmp %rbx, %rax
	jne 9f
	movabs $0x6666666666666666, %rbx
	cmp %rbx, %rdx
	jne 9f
	xor %eax, %eax
	pop %rbp
	pop %rbx
	ret
9:	mov $1, %eax
	pop %rbp
	pop %rbx
	ret

# long t_syscall_regs(void): getpid with every register set; 0 when the
# stub left all but %rax/%rcx/%r11 alone, %r11 = RFLAGS (CF set), %rcx =
# the address after the call, and CF itself survived.
	.globl t_syscall_regs
	.type t_syscall_regs,@function
t_syscall_regs:
	push %rbx
	push %rbp
	push %r12
	movabs $0x1111111111111111, %rdi
	movabs $0x2222222222222222, %rsi
	movabs $0x3333333333333333, %rdx
	movabs $0x4444444444444444, %r10
	movabs $0x5555555555555555, %r8
	movabs $0x6666666666666666, %r9
	movabs $0x7777777777777777, %rbx
	movabs $0x8888888888888888, %rbp
	mov $39, %eax
	stc
	syscall
1:	jnc 9f
	test $1, %r11
	jz 9f
	lea 1b(%rip), %r12
	cmp %r12, %rcx
	jne 8f
	movabs $0x1111111111111111, %r12
	cmp %r12, %rdi
	jne 9f
	movabs $0x2222222222222222, %r12
	cmp %r12, %rsi
	jne 9f
	movabs $0x3333333333333333, %r12
	cmp %r12, %rdx
	jne 9f
	movabs $0x4444444444444444, %r12
	cmp %r12, %r10
	jne 9f
	movabs $0x5555555555555555, %r12
	cmp %r12, %r8
	jne 9f
	movabs $0x6666666666666666, %r12
	cmp %r12, %r9
	jne 9f
	movabs $0x7777777777777777, %r12
	cmp %r12, %rbx
	jne 9f
	movabs $0x8888888888888888, %r12
	cmp %r12, %rbp
	jne 9f
	xor %eax, %eax
	jmp 7f
8:	mov $2, %eax
	jmp 7f
9:	mov $1, %eax
7:	pop %r12
	pop %rbp
	pop %rbx
	ret

# long t_clone_newstack(void *top): clone(CLONE_VM|CLONE_VFORK|SIGCHLD,
# top); the child checks it runs on top and exits 42 (43 if not).
	.globl t_clone_newstack
	.type t_clone_newstack,@function
t_clone_newstack:
	mov %rdi, %rsi
	mov $0x4111, %edi
	xor %edx, %edx
	xor %r10d, %r10d
	xor %r8d, %r8d
	mov $56, %eax
	syscall
	test %rax, %rax
	jnz 1f
	mov $42, %edi
	cmp %rsi, %rsp
	je 2f
	mov $43, %edi
2:	mov $60, %eax
	syscall
	hlt
1:	ret

	.globl t_fxsave
	.type t_fxsave,@function
t_fxsave:
	fxsave (%rdi)
	ret

	.globl t_ymm_load
	.type t_ymm_load,@function
t_ymm_load:
	vmovdqu (%rdi), %ymm0
	vzeroupper
	ret

	.globl t_x87
	.type t_x87,@function
t_x87:
	fldt (%rdi)
	fstpt (%rsi)
	ret

# void t_std_movsb(void *dst_last, const void *src_last, long n)
	.globl t_std_movsb
	.type t_std_movsb,@function
t_std_movsb:
	mov %rdx, %rcx
	std
	rep movsb
	cld
	ret

# long t_repne_scasb(const char *s): strlen
	.globl t_repne_scasb
	.type t_repne_scasb,@function
t_repne_scasb:
	mov $-1, %rcx
	xor %eax, %eax
	repne scasb
	not %rcx
	dec %rcx
	mov %rcx, %rax
	ret

	.section .note.GNU-stack,"",@progbits
