Each inserted group (before code, the instruction, after code) is
bracketed by labels and listed in .rdb_iot as {pc-relative start, length,
flags} (docs/iot.md).
# @rules
rule r { match load && mem
  before { nop }
  after { nop }
}
# @input
	.text
	movq (%rax), %rbx
	movq %rbx, (%rax)
	movq 8(%rax), %rbx
# @expect
	.text
.LRb1:
	nop
	movq (%rax), %rbx
	nop
.LRe1:
	movq %rbx, (%rax)
.LRb2:
	nop
	movq 8(%rax), %rbx
	nop
.LRe2:
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .LRb1-.
	.long .LRe1-.LRb1,0
	.quad .LRb2-.
	.long .LRe2-.LRb2,0
