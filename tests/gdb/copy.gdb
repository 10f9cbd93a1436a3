advance @memcpy
watch dst[5]
continue
print dst[5]
print dst2
stepi-out
continue
print dst[5]
reverse-continue
reverse-continue
print dst[5]
stepi-out reverse
print dst
delete
watch dst2[6]
continue
print dst2[6]
print dst2[7]
reverse-continue
print dst2[6]
delete
advance @after
reverse-step
print dst2
reverse-step
reverse-next
print dst2[1]
print dst[2]
reverse-next
print dst[2]
