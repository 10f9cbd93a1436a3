/* oracle-flags: -mavx2 -mfma -mf16c */
#include <immintrin.h>
__m256 f1(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
__m256d f2(__m256d a, __m256d b, __m256d c) { return _mm256_fnmsub_pd(a, b, c); }
__m128 f3(__m128 a, __m128 b, const float *p) { return _mm_fmsub_ss(a, b, _mm_load_ss(p)); }
__m256i f4(__m256i a, __m256i b) { return _mm256_add_epi16(_mm256_mullo_epi32(a, b), _mm256_shuffle_epi8(a, b)); }
__m256 f5(const float *p) { return _mm256_loadu_ps(p); }
void f6(float *p, __m256 a) { _mm256_storeu_ps(p, a); _mm256_stream_ps(p + 16, a); }
__m256i f7(__m256i a) { return _mm256_permute4x64_epi64(a, 0x1b); }
__m256i f8(__m256i a, __m256i b) { return _mm256_permutevar8x32_epi32(a, b); }
__m256 f9(__m256 a, __m256 b) { return _mm256_permute2f128_ps(a, b, 0x21); }
__m128i f10(__m256i a) { return _mm256_extracti128_si256(a, 1); }
__m256i f11(__m256i a, const __m128i *p) { return _mm256_inserti128_si256(a, _mm_loadu_si128(p), 1); }
__m256 f12(const float *p) { return _mm256_broadcast_ss(p); }
__m256d f13(const double *p) { return _mm256_broadcast_sd(p); }
__m256i f14(const char *p) { return _mm256_set1_epi8(*p); }
__m256i f15(const __m128i *p) { return _mm256_broadcastsi128_si256(_mm_loadu_si128(p)); }
int f16(__m256 a) { return _mm256_movemask_ps(a); }
int f17(__m256i a) { return _mm256_movemask_epi8(a); }
int f18(__m256i a, __m256i b) { return _mm256_testz_si256(a, b) + _mm256_testc_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)); }
__m256 f19(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
__m256d f20(__m256d a, __m256d b) { return _mm256_blendv_pd(a, b, _mm256_cmp_pd(a, b, _CMP_NEQ_UQ)); }
__m256i f21(__m128i a) { return _mm256_cvtepu8_epi32(a); }
__m256i f22(const void *p) { return _mm256_cvtepi16_epi64(_mm_loadl_epi64(p)); }
__m256d f23(__m128 a) { return _mm256_cvtps_pd(a); }
__m128 f24(__m256d a) { return _mm256_cvtpd_ps(a); }
__m128i f25(__m256d a) { return _mm256_cvttpd_epi32(a); }
__m256 f26(__m128i a) { return _mm256_cvtph_ps(a); }
__m128i f27(__m256 a) { return _mm256_cvtps_ph(a, 0); }
void f28(float *p, __m256i m, __m256 a) { _mm256_maskstore_ps(p, m, a); }
__m256i f29(const int *p, __m256i m) { return _mm256_maskload_epi32(p, m); }
__m256i f30(__m256i a, __m128i c) { return _mm256_sra_epi32(_mm256_sllv_epi32(a, a), c); }
__m256i f31(__m256i a) { return _mm256_srli_si256(_mm256_slli_epi16(a, 3), 4); }
__m256 f32(__m256 a) { return _mm256_round_ps(_mm256_sqrt_ps(_mm256_rcp_ps(a)), 1); }
__m256 f33(__m256 a, __m256 b) { return _mm256_dp_ps(_mm256_hadd_ps(a, b), _mm256_addsub_ps(a, b), 0xf1); }
__m256i f34(__m256i a, __m256i b) { return _mm256_blend_epi32(_mm256_packus_epi32(a, b), _mm256_unpackhi_epi64(a, b), 0x5); }
__m256 f35(__m256 a) { return _mm256_permute_ps(_mm256_movehdup_ps(a), 0x1b); }
__m256d f36(__m256d a, __m256i c) { return _mm256_permutevar_pd(_mm256_movedup_pd(a), c); }
float f37(__m256 a) { return _mm256_cvtss_f32(_mm256_shuffle_ps(a, a, 3)); }
double f38(double a, double b, double c) { return __builtin_fma(a, b, c); }
float f39(float a, float b, float c) { return __builtin_fmaf(a, -b, c); }
void f40(float *d, const float *s, int n) { for (int i = 0; i < n; i++) d[i] = d[i] * s[i] + 1.0f; }
void f41(double *d, const int *s, int n) { for (int i = 0; i < n; i++) d[i] += s[i]; }
int f42(const int *s, int n) { int m = 0; for (int i = 0; i < n; i++) m = s[i] > m ? s[i] : m; return m; }
long f43(const unsigned char *s, int n) { long t = 0; for (int i = 0; i < n; i++) t += s[i]; return t; }
void f44(short *d, const short *s, int n) { for (int i = 0; i < n; i++) d[i] = (short)((d[i] * s[i]) >> 3); }
__m256i f45(__m256i a, __m256i b) { return _mm256_sad_epu8(_mm256_abs_epi8(a), _mm256_avg_epu16(a, b)); }
__m256i f46(__m256i a, __m256i b) { return _mm256_cmpgt_epi64(_mm256_max_epi32(a, b), _mm256_mul_epu32(a, b)); }
__m128 f47(__m128 a, const float *p) { return _mm_fmadd_ps(a, _mm_loadu_ps(p), a); }
__m256i f48(__m256i a, __m256i b) { return _mm256_alignr_epi8(_mm256_madd_epi16(a, b), _mm256_mulhrs_epi16(a, b), 5); }
void f49(void) { _mm256_zeroupper(); _mm256_zeroall(); }
__m128i f50(__m128i a, const long long *p) { return _mm_maskload_epi64(p, a); }
