break @jump
continue
bt
print trail
break @landed
continue
print r
print trail
reverse-step
print r
bt
reverse-step
stepi-out reverse
print n
bt
continue
print r
delete
break deep
reverse-continue
print n
reverse-continue
print n
delete
advance @end
reverse-next
print trail
reverse-next
print trail
