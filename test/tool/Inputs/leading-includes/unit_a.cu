#include "warp_helpers.cuh"
#include "lane_utils.cuh"

__global__ void kernelA(int *out, int limit) {
  int v = out[threadIdx.x];
  out[threadIdx.x] = partialSum(v, limit) + oddLaneMax<int>(v) + lanesAbove(v, limit);
}
