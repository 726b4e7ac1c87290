// Arch conditions that skip no warp code: one analysis pass.
#include <nv/target>
#define FULL_MASK 0xffffffffu

__device__ float scale(float v) { return v * 2.0f; }

__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  v = scale(v) + __ldg(in);
#else
  v *= 3.0f;
#endif
  NV_IF_TARGET(NV_PROVIDES_SM_90, (v += 1.0f;))
#ifndef __CUDA_ARCH__
  v = 0; // host only
#endif
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  out[threadIdx.x] = v;
}
