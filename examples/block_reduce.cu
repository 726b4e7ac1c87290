// Block-wide sum: warp shuffles, then one warp reduces the per-warp partials.
#include <cuda_runtime.h>

constexpr unsigned kNoLanes = 0;

__device__ float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float warpSums[32];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;

  float v = gid < n ? in[gid] : 0.0f;
  v = warpReduceSum(v);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = warpSums[lane]; // BUG: slots past blockDim.x / 32 were never written
    v = warpReduceSum(v);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void countPositive(const float *in, unsigned *count) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned positive = __ballot_sync(kNoLanes, v > 0.0f); // BUG: zero mask
  if (threadIdx.x % 32 == 0)
    atomicAdd(count, __popc(positive));
}

// Each value as a fraction of its warp's sum.
__global__ void warpShares(const float *in, float *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  float total = warpReduceSum(v);
  out[gid] = v / total; // BUG: only lane 0 holds the warp's total
}
