# forward: step into sum_squares and square, finish with a value
step
step
next
step
step
print x
finish
next
# backward: reverse-step re-enters square from its end
reverse-step
reverse-step
print y
reverse-finish
print i
reverse-next
reverse-next
print s
reverse-finish
# over the recursion: to its base, back out, and back in
break @fact_base
continue
bt
print depth_seen
reverse-finish
print n
reverse-finish
print n
finish
finish
next
reverse-step
print n
delete
tbreak @main_sum
continue
print a
print b
reverse-next
print a
next
next
print c
