#include "lanes.cuh"

__global__ void c_kernel(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0xffffffff, v) + header_vote(v);
}
