# native: live
awatch count
rwatch text[4]
continue
print count
continue
print copy[3]
continue
print count
delete
break @end
continue
delete
# rdb only: record full cannot go back to a read
awatch count
rwatch text[4]
reverse-continue
print count
reverse-continue
print copy[4]
reverse-continue
print count
