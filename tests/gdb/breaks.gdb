break visit if k == 13
continue
print calls
print seen
break @bonus
continue
print i
continue
print i
reverse-continue
print i
reverse-continue
print k
print calls
reverse-continue
print i
delete
tbreak @visit
reverse-continue
print k
break visit
ignore 6 3
continue
print k
reverse-continue
print k
info breakpoints
delete
break @end
continue
print calls
reverse-step
reverse-step
print i
