// The sm_90 path lives in a header included only for sm_90.
__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
#include "sm90_path.cuh"
#endif
  out[threadIdx.x] = v;
}
