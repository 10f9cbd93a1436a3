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
continue
print data
reverse-continue
reverse-continue
print data
