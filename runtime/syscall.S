/* syscall.S: __rdb_syscall, called in place of every `syscall`
 * instruction (rules/trace.rules).  It behaves like the instruction: the
 * number in %rax, arguments in %rdi %rsi %rdx %r10 %r8 %r9, the result in
 * %rax, %rcx = the return address and %r11 = RFLAGS (what the kernel
 * leaves), every other register and the flags preserved.
 *
 * Four numbers never reach the C dispatch, because the call's return
 * address or our frame would disturb them:
 *   rt_sigreturn (15): pop the return address, enter with the program's
 *     %rsp; it never returns.
 *   clone (56) with a new stack: push the return address onto the new
 *     stack, so the child returns into the program from there.
 *   vfork (58) and clone(CLONE_VM) on the same stack: the child runs on
 *     our stack while the parent sleeps, so keep nothing on it: the return
 *     address waits in the thread's runtime state (the same value for
 *     both, which share the slot).
 * Everything else (fork included: the child gets a copy of our frame)
 * goes through rdb_syscall_dispatch(nr, args).  While recording or
 * replaying (RT->mode != 0) vfork and clone go there too: record.c runs
 * them as a fork (threads are refused), and a clone child that asked for a
 * new stack moves there right after the dispatch, before the check.
 * The generic path has two SIC checks of its own, before and after the
 * dispatch: signals that arrived before the call, or while the runtime
 * ran it (rdb_stub_check), are delivered there, the handlers' frames at
 * the same depth in record and replay (signal.c). */
#include <asm/unistd.h>
#include "layout.h"
#include "asm-macros.h"

	.text
FUNC __rdb_syscall
	.cfi_startproc
	/* A check before the call: a signal that came after the program's
	 * last check is delivered before it, as without rdb (one that comes
	 * later cuts the call short: rdb_prog_syscall).  Flag-free, with the
	 * program's registers, flags and %r12. */
	push %r12
	.cfi_adjust_cfa_offset 8
	lea 1(%r15), %r15
	movzbl (%r15), %r12d
	pop %r12
	.cfi_adjust_cfa_offset -8
	pushfq
	.cfi_adjust_cfa_offset 8
	/* The program's callee-saved registers, which the runtime's C code
	 * keeps where it likes: a boundary while this thread waits in a
	 * blocking call, or a clone it makes before the child has run,
	 * records them (sched.c THSTATE) for a replay from there. */
	THREAD_PTR %rcx, %r11
	mov %rbx, RDB_TH_PROG_CS(%rcx)
	mov %r12, RDB_TH_PROG_CS+8(%rcx)
	mov %r13, RDB_TH_PROG_CS+16(%rcx)
	mov %r14, RDB_TH_PROG_CS+24(%rcx)
	cmp $__NR_rt_sigreturn, %eax
	je .Lsigreturn
	movabs $(RDB_STATE_ADDR + RDB_STATE_MODE), %rcx	/* %rcx: clobbered anyway */
	cmpq $0, (%rcx)
	jne .Lrr
	cmp $__NR_vfork, %eax
	je .Lvfork
	cmp $__NR_clone, %eax
	je .Lclone
.Lgeneric:
	PUSH_CFI %r9, %r8, %r10, %rdx, %rsi, %rdi, %rbp
	.cfi_rel_offset %rbp, 0
	PUSH_CFI %rax			/* the number, for a restart */
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	mov %rax, %rdi
.Lredo:
	lea 16(%rbp), %rsi		/* args[0..5] = rdi rsi rdx r10 r8 r9 */
	/* The runtime's part runs on its syscall stack, not below the
	 * program's %rsp (layout.h); a call of a handler that interrupted
	 * the runtime's part of a call (unrecorded) on its own stack. */
	ON_SCSTACK
	cld
	call rdb_syscall_dispatch
	/* (a thread made again by replay --from K, parked in a blocking
	 * call, comes back here with the call's result: threvive.c) */
	LABELS rdb_stub_back
rdb_stub_back:
	mov %rbp, %rsp
	/* A clone child that asked for a stack of its own (record.c
	 * run_spawn: posix_spawn, system) moves there now, before the check
	 * below: a fork child's recording starts at that check (boundary 2,
	 * join.c), and its replay restores the registers and the memory, not
	 * the runtime's clone_sp.  Our frame (from the number to the return
	 * address: 10 words) is copied to just below the new stack, so that
	 * the child returns with %rsp = the stack argument, as the kernel
	 * would have started it.  Only the child has clone_frame set (its
	 * own copy of the state); the registers used are cleared below. */
	movabs $(RDB_STATE_ADDR + RDB_STATE_CLONE_SP), %rcx
	lea 64(%rbp), %rdx
	cmp %rdx, (RDB_STATE_CLONE_FRAME - RDB_STATE_CLONE_SP)(%rcx)
	jne 2f
	mov (%rcx), %rdi
	movq $0, (%rcx)
	movq $0, (RDB_STATE_CLONE_FRAME - RDB_STATE_CLONE_SP)(%rcx)
	lea -80(%rdi), %rdi
	xor %esi, %esi
3:	mov (%rbp,%rsi,8), %rdx
	mov %rdx, (%rdi,%rsi,8)
	inc %esi
	cmp $10, %esi
	jb 3b
	mov %rdi, %rbp
	mov %rdi, %rsp
2:
	/* The SIC check where signals that arrived during the call reach the
	 * program (signal.c): at the same depth in record and replay, with
	 * the registers the C code left zeroed (a boundary here compares
	 * them).  %r12 is the program's to keep: hand-written code uses it. */
	CLEAR_SCRATCH
	push %r12
	lea 1(%r15), %r15
	LABELS rdb_stub_check
rdb_stub_check:
	movzbl (%r15), %r12d
	pop %r12
	/* Cut before it ran (a signal came first): again, after the handler. */
	cmp $-RDB_SC_CUT, %rax
	jne 1f
	mov (%rbp), %rdi
	jmp .Lredo
1:	lea 8(%rsp), %rsp
	.cfi_def_cfa %rsp, 72
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	POP_CFI %rdi, %rsi, %rdx, %r10, %r8, %r9
.Lleave:				/* the flags, then the return address */
	mov (%rsp), %r11
	popfq
	.cfi_adjust_cfa_offset -8
	mov (%rsp), %rcx
	ret

.Lsigreturn:
	popfq
	.cfi_adjust_cfa_offset -8
	lea 8(%rsp), %rsp
	syscall
	ud2

	.cfi_adjust_cfa_offset 8
.Lrr:
	/* Recording or replaying: a clone that shares our memory (CLONE_VM,
	 * a new stack, no CLONE_VFORK: a thread, or a process with
	 * CLONE_THREAD left out) is made here too, then recorded or replayed
	 * (rdb_thread_parent): its stores are the program's, so it runs as a
	 * thread of the recording (docs/threads.md); every other call goes to
	 * the C dispatch (rr.c rdb_rr_clone_made says the same). */
	cmp $__NR_clone, %eax
	jne .Lgeneric
	test %rsi, %rsi
	jz .Lgeneric
	test $0x100, %edi		/* CLONE_VM */
	jz .Lgeneric
	test $0x4000, %edi		/* CLONE_VFORK */
	jnz .Lgeneric
	jmp .Lclone_thread

.Lclone:
	test %rsi, %rsi
	jnz .Lclone_stack
	test $0x100, %edi		/* CLONE_VM on our own stack: like vfork */
	jnz .Lvfork
	jmp .Lgeneric

.Lclone_stack:
	test $0x100, %edi		/* CLONE_VM and not CLONE_VFORK: a thread */
	jz 1f
	test $0x4000, %edi
	jz .Lclone_thread
	/* CLONE_VM | CLONE_VFORK (posix_spawn): the child shares our slot
	 * while we sleep; nonzero there says so to its exit (thread.c). */
	THREAD_PTR %rcx, %r11
	movq $1, RDB_TH_VFORK_RET(%rcx)
1:	popfq
	.cfi_adjust_cfa_offset -8
	mov (%rsp), %rcx
	lea -8(%rsi), %rsi
	mov %rcx, (%rsi)
	syscall
	lea 8(%rsi), %rsi		/* both: the argument register as it was */
	mov %rax, %rcx
	jrcxz 6f			/* (the child: it returns from its new stack) */
	push %r11			/* the parent: no child shares the slot now */
	.cfi_adjust_cfa_offset 8
	THREAD_PTR %rcx, %r11
	movq $0, RDB_TH_VFORK_RET(%rcx)
	mov (%rsp), %r11
	popfq				/* the flags, from %r11 as the kernel left them */
	.cfi_adjust_cfa_offset -8
6:	mov (%rsp), %rcx
	ret

	.cfi_adjust_cfa_offset 8
.Lclone_thread:
	/* A new thread runs beside this one: it needs its own runtime state,
	 * stacks and SIC window (thread.c) before it runs anything, and
	 * tells them by its %r15.  The parent asks for them, starts the
	 * child with that %r15 (its own saved below), and the child sets
	 * its signal stack first. */
	PUSH_CFI %rbp
	mov %rsp, %rbp
	PUSH_CFI %rdi, %rsi, %rdx, %r10, %r8, %r9
	mov %r10, %rsi			/* (flags in %rdi, the CLEARTID word) */
	ON_SCSTACK
	cld
	call rdb_thread_prepare
	lea -48(%rbp), %rsp
	POP_CFI %r9, %r8, %r10, %rdx, %rsi, %rdi, %rbp
	test %rax, %rax
	jnz 2f
	mov $-11, %rax			/* no slot: EAGAIN, as the kernel's limit */
	jmp 3f
2:	PUSH_CFI %r15			/* [parent's %r15] [flags] [return] */
	mov %rax, %r15
	mov 16(%rsp), %rcx
	lea -8(%rsi), %rsi
	mov %rcx, (%rsi)
	mov $56, %eax
	syscall
	test %rax, %rax
	jz .Lthread_child
	/* The parent: the child's tid into its slot (or the slot freed if
	 * the clone failed), then its own %r15 again. */
	THREAD_PTR %rcx, %r11
	mov %eax, %r11d
	test %rax, %rax
	jns 4f
	xor %r11d, %r11d
4:	mov %r11d, RDB_TH_TID(%rcx)
	pop %r15
	.cfi_adjust_cfa_offset -8
	/* Its own %r15 again: the mask rdb_thread_prepare blocked. */
	PUSH_CFI %rax, %rdi, %rsi, %rdx, %r10
	THREAD_PTR %rsi, %r11
	lea RDB_TH_CLONE_MASK(%rsi), %rsi
	mov $2, %edi			/* SIG_SETMASK */
	xor %edx, %edx
	mov $8, %r10d
	mov $14, %eax			/* rt_sigprocmask */
	syscall
	pop %r10
	pop %rdx
	pop %rsi
	pop %rdi
	pop %rax
	.cfi_adjust_cfa_offset -40
	lea 8(%rsi), %rsi
3:	/* Recording or replaying: the clone's TRAP, and the result the
	 * program gets (the recorded tid in replay). */
	movabs $(RDB_STATE_ADDR + RDB_STATE_MODE), %rcx
	cmpq $0, (%rcx)
	je 5f
	PUSH_CFI %rbp
	mov %rsp, %rbp
	PUSH_CFI %r9, %r8, %r10, %rdx, %rsi, %rdi	/* args[0..5] */
	mov %rax, %rdi
	mov %rsp, %rsi
	ON_SCSTACK
	cld
	call rdb_thread_parent
	lea -48(%rbp), %rsp
	POP_CFI %rdi, %rsi, %rdx, %r10, %r8, %r9, %rbp
5:	mov (%rsp), %r11
	popfq
	.cfi_adjust_cfa_offset -8
	mov (%rsp), %rcx
	ret

.Lthread_child:
	/* On the new stack, the return address at %rsp: its signal stack
	 * set on its own syscall stack, every register of the program kept. */
	THREAD_PTR %rcx, %r11
	mov %rsp, %r11
	mov RDB_TH_SC_LO(%rcx), %rsp
	add $RDB_SCSTACK_SIZE, %rsp
	push %r11
	push %rdi
	push %rsi
	push %rdx
	push %r10
	push %r8
	push %r9
	push %rax
	lea 8(%r11), %rdi		/* the clone's new stack */
	cld
	call rdb_thread_child
	pop %rax
	pop %r9
	pop %r8
	pop %r10
	pop %rdx
	pop %rsi
	pop %rdi
	pop %rsp
	xor %eax, %eax
	xor %r11d, %r11d
	lea 8(%rsi), %rsi
	mov (%rsp), %rcx
	ret

	.cfi_adjust_cfa_offset 8
.Lvfork:
	/* The return address waits in the thread's slot (two threads may
	 * vfork at once); the child runs with the caller's %r15, so finds
	 * the same slot.  THREAD_PTR takes the flags: after the call they
	 * come back from %r11, as the kernel left them. */
	THREAD_PTR %rcx, %r11
	mov 8(%rsp), %r11
	mov %r11, RDB_TH_VFORK_RET(%rcx)
	popfq
	.cfi_adjust_cfa_offset -8
	lea 8(%rsp), %rsp		/* (the return address stays where it was) */
	.cfi_adjust_cfa_offset -8
	syscall
	push %r11			/* the flags */
	.cfi_adjust_cfa_offset 8
	THREAD_PTR %rcx, %r11
	push RDB_TH_VFORK_RET(%rcx)
	.cfi_adjust_cfa_offset 8
	test %rax, %rax
	jz 6f
	/* The parent (or no child): none shares the slot now (nonzero
	 * there says so to a vfork child's exit: thread.c). */
	movq $0, RDB_TH_VFORK_RET(%rcx)
6:	pop %rcx
	.cfi_adjust_cfa_offset -8
	mov (%rsp), %r11
	mov %rcx, (%rsp)		/* the return address */
	.cfi_offset %rip, -8
	push %r11
	.cfi_adjust_cfa_offset 8
	popfq
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size __rdb_syscall, .-__rdb_syscall

/* rdb_prog_syscall(nr, args, cut): the program's syscall, from
 * rdb_run_syscall.  A signal deferred for the program's handler while the
 * pc is in [rdb_psc_begin, rdb_psc_end) (the call not entered, or rewound
 * by the kernel to restart it) moves the pc to rdb_psc_cut (signal.c);
 * so does a nonzero *cut on the way in (a signal waits already).  The
 * call then returns -RDB_SC_CUT, and the stub runs it again once the
 * handler has run at its check: a blocking call waits for the next
 * signal, not for the one that came before it (musl's __cp_begin). */
	LABELS rdb_psc_begin, rdb_psc_end, rdb_psc_cut
FUNC rdb_prog_syscall
	.cfi_startproc
	mov %rdi, %rax
	mov %rdx, %r11
	mov (%rsi), %rdi
	mov 16(%rsi), %rdx
	mov 24(%rsi), %r10
	mov 32(%rsi), %r8
	mov 40(%rsi), %r9
	mov 8(%rsi), %rsi
rdb_psc_begin:
	cmpl $0, (%r11)
	jne rdb_psc_cut
	syscall
rdb_psc_end:
	ret
rdb_psc_cut:
	mov $-RDB_SC_CUT, %rax
	ret
	.cfi_endproc
	.size rdb_prog_syscall, .-rdb_prog_syscall

/* The restorer of every handler the runtime installs (SA_RESTORER). */
FUNC rdb_restore_rt
	mov $__NR_rt_sigreturn, %eax
	syscall
	ud2
	.size rdb_restore_rt, .-rdb_restore_rt

/* rdb_handler_return: where a handler of the program returns (its frame's
 * pretcode, signal.c), with %rsp at the frame's ucontext, as the kernel's
 * restorer would be.  Every signal is blocked first (a signal taken after
 * the SIC's value is saved would poke our registers, not the context the
 * program goes back to); rdb_handler_done runs on the runtime's signal
 * stack, free while program code runs; then rt_sigreturn from the copy of
 * the frame's ucontext it returns.
 * Every register is free: rt_sigreturn loads them all. */
/* gdb (amd64 Linux) takes a function named __restore_rt for the kernel's
 * signal trampoline and unwinds through the ucontext at %rsp: a handler's
 * backtrace in gdb then goes on into the code the signal interrupted.
 * Here __restore_rt is a local symbol, the only one of that address with a
 * size (gdb prefers it); musl's own __restore_rt is another.  The nop: a
 * return address's pc - 1 stays out of the function before. */
	nop
	LABELS rdb_handler_return
rdb_handler_return:
	.type __restore_rt,@function
__restore_rt:
	mov %rsp, %rbx			/* the ucontext */
	mov $2, %edi			/* SIG_SETMASK */
	lea .Lall(%rip), %rsi
	xor %edx, %edx
	mov $8, %r10d
	mov $__NR_rt_sigprocmask, %eax
	syscall
	THREAD_PTR %rax, %rcx		/* the thread's signal stack */
	mov RDB_TH_SIG_TOP(%rax), %rsp
	lea -8(%rbx), %rdi		/* the frame */
	cld
	call rdb_handler_done
	mov %rax, %rsp			/* its copy of the ucontext */
	mov $__NR_rt_sigreturn, %eax
	syscall
	ud2
	.size __restore_rt, .-__restore_rt

	.section .rodata
	.p2align 3
.Lall:	.quad -1
	.text

/* rdb_copy_out(dst, src, n): 0, or -1 when the program's memory at dst
 * faults (signal.c copy_fault moves the pc to rdb_copy_fault). */
	LABELS rdb_copy_begin, rdb_copy_end, rdb_copy_fault
FUNC rdb_copy_out
	.cfi_startproc
	mov %rdx, %rcx
rdb_copy_begin:
	rep movsb
rdb_copy_end:
	xor %eax, %eax
	ret
rdb_copy_fault:
	mov $-1, %rax
	ret
	.cfi_endproc
	.size rdb_copy_out, .-rdb_copy_out

	.section .note.GNU-stack,"",@progbits
