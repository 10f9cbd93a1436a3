/* watch_read.c: read and access watchpoints (rwatch, awatch), forward and
 * back.  record full records no reads, so it cannot go back to one: the
 * native side runs the forward half live (hardware watchpoints), and the
 * backward half is compared with expected/watch_read.rdb.out, written by
 * hand from the forward half's stops. */
int shared = 5;
int out;

int reader(int k)
{
	return shared * k; // @read
}

void writer(int v)
{
	shared = v; // @write
}

int main(void)
{
	for (int i = 1; i <= 4; i++) {
		out += reader(i); // @loop
		if (i == 2)
			writer(9);
	}
	out += 1; // @end
	return out == 0;
}
