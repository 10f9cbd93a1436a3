advance @getrandom
print rnd
next
print n
print *(long *)rnd != 0
print nonzero
advance @end
print nonzero > 8
watch *(long *)rnd != 0
reverse-continue
print *(long *)rnd == 0
reverse-next
print rnd
continue
print *(long *)rnd != 0
