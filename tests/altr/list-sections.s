'list NAME' lists the before and after code of a rule (not its replace,
and not code of other rules at the same instruction) in section NAME:
{start relative to the entry, length}, 8 bytes each (docs/rules.md
"list").  An action that expands to nothing is not listed.  Rules with the
same section name share one table; each name gets its own.
# @rules
rule count priority 10 { match load && mem; before { incq n(%rip) } }
rule hook { match load && mem; list hooks_a
  before { lea ${addr}, %r12 }
  after { ${0} }
}
rule st { match store && mem; list hooks_b
  when size == 8 { before { } replace { movq %rbx, (%rcx) } }
  else { before { nop } }
}
rule st2 { match mnemonic =~ /^movb$/; list hooks_a; before { int3 } }
# @input
	.text
	movq (%rax), %rbx
	movq %rbx, (%rax)
	movb %bl, (%rax)
# @expect
	.text
.LRb1:
	incq n(%rip)
.LRlb0:
	lea (%rax), %r12
.LRle0:
	movq (%rax), %rbx
.LRlb1:
	movq (%rax), %rbx
.LRle1:
.LRe1:
.LRb2:
	movq %rbx, (%rcx)
.LRe2:
.LRb3:
.LRlb2:
	nop
.LRle2:
.LRlb3:
	int3
.LRle3:
	movb %bl, (%rax)
.LRe3:
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .LRb1-.
	.long .LRe1-.LRb1,0
	.quad .LRb2-.
	.long .LRe2-.LRb2,0
	.quad .LRb3-.
	.long .LRe3-.LRb3,0
	.section hooks_a,"aR",@progbits
	.balign 4
	.long .LRlb0-.,.LRle0-.LRlb0
	.long .LRlb1-.,.LRle1-.LRlb1
	.long .LRlb3-.,.LRle3-.LRlb3
	.section hooks_b,"aR",@progbits
	.balign 4
	.long .LRlb2-.,.LRle2-.LRlb2
