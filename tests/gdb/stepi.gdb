advance @call
stepi-line
stepi-line
print a
print b
stepi-line
stepi-line
stepi-line
print acc
stepi-line reverse
stepi-line reverse
print r
stepi-line reverse
stepi-line reverse
stepi-line reverse
print acc
stepi-line nexti
print acc
stepi-line nexti
print acc
stepi-line reverse nexti
stepi-line reverse nexti
print acc
advance @dbl
stepi-back 1
stepi-back 2
stepi
reverse-stepi
print x
