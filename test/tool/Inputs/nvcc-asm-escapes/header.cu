#include "lane.cuh"

__global__ void voteBelowEight(const int *in, unsigned *out) {
  if (laneFromHeader() < 8)
    out[0] = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
  out[1] = 0;
}
