handle SIGUSR1 nostop noprint pass
advance @raise
watch flag
continue
print count
print flag
continue
print count
reverse-continue
print flag
delete
break on_usr1
continue
print count
continue
print count
reverse-continue
print count
reverse-continue
print count
reverse-step
print count
delete
advance @after2
reverse-next
print count
reverse-next
print count
next
print count
