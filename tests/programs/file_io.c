/* file_io: open/read/write/lseek/pread/pwrite/readv/writev/stat/fstat/
 * ftruncate/rename/link/symlink/readlink/unlink/mkdir/rmdir/getdents64
 * on a fresh temporary directory.  The file is deleted before the
 * program ends (replay must not need it). */
#include "prog.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char dir[256], path[512], path2[512];
	umask(022);
	prog_tmpdir(dir, sizeof dir, "fileio");
	snprintf(path, sizeof path, "%s/data.bin", dir);

	int fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0644);
	CHECK(fd >= 0);
	char buf[8192];
	for (int i = 0; i < (int)sizeof buf; i++)
		buf[i] = (char)(i * 7 + (i >> 8));
	CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
	CHECK(lseek(fd, 0, SEEK_CUR) == 8192);
	CHECK(lseek(fd, 100, SEEK_SET) == 100);
	char small[64];
	CHECK(read(fd, small, sizeof small) == 64);
	CHECK(memcmp(small, buf + 100, 64) == 0);
	CHECK(pread(fd, small, 32, 4000) == 32);
	CHECK(memcmp(small, buf + 4000, 32) == 0);
	CHECK(lseek(fd, 0, SEEK_CUR) == 164); /* pread leaves the offset */
	CHECK(pwrite(fd, "HELLO", 5, 10) == 5);
	CHECK(lseek(fd, 0, SEEK_END) == 8192);
	CHECK(read(fd, small, 10) == 0); /* end of file */

	/* A hole: write past the end. */
	CHECK(lseek(fd, 20000, SEEK_SET) == 20000);
	CHECK(write(fd, "tail", 4) == 4);
	struct stat st;
	CHECK(fstat(fd, &st) == 0);
	printf("size after hole: %lld, regular: %d, mode: %o\n",
	       (long long)st.st_size, S_ISREG(st.st_mode), st.st_mode & 0777);
	CHECK(pread(fd, small, 16, 15000) == 16);
	int zeros = 0;
	for (int i = 0; i < 16; i++)
		zeros += small[i] == 0;
	printf("hole reads zeros: %d\n", zeros);

	/* readv / writev */
	struct iovec iov[3] = {
		{ "abc", 3 }, { "defgh", 5 }, { "ij", 2 },
	};
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(writev(fd, iov, 3) == 10);
	char a[4] = { 0 }, b[7] = { 0 };
	struct iovec riov[2] = { { a, 3 }, { b, 6 } };
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(readv(fd, riov, 2) == 9);
	printf("readv: %s %s\n", a, b);

	CHECK(ftruncate(fd, 4096) == 0);
	CHECK(fstat(fd, &st) == 0);
	printf("size after truncate: %lld\n", (long long)st.st_size);

	/* checksum of the whole file, read in odd-sized pieces */
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	uint64_t h = 0;
	ssize_t n;
	size_t total = 0;
	while ((n = read(fd, buf, 777)) > 0) {
		h = fnv(buf, n, h);
		total += n;
	}
	printf("content: %zu bytes, hash %016llx\n", total, (unsigned long long)h);
	CHECK(close(fd) == 0);
	CHECK(close(fd) == -1 && errno == EBADF);

	/* errors carry their errno */
	snprintf(path2, sizeof path2, "%s/missing", dir);
	CHECK(open(path2, O_RDONLY) == -1);
	printf("open missing: %s\n", errname(errno));
	CHECK(open(path, O_CREAT | O_EXCL | O_RDWR, 0644) == -1);
	printf("open exclusive existing: %s\n", errname(errno));
	CHECK(lseek(0 + 1000, 0, SEEK_SET) == -1);
	printf("lseek bad fd: %s\n", errname(errno));

	/* names: rename, link, symlink, readlink, stat, lstat, access */
	snprintf(path2, sizeof path2, "%s/renamed.bin", dir);
	CHECK(rename(path, path2) == 0);
	CHECK(access(path, F_OK) == -1 && errno == ENOENT);
	CHECK(access(path2, R_OK | W_OK) == 0);
	char lpath[512], spath[512], sub[512];
	snprintf(lpath, sizeof lpath, "%s/hard", dir);
	snprintf(spath, sizeof spath, "%s/soft", dir);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	CHECK(link(path2, lpath) == 0);
	CHECK(symlink("renamed.bin", spath) == 0);
	char target[64];
	ssize_t tl = readlink(spath, target, sizeof target - 1);
	CHECK(tl > 0);
	target[tl > 0 ? tl : 0] = 0;
	printf("readlink: %s\n", target);
	struct stat st2;
	CHECK(stat(spath, &st) == 0 && lstat(spath, &st2) == 0);
	printf("stat follows: %d, lstat link: %d, nlink: %ld\n",
	       S_ISREG(st.st_mode), S_ISLNK(st2.st_mode), (long)st.st_nlink);
	CHECK(mkdir(sub, 0755) == 0);
	CHECK(mkdir(sub, 0755) == -1 && errno == EEXIST);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(dfd >= 0);
	int fd2 = openat(dfd, "sub/inner.txt", O_CREAT | O_WRONLY | O_TRUNC, 0600);
	CHECK(fd2 >= 0);
	CHECK(write(fd2, "inner\n", 6) == 6);
	close(fd2);
	CHECK(fstatat(dfd, "sub/inner.txt", &st, 0) == 0 && st.st_size == 6);

	/* getdents64 directly: names sorted before printing */
	char dbuf[4096];
	char *names[32];
	int nn = 0;
	long got;
	while ((got = syscall(SYS_getdents64, dfd, dbuf, sizeof dbuf)) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (void *)(dbuf + off);
			if (nn < 32)
				names[nn++] = strdup(d->d_name);
			off += d->d_reclen;
		}
	}
	CHECK(got == 0);
	qsort(names, nn, sizeof *names, cmpstr);
	printf("getdents64:");
	for (int i = 0; i < nn; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");

	/* clean up: the directory must be empty to go */
	CHECK(rmdir(dir) == -1 && errno == ENOTEMPTY);
	CHECK(unlinkat(dfd, "sub/inner.txt", 0) == 0);
	CHECK(unlinkat(dfd, "sub", AT_REMOVEDIR) == 0);
	CHECK(unlink(spath) == 0 && unlink(lpath) == 0 && unlink(path2) == 0);
	close(dfd);
	CHECK(rmdir(dir) == 0);
	return prog_done("file_io");
}
