Labels of hand-written code (#APP) right before a hooked instruction go
after the inserted code, at the instruction, when nothing in the unit
branches to them (a SIGSEGV handler compares a faulting pc with them:
taking the address with lea does not count), and stay in front when a
jump, a call or a data word names them (whatever goes there runs the
hook), and outside #APP. A name in a string (-g's .string "probe") is
not a use.
# @rules
rule load { match mem_read && mnemonic =~ /^mov/
  before { # hook }
}
# @args --no-iot
# @input
	.text
f:
#APP
	.globl probe, after
probe: movq (%rdx), %rax
after:
	.type probe, @function
1:	movq (%rdx), %rax
	dec %rcx
	jne 1b
jumped: movq (%rsi), %rax
tabled: movq (%rdi), %rax
#NO_APP
	jmp jumped
compiled: movq (%rdi), %rax
	leaq probe(%rip), %rax
	.section .rodata
	.quad tabled
	.string "probe after"
# @expect
	.text
f:
#APP
	.globl probe, after
	# hook
probe:
	movq (%rdx), %rax
after:
	.type probe, @function
1:
	# hook
	movq (%rdx), %rax
	dec %rcx
	jne 1b
jumped:
	# hook
	movq (%rsi), %rax
tabled:
	# hook
	movq (%rdi), %rax
#NO_APP
	jmp jumped
compiled:
	# hook
	movq (%rdi), %rax
	leaq probe(%rip), %rax
	.section .rodata
	.quad tabled
	.string "probe after"
