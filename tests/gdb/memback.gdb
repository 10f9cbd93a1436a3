# rdb record: --every-sic 1000
# From the end back to the last round (an interval of its own in rdb's
# recording, which touches neither sink nor box): the globals and the
# heap object as the run had them there, before and after the round's
# write of round_no.
break @end
continue
delete
break @round
reverse-continue
print sink
print *box
print box->name
print round_no
next
print round_no
print sink
reverse-continue
print round_no
print *box
print box->a + box->b
print sink
