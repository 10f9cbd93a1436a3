next
next
next
until
until
print v
next
step
print k
finish
next
next
print i
until
print total
advance @twice
print total
set exec-direction reverse
next
print total
next
step
print k
finish
print i
next
print total
set exec-direction forward
next
next
print total
