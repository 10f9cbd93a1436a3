/* oracle-flags: -msse4.2 -mpclmul -maes */
#include <immintrin.h>
__m128 f1(__m128 a, __m128 b) { return _mm_add_ps(_mm_mul_ps(a, b), _mm_sub_ps(a, b)); }
__m128d f2(__m128d a, __m128d b) { return _mm_div_pd(_mm_max_pd(a, b), _mm_min_pd(a, b)); }
__m128i f3(__m128i a, __m128i b) { return _mm_add_epi32(_mm_mullo_epi32(a, b), _mm_sub_epi8(a, b)); }
__m128i f4(__m128i a, __m128i b) { return _mm_shuffle_epi8(_mm_xor_si128(a, b), _mm_and_si128(a, b)); }
int f5(__m128i a, __m128i b) { return _mm_cmpistri(a, b, _SIDD_CMP_EQUAL_EACH); }
int f6(__m128i a, __m128i b) { return _mm_testz_si128(a, b); }
int f7(__m128 a) { return _mm_movemask_ps(a); }
int f8(__m128i a) { return _mm_movemask_epi8(a); }
__m128 f9(__m128 a, __m128 b) { return _mm_blendv_ps(a, b, _mm_cmplt_ps(a, b)); }
__m128 f10(__m128 a) { return _mm_round_ps(_mm_sqrt_ps(a), 1); }
int f11(__m128i a) { return _mm_extract_epi32(a, 2) + _mm_extract_epi16(a, 1) + _mm_extract_epi8(a, 3); }
__m128i f12(__m128i a, int b, long c) { return _mm_insert_epi64(_mm_insert_epi32(_mm_insert_epi8(a, b, 2), b, 1), c, 1); }
__m128 f13(const float *p) { return _mm_loadu_ps(p); }
void f14(float *p, __m128 a) { _mm_storeu_ps(p, a); _mm_store_ss(p + 8, a); }
void f15(double *p, __m128d a) { _mm_stream_pd(p, a); _mm_storeh_pd(p + 4, a); _mm_storel_pd(p + 6, a); }
__m128d f16(const double *p, __m128d a) { return _mm_loadh_pd(_mm_loadl_pd(a, p), p + 1); }
__m128i f17(const __m128i *p) { return _mm_stream_load_si128((__m128i *)p); }
void f18(int *p, int v) { _mm_stream_si32(p, v); }
void f19(__m128i a, __m128i m, char *p) { _mm_maskmoveu_si128(a, m, p); }
int f20(double a, double b) { return _mm_comilt_sd(_mm_set_sd(a), _mm_set_sd(b)) + _mm_ucomige_sd(_mm_set_sd(a), _mm_set_sd(b)); }
__m128i f21(__m128i a) { return _mm_cvtepu8_epi32(a); }
__m128i f22(const int *p) { return _mm_cvtepi16_epi64(_mm_loadu_si32(p)); }
__m128 f23(__m128i a) { return _mm_cvtepi32_ps(a); }
__m128d f24(__m128 a) { return _mm_cvtps_pd(a); }
__m128i f25(__m128d a) { return _mm_cvttpd_epi32(a); }
__m128i f26(__m128i a, __m128i b) { return _mm_packus_epi16(_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi16(a, b)); }
__m128i f27(__m128i a) { return _mm_srli_epi32(_mm_slli_epi64(_mm_srai_epi16(a, 3), 2), 1); }
__m128i f28(__m128i a, __m128i b) { return _mm_sll_epi32(_mm_srl_epi16(a, b), b); }
__m128i f29(__m128i a) { return _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_shufflelo_epi16(a, 1), 2), 3); }
__m128i f30(__m128i a, __m128i b) { return _mm_alignr_epi8(_mm_blend_epi16(a, b, 5), b, 3); }
__m128 f31(__m128 a, __m128 b) { return _mm_dp_ps(_mm_hadd_ps(a, b), b, 0xff); }
__m128i f32(__m128i a, __m128i b) { return _mm_clmulepi64_si128(_mm_aesenc_si128(a, b), b, 1); }
unsigned f33(unsigned c, unsigned char v, unsigned long w) { return _mm_crc32_u8(c, v) + _mm_crc32_u32(c, v) + (unsigned)_mm_crc32_u64(c, w); }
__m128i f34(__m128i a, __m128i b) { return _mm_cmpeq_epi64(_mm_cmpgt_epi8(a, b), _mm_min_epu16(a, b)); }
__m128i f35(__m128i a, __m128i b) { return _mm_sad_epu8(_mm_avg_epu8(a, b), _mm_abs_epi16(b)); }
unsigned f36(void) { unsigned c = _mm_getcsr(); _mm_setcsr(c); return c; }
__m128 f37(__m128 a, __m128 b) { return _mm_cmpneq_ss(_mm_cmple_ps(a, b), _mm_cmpunord_ps(a, b)); }
__m128 f38(__m128 a, const float *p) { return _mm_movehl_ps(a, _mm_loadh_pi(a, (const __m64 *)p)); }
__m128d f39(__m128d a) { return _mm_movedup_pd(_mm_unpackhi_pd(a, a)); }
int f40(__m128i a, __m128i b) { return _mm_cmpestri(a, 4, b, 5, 0); }
__m128i f41(__m128i a, __m128i b) { return _mm_cmpistrm(a, b, 0); }
__m128 f42(__m128 a, __m128 b) { return _mm_rcp_ps(_mm_rsqrt_ss(_mm_andnot_ps(a, b))); }
void f43(const void *p) { _mm_prefetch(p, _MM_HINT_T0); _mm_prefetch(p, _MM_HINT_NTA); _mm_clflush(p); _mm_lfence(); _mm_sfence(); _mm_mfence(); _mm_pause(); }
int f44(__m128 a) { return _mm_cvtss_si32(a) + _mm_cvttss_si32(a) + (int)_mm_cvtsd_si64(_mm_castps_pd(a)); }
__m128d f45(__m128d a, int i, long l) { return _mm_cvtsi64_sd(_mm_cvtsi32_sd(a, i), l); }
__m128i f46(__m128i a) { return _mm_minpos_epu16(_mm_mulhrs_epi16(a, _mm_maddubs_epi16(a, a))); }
__m128i f47(__m128i a) { return _mm_insert_epi16(_mm_sign_epi8(_mm_hsub_epi16(a, a), a), 7, 3); }
float f48(__m128 a, float *p) { _MM_EXTRACT_FLOAT(*p, a, 2); return p[0]; }
__m128 f49(__m128 a, __m128 b) { return _mm_insert_ps(a, b, 0x10); }
__m128i f50(__m128i a, __m128i b) { return _mm_mpsadbw_epu8(_mm_packs_epi32(a, b), b, 1); }
