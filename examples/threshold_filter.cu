// Sums only the values above a threshold, per warp.
#include <cuda_runtime.h>

__global__ void sumAbove(const float *in, float *out, float threshold) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > threshold) {
    // BUG: only lanes above the threshold are here, the mask names all 32.
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0)
      atomicAdd(out, v);
  }
}

__global__ void sumAboveActive(const float *in, float *out, float threshold) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > threshold) {
    unsigned mask = __activemask(); // BUG: not a convergence guarantee
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
    if (threadIdx.x % 32 == 0)
      atomicAdd(out, v);
  }
}

__global__ void sumAboveBallot(const float *in, float *out, float threshold) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned mask = __ballot_sync(0xffffffff, v > threshold);
  if (v > threshold) {
    // BUG: the mask names exactly the lanes here, but lane + offset may not be one of them.
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
    if (threadIdx.x % 32 == __ffs(mask) - 1)
      atomicAdd(out, v);
  }
}
