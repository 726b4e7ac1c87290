// The correct forms of the patterns in the other examples: warp-tidy stays
// silent here.
#include <cuda_runtime.h>

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
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void scanUp(const int *in, int *out) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  for (int offset = 1; offset < 32; offset *= 2) {
    int other = __shfl_up_sync(0xffffffff, v, offset);
    if (lane >= offset)
      v += other;
  }
  out[threadIdx.x] = v;
}

__global__ void sumAbove(const float *in, float *out, float threshold) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float contribution = v > threshold ? v : 0.0f;
  contribution = warpReduceSum(contribution);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, contribution);
}

__global__ void countHits(const int *flags, unsigned *hits) {
  unsigned val = flags[blockIdx.x * blockDim.x + threadIdx.x] != 0;
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(0xffffffff, val);
#else
  for (int offset = 16; offset > 0; offset >>= 1)
    val += __shfl_down_sync(0xffffffff, val, offset);
#endif
  if (threadIdx.x % 32 == 0)
    atomicAdd(hits, val);
}

__global__ void warpShares(const float *in, float *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  float total = __shfl_sync(0xffffffff, warpReduceSum(v), 0);
  out[gid] = v / total;
}
