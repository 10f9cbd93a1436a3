advance @recv
print data
print mh.msg_flags
next
print n
print data
print mh.msg_flags
next
print data
reverse-next
print data
reverse-next
print data
print mh.msg_flags
watch data[3]
continue
print data
advance @end
print data
reverse-continue
stepi-out reverse
print data
