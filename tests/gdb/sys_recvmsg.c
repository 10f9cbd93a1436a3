/* sys_recvmsg.c: recvmsg(2) on a socketpair fills the data buffer and the
 * msghdr's lengths; going back undoes both. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

char data[12];
struct msghdr mh;
struct iovec iov;

int main(void)
{
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	send(sv[0], "message!", 8, 0);
	iov.iov_base = data;
	iov.iov_len = sizeof data;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_flags = 77; // @before
	long n = recvmsg(sv[1], &mh, 0); // @recv
	data[0] = 'M'; // @after
	return n != 8; // @end
}
