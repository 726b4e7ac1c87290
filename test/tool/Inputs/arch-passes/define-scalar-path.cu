// A macro defined only for sm_90 and newer that selects scalar code alone
// (as ggml's BLACKWELL_MMA_AVAILABLE around its fp8 conversion): the #define
// changes no warp code, so it is no reason for a pass. Nor is a macro that
// stands for a qualifier on one path and for nothing on another (ggml's
// GGML_CUDA_RESTRICT): it changes no value.
#if __CUDA_ARCH__ >= 900
#define HAS_FP8_CONVERT 1
#endif

#if __CUDA_ARCH__ >= 900
#define MAYBE_RESTRICT
#else
#define MAYBE_RESTRICT __restrict__
#endif

__device__ unsigned char toScale(float x) {
#ifdef HAS_FP8_CONVERT
  return x > 0.0f ? static_cast<unsigned char>(x * 16.0f) : 0;
#else
  return 0;
#endif
}

__global__ void kernel(unsigned char *MAYBE_RESTRICT out, const float *MAYBE_RESTRICT in) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = toScale(v);
}
