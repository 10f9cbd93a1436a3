/* Inline asm with .rept and a macro, compiled by gcc -O2 -S into
 * inline-O2.s and by gcc -O0 -g -S into inline-g.s (.loc lines). */
__asm__(".macro ld8 dst, src\n\tmovq \\src, \\dst\n.endm");
long sum(const long *p)
{
	long r = 0, t;
	__asm__(".rept 4\n\t"
	        "addq (%1), %0\n\t"
	        "addq $8, %1\n\t"
	        ".endr"
	        : "+r"(r), "+r"(p) : : "cc", "memory");
	__asm__("ld8 %0, 8(%1)" : "=r"(t) : "r"(p) : "memory");
	return r + t;
}
