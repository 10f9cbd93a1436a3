# Upper-case directives, ;-joined statements, macros defining macros
# (\@ at definition), \() joining, .irpc with blanks, comments holding
# .endr, numeric labels, recursion ended by .if/.ifnb, .ifc, a .set count.
.data
.MACRO M1 a b
.byte \a ; .byte \b
.ENDM
M1 1 2 ; M1 3, 4
x: .rept 2 ; .byte 7
.endr ; .byte 8
.macro outer n
.macro inner\n
.byte \n, \@
.endm
inner\n
.endm
outer 5
outer 6
inner5
.macro c s
.ascii "\s\()\s"
.endm
c ab
.irpc q, 1 2 3
.byte \q
.endr
.rept 3 # .endr in a comment
/* .endr */ .byte 9
.endr
.macro lbl
1: .byte 1
.byte 1b-.
.endm
lbl
lbl
.macro e a, b
.ifc \a,\b
.byte 0xee
.else
.byte 0xef
.endif
.endm
e x, x
e x, y
.macro fact n
.if \n
.byte \n
fact (\n-1)
.endif
.endm
fact 4
.set K, 3
.rept K*2
.byte K
.endr
.macro mm a:req, b:vararg
.byte \a
.ifnb \b
mm \b
.endif
.endm
mm 1, 2, 3, 4
