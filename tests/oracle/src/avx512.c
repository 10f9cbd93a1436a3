/* oracle-flags: -mavx512f -mavx512bw -mavx512vl -mavx512dq */
#include <immintrin.h>
#include <string.h>
__m512 f1(const float *p) { return _mm512_loadu_ps(p); }
void f2(float *p, __m512 a) { _mm512_storeu_ps(p, a); }
__m512i f3(const void *p, __mmask16 m, __m512i s) { return _mm512_mask_loadu_epi32(s, m, p); }
void f4(void *p, __mmask64 m, __m512i a) { _mm512_mask_storeu_epi8(p, m, a); }
__m512i f5(const void *p, __mmask32 m) { return _mm512_maskz_loadu_epi16(m, p); }
__m512i f6(const void *p) { return _mm512_load_epi64(p); }
void f7(void *p, __m512i a) { _mm512_store_si512(p, a); _mm512_stream_si512(p, a); }
__m512d f8(__m512d a, const double *p) { return _mm512_add_pd(a, _mm512_set1_pd(*p)); }
__m512 f9(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
__mmask16 f10(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OS); }
__mmask64 f11(__m512i a, __m512i b) { return _mm512_cmpeq_epi8_mask(a, b); }
int f12(__mmask16 m) { return _mm512_kortestz(m, m); }
__m512i f13(__m512i a, __m512i b) { return _mm512_ternarylogic_epi32(a, b, a, 0x96); }
__m256i f14(__m512i a) { return _mm512_extracti64x4_epi64(a, 1); }
__m512i f15(__m512i a, __m256i b) { return _mm512_inserti64x4(a, b, 1); }
void f16(char *d, const char *s) { memcpy(d, s, 256); }
void f17(int *d, int n) { for (int i = 0; i < n; i++) d[i] = d[i] * 3 + 1; }
void f18(double *d, const double *s, int n) { for (int i = 0; i < n; i++) d[i] = d[i] > s[i] ? d[i] : s[i]; }
__m512i f19(__m512i a, __m512i b) { return _mm512_xor_si512(_mm512_and_epi64(a, b), _mm512_or_epi32(a, b)); }
__m512i f20(__m512i a, __m512i i, __m512i b) { return _mm512_permutex2var_epi32(a, i, b); }
__m128 f21(__m512 a) { return _mm512_extractf32x4_ps(a, 2); }
__m512 f22(__m512 a, const __m128 *p) { return _mm512_insertf32x4(a, *p, 1); }
__m512i f23(const __m256i *p) { return _mm512_broadcast_i64x4(*p); }
__m256i f24(__m256i a, __m256i b, __mmask8 m) { return _mm256_mask_add_epi32(a, m, a, b); }
void f25(float *p, __m256 a, __mmask8 m) { _mm256_mask_storeu_ps(p, m, a); }
__m512i f26(__m512i a) { return _mm512_srai_epi64(_mm512_slli_epi32(a, 3), 2); }
__m512 f27(__m512 a, __m512 b) { return _mm512_max_ps(_mm512_sqrt_ps(a), b); }
__m512d f28(__m256 a) { return _mm512_cvtps_pd(a); }
__m512i f29(__m512i a, const int *p) { return _mm512_add_epi32(a, _mm512_set1_epi32(*p)); }
void f30(long *d, long v, int n) { for (int i = 0; i < n; i++) d[i] = v; }
__m512i f31(__mmask16 m, __m512i a) { return _mm512_maskz_mov_epi32(m, a); }
__m128i f32(__m128i a, __m128i b) { return _mm_mask_xor_epi32(a, 3, a, b); }
__mmask8 f33(__mmask8 a, __mmask8 b) { return _kand_mask8(a, b); }
__m512i f34(__m512i a) { return _mm512_shuffle_epi32(a, 0x1b); }
int f35(const __mmask16 *p) { return _mm512_mask2int(*p); }
