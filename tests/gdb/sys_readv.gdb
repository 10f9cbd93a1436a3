advance @readv
print head
print tail
next
print n
print head
print tail
next
print head
watch tail[5]
reverse-continue
print tail
print head
reverse-next
print tail
continue
print tail
