advance @pipe
print fds
next
print fds
next
next
print got
reverse-next
print got
reverse-next
reverse-next
print fds
next
next
watch fds[0]
reverse-continue
print fds
stepi-out reverse
print fds
continue
print fds
stepi-out
print fds
