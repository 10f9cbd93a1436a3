advance @close
print got
print big[2][12345]
reverse-next
print got[2]
reverse-next
print got
next
print got[1]
print big[1][199999]
next
print got[2]
print big[2][12345]
print big[2][54321]
reverse-next
reverse-next
print got
next
next
next
print got
print big[0][100] + big[1][200] + big[2][300]
