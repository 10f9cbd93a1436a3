handle SIGUSR1 nostop noprint pass
advance @raise
watch flag
continue
print count
continue
print count
reverse-continue
print flag
reverse-continue
print count
delete
break on_usr1
continue
print count
reverse-continue
print count
reverse-step
stepi-out reverse
print count
delete
next
print count
advance @after2
print count
reverse-next
print count
reverse-next
print count
next
print count
next
print count
