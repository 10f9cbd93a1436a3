watch counter
continue
continue
continue
print counter
reverse-continue
print counter
reverse-continue
reverse-continue
print counter
delete
watch grid[7]
continue
print i
print counter
reverse-continue
print grid[7]
delete
break @end
continue
watch local
reverse-continue
print local
reverse-continue
print i
reverse-continue
print i
continue
continue
print local
delete
watch -l grid[3]
reverse-continue
print i
print grid[3]
