/* float_x87: long double (80-bit x87) arithmetic: sums, products,
 * division, conversions to and from double and integers, printed with
 * %Lf %Le %Lg at full precision (decimal output of long double is exact in
 * both C libraries; %La is not used: glibc and musl normalise it
 * differently), a Newton square root, frexpl/ldexpl/fabsl, and the
 * precision difference from double. */
#include "prog.h"
#include <float.h>
#include <math.h>

int main(void)
{
	long double sum = 0, prod = 1;
	for (int i = 1; i <= 50000; i++) {
		sum += 1.0L / i;
		if (i <= 25)
			prod *= i;
	}
	printf("harmonic %.21Lg\n25! = %.0Lf\n", sum, prod);
	printf("formats: %Lf %Le %Lg %.30Le\n", sum, sum, sum, sum);
	printf("limits: %.21Lg %.21Lg %Lg\n", LDBL_EPSILON, LDBL_MIN, LDBL_MAX);
	printf("dig %d mant %d\n", LDBL_DIG, LDBL_MANT_DIG);

	long double x = 2.0L;
	for (int i = 0; i < 8; i++)
		x = 0.5L * (x + 2.0L / x);
	printf("newton sqrt2 %.21Lg, squared - 2 = %Lg\n", x, x * x - 2.0L);

	/* precision beyond double */
	long double big = 9007199254740993.0L; /* 2^53 + 1: exact here */
	double dbig = (double)big;
	printf("2^53+1 as long double %.0Lf, as double %.0f\n", big, dbig);
	long long ll = (long long)(big * 1000);
	printf("to long long %lld, back %.0Lf\n", ll, (long double)ll);
	unsigned long long ull = 18446744073709551615ull;
	printf("ulong max exact: %.0Lf\n", (long double)ull);
	printf("third: %.25Lf vs %.25f\n", 1.0L / 3, 1.0 / 3);

	int e;
	long double m = frexpl(sum * 1024, &e);
	printf("frexpl %.21Lg exp %d; ldexpl %.21Lg; fabsl %Lg\n", m, e, ldexpl(m, e), fabsl(-m));

	/* mixed double/long double expression */
	volatile double d = 0.1;
	long double mixed = d * 3.0L + (long double)(float)d;
	printf("mixed %.21Lg\n", mixed);
	long double acc = 0;
	for (int i = 0; i < 1000; i++)
		acc = acc * 1.0001L + (long double)i / 7.0L;
	printf("series %.21Lg\n", acc);
	printf("compare: %d %d %d\n", 1.0L + LDBL_EPSILON > 1.0L, (double)(1.0L + LDBL_EPSILON) == 1.0,
	       0.1L == (long double)0.1);
	return prog_done("float_x87");
}
