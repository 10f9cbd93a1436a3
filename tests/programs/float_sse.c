/* float_sse: SSE float and double arithmetic: sums, products, division,
 * conversions to and from integers (truncation, rounding), comparisons
 * with NaN, a small matrix product and a Newton iteration, printed with
 * %f %e %g %a at several precisions and read back with strtod/strtof
 * (the round trip must be exact). */
#include "prog.h"
#include <float.h>
#include <math.h>

static volatile double vzero = 0.0;

int main(void)
{
	double sum = 0, alt = 0;
	float fsum = 0;
	for (int i = 1; i <= 100000; i++) {
		sum += 1.0 / i;
		alt += (i & 1 ? 1.0 : -1.0) / (2 * i - 1);
		fsum += 1.0f / (float)i;
	}
	printf("harmonic %.17g\nleibniz %.17g\nfloat harmonic %.9g\n", sum, alt * 4, (double)fsum);
	printf("formats: %f %e %g %.3f %.0f %10.4f|%-12.5e|%+g\n", sum, sum, sum, sum, sum, sum, sum, sum);
	printf("small: %g %g %e %.20f\n", 1e-5, 123456789.0, 1e-300, 0.1);
	printf("big: %.0f %g %e\n", 1e22, 1e100, DBL_MAX);
	printf("hex: %a %a %a %a\n", 1.0, 0.1, -2.5, 1e10);
	printf("float: %.9g %.9g %a\n", (double)FLT_MAX, (double)FLT_MIN, (double)0.1f);

	double m[4][4], n[4][4], p[4][4];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			m[i][j] = (i + 1) * 0.5 + j / 3.0;
			n[i][j] = (i == j) * 2.0 - (i + j) / 7.0;
		}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			double s = 0;
			for (int k = 0; k < 4; k++)
				s += m[i][k] * n[k][j];
			p[i][j] = s;
		}
	printf("matrix:");
	for (int i = 0; i < 4; i++)
		printf(" %.15g", p[i][i]);
	printf("\n");

	double x = 2.0; /* Newton for sqrt(2) */
	for (int i = 0; i < 6; i++)
		x = 0.5 * (x + 2.0 / x);
	printf("newton sqrt2 %.17g\n", x);

	/* conversions */
	double vals[] = { 2.5, -2.5, 3.7, -3.7, 1e10, -0.0, 4503599627370497.0 };
	for (unsigned i = 0; i < sizeof vals / sizeof *vals; i++)
		printf("conv %g: int %d long %ld float %.9g\n", vals[i], (int)(vals[i] / 1e9 > 2 ? 0 : vals[i]),
		       (long)vals[i], (double)(float)vals[i]);
	unsigned long big = 18446744073709551615ul;
	printf("ulong->double %.17g, long->float %.9g, double->ulong %lu\n", (double)big,
	       (double)(float)9007199254740993L, (unsigned long)1.8e19);

	double nan = vzero / vzero, inf = 1 / vzero;
	printf("nan: ==%d <%d >%d !=%d isnan %d; inf: %d %d; -inf < 0 %d\n", nan == nan, nan < 1, nan > 1,
	       nan != nan, !!isnan(nan), !!isinf(inf), inf > DBL_MAX, -inf < 0);
	printf("signed zero: %g %g %d\n", -0.0, 0.0 * -1, !!signbit(-vzero));
	printf("denormal: %d %.6e\n", fpclassify(DBL_MIN / 4) == FP_SUBNORMAL, DBL_MIN / 4);
	printf("epsilon: %d %d\n", 1.0 + DBL_EPSILON > 1.0, 1.0 + DBL_EPSILON / 2 == 1.0);

	/* round trips through text */
	uint64_t s = 7;
	int exact = 1;
	for (int i = 0; i < 20000; i++) {
		uint64_t bits = rng(&s);
		double d;
		memcpy(&d, &bits, sizeof d);
		if (isnan(d) || isinf(d))
			continue;
		char buf[64];
		snprintf(buf, sizeof buf, "%.17g", d);
		exact &= strtod(buf, NULL) == d;
		float f = (float)(d * 1e-300);
		snprintf(buf, sizeof buf, "%.9g", f);
		exact &= strtof(buf, NULL) == f;
	}
	printf("text round trips exact: %d\n", exact);
	printf("strtod: %.17g %.17g %g\n", strtod("0.1", NULL), strtod("1e-320", NULL), strtod("  -12.5e3xyz", NULL));
	return prog_done("float_sse");
}
