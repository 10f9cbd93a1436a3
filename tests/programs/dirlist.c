/* dirlist: a directory tree made in a fresh temporary directory, listed
 * with opendir/readdir (names sorted before printing: the order readdir
 * returns depends on the file system), scandir with alphasort, a
 * recursive walk with fstatat for types and sizes, rewinddir, and
 * removal of the whole tree. */
#include "prog.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int filter_dots(const struct dirent *d) { return d->d_name[0] != '.'; }

/* prints the tree under path, sorted, with sizes of regular files */
static void walk(const char *path, int depth, long *files, long *bytes)
{
	DIR *d = opendir(path);
	CHECK(d != NULL);
	if (!d)
		return;
	char *names[256];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && n < 256)
			names[n++] = strdup(e->d_name);
	qsort(names, n, sizeof *names, cmpstr);
	for (int i = 0; i < n; i++) {
		struct stat st;
		CHECK(fstatat(dirfd(d), names[i], &st, AT_SYMLINK_NOFOLLOW) == 0);
		char type = S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : S_ISREG(st.st_mode) ? 'f' : '?';
		printf("%*s%c %s", depth * 2, "", type, names[i]);
		if (type == 'f') {
			printf(" %lld", (long long)st.st_size);
			(*files)++;
			*bytes += st.st_size;
		}
		printf("\n");
		if (type == 'd') {
			char sub[1024];
			snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
			walk(sub, depth + 1, files, bytes);
		}
		free(names[i]);
	}
	closedir(d);
}

static void rmtree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[1024];
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		struct stat st;
		lstat(sub, &st);
		if (S_ISDIR(st.st_mode))
			rmtree(sub);
		else
			CHECK(unlink(sub) == 0);
	}
	closedir(d);
	CHECK(rmdir(path) == 0);
}

int main(void)
{
	char root[256], p[1024];
	prog_tmpdir(root, sizeof root, "dirlist");
	static const char *dirs[] = { "alpha", "beta", "beta/inner", "beta/inner/deep", "gamma", "Zeta" };
	for (unsigned i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
		CHECK(mkdir(p, 0755) == 0);
	}
	for (int i = 0; i < 40; i++) {
		snprintf(p, sizeof p, "%s/%s/file-%02d.txt", root, dirs[i % 6], (i * 17) % 40);
		int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		CHECK(fd >= 0);
		for (int k = 0; k < i; k++)
			CHECK(write(fd, "0123456789", 10) == 10);
		close(fd);
	}
	snprintf(p, sizeof p, "%s/link-to-beta", root);
	CHECK(symlink("beta", p) == 0);
	snprintf(p, sizeof p, "%s/.hidden", root);
	close(open(p, O_CREAT | O_WRONLY, 0600));

	long files = 0, bytes = 0;
	walk(root, 0, &files, &bytes);
	printf("%ld files, %ld bytes\n", files, bytes);

	struct dirent **list;
	int n = scandir(root, &list, filter_dots, alphasort);
	printf("scandir (%d):", n);
	for (int i = 0; i < n; i++) {
		printf(" %s", list[i]->d_name);
		free(list[i]);
	}
	printf("\n");
	free(list);

	DIR *d = opendir(root);
	int first = 0, second = 0;
	while (readdir(d))
		first++;
	rewinddir(d);
	while (readdir(d))
		second++;
	closedir(d);
	printf("rewinddir: %d entries twice: %d\n", first, first == second);

	snprintf(p, sizeof p, "%s/alpha", root);
	DIR *ok = opendir(p);
	CHECK(ok != NULL);
	if (ok)
		closedir(ok);
	snprintf(p, sizeof p, "%s/alpha/file-00.txt", root);
	CHECK(opendir(p) == NULL);
	printf("opendir of a file: %s\n", errname(errno));
	rmtree(root);
	printf("removed: %d\n", access(root, F_OK) == -1 && errno == ENOENT);
	return prog_done("dirlist");
}
