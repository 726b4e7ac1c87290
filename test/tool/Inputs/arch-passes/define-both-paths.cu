// A macro every arch defines, differently: the sm_80 definition is what the
// shuffle below expands to there, so the #define in the skipped branch is
// warp code and sm_80 gets a pass, which finds the full mask its definition
// puts under a half-warp branch.
#if __CUDA_ARCH__ >= 800
#define HALF_MASK 0xffffffffu
#else
#define HALF_MASK 0x0000ffffu
#endif

__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(HALF_MASK, v, 1);
  out[threadIdx.x] = v;
}
