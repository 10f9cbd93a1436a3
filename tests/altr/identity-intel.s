A .intel_syntax region passes through untouched (altr warns about it), and
AT&T lines after .att_syntax are read again.
# @rules-file identity.rules
# @input
	.text
h:
	movq (%rdi), %rax
	.intel_syntax noprefix
	mov rax, QWORD PTR [rdi+8]
	lea rcx, [rip+h]
	add DWORD PTR [rsp], 1 ; ret
	.att_syntax prefix
	movq %rax, 16(%rdi)
	ret
# @expect
	.text
h:
	movq (%rdi), %rax
	.intel_syntax noprefix
	mov rax, QWORD PTR [rdi+8]
	lea rcx, [rip+h]
	add DWORD PTR [rsp], 1 ; ret
	.att_syntax prefix
	movq %rax, 16(%rdi)
	ret
# @expect-stderr
intel_syntax
