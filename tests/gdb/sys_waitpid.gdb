advance @waitpid
print status
next
print status
print w == pid
next
print code
reverse-next
reverse-next
print status
watch status
continue
print status
reverse-continue
print status
reverse-continue
print status
