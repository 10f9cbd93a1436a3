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
.Lrdb_iot_b1:
	incq n(%rip)
.Laltr_lb0:
	lea (%rax), %r12
.Laltr_le0:
	movq (%rax), %rbx
.Laltr_lb1:
	movq (%rax), %rbx
.Laltr_le1:
.Lrdb_iot_e1:
.Lrdb_iot_b2:
	movq %rbx, (%rcx)
.Lrdb_iot_e2:
.Lrdb_iot_b3:
.Laltr_lb2:
	nop
.Laltr_le2:
.Laltr_lb3:
	int3
.Laltr_le3:
	movb %bl, (%rax)
.Lrdb_iot_e3:
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .Lrdb_iot_b1 - .
	.long .Lrdb_iot_e1 - .Lrdb_iot_b1
	.long 0
	.quad .Lrdb_iot_b2 - .
	.long .Lrdb_iot_e2 - .Lrdb_iot_b2
	.long 0
	.quad .Lrdb_iot_b3 - .
	.long .Lrdb_iot_e3 - .Lrdb_iot_b3
	.long 0
	.section hooks_a,"aR",@progbits
	.balign 4
	.long .Laltr_lb0 - ., .Laltr_le0 - .Laltr_lb0
	.long .Laltr_lb1 - ., .Laltr_le1 - .Laltr_lb1
	.long .Laltr_lb3 - ., .Laltr_le3 - .Laltr_lb3
	.section hooks_b,"aR",@progbits
	.balign 4
	.long .Laltr_lb2 - ., .Laltr_le2 - .Laltr_lb2
