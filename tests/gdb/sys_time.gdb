advance @time
print t == 0
next
print t > 1000000000
print ts.tv_sec == 0 && ts.tv_nsec == 0
next
print ts.tv_sec == 0 && ts.tv_nsec == 0
next
print later
reverse-next
print later
print ts.tv_sec == 0 && ts.tv_nsec == 0
reverse-next
print ts.tv_sec == 0 && ts.tv_nsec == 0
print t > 1000000000
reverse-next
print t == 0
watch t != 0
continue
print t > 1000000000
stepi-out
delete
watch ts.tv_nsec != 0
continue
stepi-out
print later
delete
advance @end
watch t != 0
reverse-continue
print t == 0
