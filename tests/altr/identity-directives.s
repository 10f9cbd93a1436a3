Directives gcc -g -fPIC emits (.file/.loc, .cfi_*, sections with flags and
groups, .p2align, symbol attributes, @PLT/@GOTPCREL) pass through unchanged.
# @rules-file identity.rules
# @input
	.file	"t.c"
	.text
.Ltext0:
	.file 0 "/tmp" "t.c"
	.file 1 "t.c"
	.section	.text.k,"axG",@progbits,k,comdat
	.p2align 4
	.weak	k
	.hidden	k
	.type	k, @function
k:
.LFB0:
	.loc 1 3 1 view -0
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	v@GOTPCREL(%rip), %rax
	call	puts@PLT
	popq	%rbp
	.cfi_def_cfa_offset 8
	.loc 1 5 1 is_stmt 0 view .LVU3
	ret
	.cfi_endproc
.LFE0:
	.size	k, .-k
	.comm	v,4,4
	.local	w
	.comm	w,8,8
	.set	alias, k
	.ident	"GCC: (Debian 12.2.0-14) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
# @expect
	.file	"t.c"
	.text
.Ltext0:
	.file 0 "/tmp" "t.c"
	.file 1 "t.c"
	.section	.text.k,"axG",@progbits,k,comdat
	.p2align 4
	.weak	k
	.hidden	k
	.type	k, @function
k:
.LFB0:
	.loc 1 3 1 view -0
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	v@GOTPCREL(%rip), %rax
	call	puts@PLT
	popq	%rbp
	.cfi_def_cfa_offset 8
	.loc 1 5 1 is_stmt 0 view .LVU3
	ret
	.cfi_endproc
.LFE0:
	.size	k, .-k
	.comm	v,4,4
	.local	w
	.comm	w,8,8
	.set	alias, k
	.ident	"GCC: (Debian 12.2.0-14) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
