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
watch fds[0]
reverse-continue
print fds
reverse-continue
print fds
continue
print fds
