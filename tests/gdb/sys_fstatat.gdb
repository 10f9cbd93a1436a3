advance @fstatat
print st.st_size
next
print st.st_size
print st.st_mode & 0777
print st.st_nlink
next
print st2.st_size
reverse-next
print st2.st_size
reverse-next
print st.st_size
print st.st_nlink
watch st.st_mode
continue
print st.st_mode & 0777
stepi-out
advance @end
reverse-continue
print st.st_mode & 0777
