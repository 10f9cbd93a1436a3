/* libm: functions of libm (link with -lm): sin cos tan exp log pow sqrt
 * atan2 hypot cbrt fmod remainder floor ceil round trunc lround llrint
 * frexp ldexp modf, long double versions, and the rounding modes of fenv
 * (fesetround with rint, nearbyint, lrint and arithmetic) and its
 * exception flags.  Transcendental results are printed to 13 digits:
 * glibc's and musl's libm may differ in the last bit; exactly rounded
 * operations (sqrt, rounding, fenv) are printed exactly with %a. */
#include "prog.h"
#include <fenv.h>
#include <math.h>

/* volatile: no constant folding, and no rint(-x) -> -rint(x), which gcc
 * does without -frounding-math and which is wrong under FE_UPWARD. */
static volatile double one = 1.0, three = 3.0, tiny = 1e-300, huge = 1e300, zero = 0.0;
static volatile double v25 = 2.5, vm25 = -2.5, v35 = 3.5, vm05 = -0.5;
/* Called through pointers: gcc -O2 inlines rint as copysign(|x| + 2^52 -
 * 2^52, x), right only when rounding to nearest. */
static double (*volatile rint_p)(double) = rint, (*volatile nearbyint_p)(double) = nearbyint;
static long (*volatile lrint_p)(double) = lrint;

int main(void)
{
	static const double xs[] = { 0.0, 0.1, 0.5, 1.0, 2.0, 3.14159, 10.0, 100.5, -1.25, 1e-8 };
	for (unsigned i = 0; i < sizeof xs / sizeof *xs; i++) {
		double x = xs[i];
		printf("x=%g sin %.13g cos %.13g tan %.13g exp %.13g atan %.13g\n", x, sin(x), cos(x),
		       tan(x), exp(x), atan(x));
		if (x > 0)
			printf("     log %.13g log10 %.13g log2 %.13g pow(x,1.5) %.13g sqrt %a cbrt %.13g\n",
			       log(x), log10(x), log2(x), pow(x, 1.5), sqrt(x), cbrt(x));
	}
	printf("pow: %.13g %.13g %g %g %g\n", pow(2, 0.5), pow(10, -3), pow(2, 10), (double)!!isnan(pow(-8, 1.0 / 3)),
	       pow(0, 0));
	printf("atan2 %.13g %.13g hypot %.13g %g\n", atan2(1, -1), atan2(-0.0, -1), hypot(3e200, 4e200),
	       hypot(3, 4));
	printf("fmod %g %g remainder %g %g\n", fmod(10.5, 3), fmod(-10.5, 3), remainder(10.5, 3),
	       remainder(11.5, 3));
	double ip;
	int e;
	double fr = frexp(48.0, &e), mf = modf(-3.75, &ip);
	printf("modf %g+%g frexp %g*2^%d ldexp %g scalbn %g\n", mf, ip, fr, e, ldexp(0.75, 6),
	       scalbn(1.0, -3));
	printf("sqrt exact:");
	for (int i = 2; i < 12; i++)
		printf(" %a", sqrt((double)i));
	printf("\n");
	printf("erf %.13g tgamma %.13g lgamma %.13g expm1 %.13g log1p %.13g\n", erf(0.5), tgamma(4.5),
	       lgamma(10.0), expm1(1e-5), log1p(1e-5));

	static const double halves[] = { 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999999999999996, 1e15 + 0.5 };
	for (unsigned i = 0; i < sizeof halves / sizeof *halves; i++) {
		double h = halves[i];
		printf("%.17g: floor %g ceil %g round %g trunc %g rint %g lround %ld llrint %lld\n", h, floor(h),
		       ceil(h), round(h), trunc(h), rint(h), lround(h), llrint(h));
	}

	printf("long double: sinl %.15Lg expl %.15Lg logl %.15Lg powl %.15Lg sqrtl %.19Lg\n", sinl(1.0L),
	       expl(1.0L), logl(10.0L), powl(2.0L, 0.5L), sqrtl(2.0L));
	printf("long double: floorl %Lg roundl %Lg fmodl %Lg\n", floorl(-2.5L), roundl(2.5L), fmodl(10.5L, 3.0L));

	/* rounding modes */
	static const int modes[] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
	static const char *names[] = { "nearest", "upward", "downward", "towardzero" };
	for (int i = 0; i < 4; i++) {
		CHECK(fesetround(modes[i]) == 0);
		CHECK(fegetround() == modes[i]);
		double third = one / three, mthird = -one / three;
		printf("%-10s 1/3 %a -1/3 %a rint(2.5) %g rint(-2.5) %g nearbyint(3.5) %g lrint(-0.5) %ld"
		       " float %a\n", names[i], third, mthird, rint_p(v25), rint_p(vm25), nearbyint_p(v35),
		       lrint_p(vm05), (double)((float)one / (float)three));
		long double lthird = (long double)one / 3;
		printf("%-10s long double 1/3 %.21Lg\n", names[i], lthird);
	}
	fesetround(FE_TONEAREST);

	/* exception flags from plain arithmetic */
	feclearexcept(FE_ALL_EXCEPT);
	volatile double r = one / three;
	printf("inexact after 1/3: %d\n", !!fetestexcept(FE_INEXACT));
	feclearexcept(FE_ALL_EXCEPT);
	r = one / zero;
	printf("divbyzero: %d\n", !!fetestexcept(FE_DIVBYZERO));
	feclearexcept(FE_ALL_EXCEPT);
	r = huge * huge;
	printf("overflow: %d\n", !!fetestexcept(FE_OVERFLOW));
	feclearexcept(FE_ALL_EXCEPT);
	r = tiny * tiny;
	printf("underflow: %d\n", !!fetestexcept(FE_UNDERFLOW));
	feclearexcept(FE_ALL_EXCEPT);
	r = zero / zero;
	printf("invalid: %d\n", !!fetestexcept(FE_INVALID));
	feclearexcept(FE_ALL_EXCEPT);
	r = one + one;
	printf("none after 1+1: %d\n", fetestexcept(FE_ALL_EXCEPT) == 0);
	(void)r;
	fenv_t env;
	CHECK(fegetenv(&env) == 0);
	fesetround(FE_UPWARD);
	CHECK(fesetenv(&env) == 0);
	printf("fesetenv restored nearest: %d\n", fegetround() == FE_TONEAREST);
	return prog_done("libm");
}
