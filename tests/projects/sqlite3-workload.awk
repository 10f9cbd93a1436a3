# sqlite3-workload.awk: the SQL script tests/projects/sqlite3.sh feeds the
# sqlite3 shell on stdin.  Deterministic: its own LCG, not awk's rand(), so
# every awk prints the same script.  A file database in two journal modes:
# 100,000 rows inserted in 10 transactions with the rollback journal, then
# WAL (the -shm file is mapped MAP_SHARED; fcntl locks on both files),
# indexes, joins, aggregates, 3,000 random point and range queries,
# updates, deletes and upserts in transactions (some fail on a UNIQUE
# constraint: error messages on stderr, exit status 1), VACUUM and an
# integrity check.  With -v mmap=N, `PRAGMA mmap_size=N` first: the
# database file is then read through a MAP_SHARED mapping of it (which
# grows by mremap as the file does) as well as written by write().
# (69069 * seed < 2^53: exact in the doubles awk computes with)
function rnd(n) { seed = (seed * 69069 + 12345) % 2147483648; return int(seed / 65536) % n }
BEGIN {
	seed = 42
	if (mmap)
		printf "PRAGMA mmap_size=%d;\n", mmap
	print "PRAGMA page_size=4096;"
	print "PRAGMA cache_size=1000;"
	print "CREATE TABLE t1(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);"
	print "CREATE TABLE t2(k INTEGER PRIMARY KEY, name TEXT UNIQUE, grp INTEGER);"
	for (t = 0; t < 10; t++) {
		print "BEGIN;"
		printf "WITH RECURSIVE s(x) AS (SELECT %d UNION ALL SELECT x+1 FROM s WHERE x < %d) ", t * 10000 + 1, t * 10000 + 10000
		print "INSERT INTO t1(id,a,b,c) SELECT x, (x*7919)%1000, printf('row-%06d-%s', x, hex(x*x)), x/7.0 FROM s;"
		print "COMMIT;"
	}
	print "BEGIN;"
	for (i = 1; i <= 2000; i++)
		printf "INSERT INTO t2 VALUES(%d, 'name%05d', %d);\n", i, rnd(100000), i % 37
	print "COMMIT;"
	print "PRAGMA journal_mode=WAL;"
	print "CREATE INDEX t1a ON t1(a);"
	print "CREATE INDEX t1b ON t1(b);"
	print "CREATE INDEX t2g ON t2(grp);"
	print "SELECT count(*), sum(a), min(b), max(b), round(avg(c),3) FROM t1;"
	print "SELECT a, count(*), sum(id) FROM t1 GROUP BY a ORDER BY 2 DESC, 1 LIMIT 10;"
	print "SELECT t2.grp, count(*), sum(t1.a) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t2.grp ORDER BY t2.grp;"
	print "SELECT count(*) FROM t1 WHERE b LIKE 'row-01%';"
	for (i = 0; i < 3000; i++) {
		r = rnd(10)
		if (i % 500 == 0)
			print "BEGIN;"
		if (r < 3) {
			lo = rnd(1000)
			printf "SELECT count(*), sum(id) FROM t1 WHERE a BETWEEN %d AND %d;\n", lo, lo + rnd(20)
		} else if (r < 5) {
			printf "SELECT id, a, b FROM t1 WHERE id = %d;\n", 1 + rnd(100000)
		} else if (r < 6) {
			x = 1 + rnd(99000)
			printf "SELECT t1.id, t2.name FROM t1 JOIN t2 ON t2.k = t1.a WHERE t1.id BETWEEN %d AND %d ORDER BY t1.id LIMIT 3;\n", x, x + 50
		} else if (r < 8) {
			d = rnd(100)
			x = 1 + rnd(99900)
			printf "UPDATE t1 SET a = (a + %d) %% 1000, c = c * 1.5 WHERE id BETWEEN %d AND %d;\n", d, x, x + rnd(100)
		} else if (r < 9) {
			printf "DELETE FROM t1 WHERE id = %d;\n", 1 + rnd(100000)
		} else {
			k = 1 + rnd(3000)
			v = rnd(1000000)
			printf "INSERT OR REPLACE INTO t2 VALUES(%d, 'n%d', %d);\n", k, v, rnd(37)
		}
		if (i % 500 == 499)
			print "COMMIT;"
	}
	print "SELECT count(*), sum(a), total(c) FROM t1;"
	print "SELECT grp, count(*), group_concat(k) FROM (SELECT * FROM t2 WHERE grp < 3 ORDER BY k) GROUP BY grp;"
	print "SELECT * FROM t1 WHERE id IN (SELECT k FROM t2 WHERE grp = 5) ORDER BY id LIMIT 20;"
	print "DELETE FROM t1 WHERE a < 100;"
	print "VACUUM;"
	print "PRAGMA integrity_check;"
	print "SELECT count(*), sum(a) FROM t1;"
	print ".tables"
	print ".schema t2"
}
