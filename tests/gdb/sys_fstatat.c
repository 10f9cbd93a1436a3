/* sys_fstatat.c: fstatat(2) and fstat fill struct stat; going back over
 * them restores the fields the session prints (size, mode, links). */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct stat st;
struct stat st2;

int main(void)
{
	int fd = open("st.txt", O_CREAT | O_TRUNC | O_WRONLY, 0640);
	write(fd, "twenty-three bytes long", 23);
	st.st_size = -1; // @before
	fstatat(AT_FDCWD, "st.txt", &st, 0); // @fstatat
	fstat(fd, &st2); // @fstat
	close(fd);
	unlink("st.txt");
	return st.st_size != st2.st_size; // @end
}
