/* stepi.c: stepi and nexti, compared only where both builds must agree
 * (rdb-cc adds hook instructions to each line): stepping instructions
 * until the line changes, forward and back, into and over calls. */
long acc;

long mix(long a, long b)
{
	long r = a * 31 + b; // @mix_body
	return r ^ (r >> 3);
}

int main(void)
{
	long x = 5;
	acc = mix(x, 7); // @call
	acc += x; // @add
	x = acc * 2; // @dbl
	return x == 0;
}
