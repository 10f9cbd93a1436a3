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
.Lrdb_iot_b1:
	nop
	movq (%rax), %rbx
	nop
.Lrdb_iot_e1:
	movq %rbx, (%rax)
.Lrdb_iot_b2:
	nop
	movq 8(%rax), %rbx
	nop
.Lrdb_iot_e2:
	.section .rdb_iot,"aR",@progbits
	.balign 8
	.quad .Lrdb_iot_b1 - .
	.long .Lrdb_iot_e1 - .Lrdb_iot_b1
	.long 0
	.quad .Lrdb_iot_b2 - .
	.long .Lrdb_iot_e2 - .Lrdb_iot_b2
	.long 0
