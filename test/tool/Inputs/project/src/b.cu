#include "lanes.cuh"

__global__ void b_kernel(unsigned *out, int v) {
  out[threadIdx.x] = __any_sync(B_MASK, v) + header_vote(v);
}
