advance @read
print buf
next
print n
print buf
reverse-next
print buf
watch buf[4]
continue
print buf
print sum
stepi-out
print n
print sum
delete
advance @end
print sum
watch buf[4]
reverse-continue
print buf
stepi-out reverse
print buf
print sum
delete
advance @sum
reverse-next
reverse-next
print n == 8
