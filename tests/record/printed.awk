# printed.awk: reads `rdb truss DIR` and prints, for each interval K of
# the trace, "K OUT ERR": the bytes its syscalls (and its fork children's
# recorded output) wrote to stdout and to stderr from K's start to the
# end.  rr.sh holds a replay --from K to these counts.  Only writes to
# fds 1 and 2 count: a program that writes its output through another
# fd (a dup of 1) would need more here.
function num(s,    v, i, c) {
	if (s !~ /^0x/)
		return s + 0
	v = 0
	for (i = 3; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0)
			break
		v = v * 16 + c - 1
	}
	return v
}
BEGIN { k = 1; n = 1 }
/^--- interval [0-9]+ ---$/ { k = $3 + 0; if (k > n) n = k; next }
/^--- child [0-9]+ wrote [0-9]+ bytes to std(out|err): / {
	if ($8 == "stdout:") out[k] += $5; else err[k] += $5
	next
}
/^#[0-9]+ (write|writev|pwrite64|pwritev|pwritev2|sendfile)\([12], / {
	r = $0
	sub(/.*\) = /, "", r)
	sub(/ .*/, "", r)
	if (r !~ /^(0x[0-9a-f]+|[0-9]+)$/)
		next # an error (-1 E...), or cut short (?): nothing written
	fd = $2
	sub(/^[a-z0-9]*\(/, "", fd)
	if (fd == "1,") out[k] += num(r); else err[k] += num(r)
}
END {
	so = 0; se = 0
	for (i = n; i >= 1; i--) {
		so += out[i]; se += err[i]
		a[i] = i " " so " " se
	}
	for (i = 1; i <= n; i++)
		print a[i]
}
