// Inclusive warp scans, two ways, both wrong.
#include <cuda_runtime.h>

__global__ void scanUp(const int *in, int *out) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  for (int offset = 1; offset < 32; offset *= 2) {
    int other = __shfl_up_sync(0xffffffff, v, offset);
    v += other; // BUG: lanes below `offset` add their own value again
  }
  out[threadIdx.x] = v;
  (void)lane;
}

__global__ void scanIndexed(const int *in, int *out) {
  const unsigned mask = 0xffffffff;
  int lane = threadIdx.x % 32;
  int val = in[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int srcLane = lane - d;
    // BUG: only lanes with srcLane >= 0 execute the shuffle, but the mask
    // names all 32; the others never arrive.
    int other = (srcLane >= 0) ? __shfl_sync(mask, val, srcLane) : 0;
    val += other;
  }
  out[threadIdx.x] = val;
}
