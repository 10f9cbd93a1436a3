/* watch_rmw.c: read and access watchpoints on a read-modify-write
 * instruction (one stop for awatch, none for rwatch on a write that
 * changes the value) and on a string instruction's reads (rep movsb: the
 * stop is after the iteration that reads the byte), forward and back.
 * record full records no reads and cannot go back to one: the native
 * side runs the forward half live (hardware watchpoints), and the
 * backward half is compared with expected/watch_rmw.rdb.out, written by
 * hand from the forward half's stops. */
long count = 3;
char text[16] = "hello, world";
char copy[16];

void bump(void)
{
	__asm__ volatile("addq $2, %0" : "+m"(count)); // @bump
}

void copy_text(void)
{
	char *s = text, *d = copy;
	unsigned long n = 13;
	__asm__ volatile("rep movsb" : "+S"(s), "+D"(d), "+c"(n) : : "memory"); // @copy
}

int main(void)
{
	bump();
	copy_text();
	long v = count; // @read
	return v != 5 || copy[4] != 'o'; // @end
}
