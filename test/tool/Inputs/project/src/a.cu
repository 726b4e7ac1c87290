#include "lanes.cuh"

__global__ void a_kernel(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0, v) + header_vote(v);
}
