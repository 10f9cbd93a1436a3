# native: live
rwatch shared
continue
print k
delete
awatch shared
continue
print k
continue
print v
continue
print k
delete
rwatch shared
continue
print k
delete
break @end
continue
print out
# rdb only: record full cannot go back to a read
rwatch shared
reverse-continue
print k
reverse-continue
print k
reverse-continue
print k
delete
break @end
continue
delete
awatch shared
reverse-continue
print k
reverse-continue
print k
reverse-continue
print v
reverse-continue
print k
