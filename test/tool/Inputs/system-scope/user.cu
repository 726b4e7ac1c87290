// The project's own kernel, with the same bug, next to a call of the vendor
// helper: the project's finding is reported either way.
#include <vendor_reduce.cuh>

__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = vendorHalfSum(v);
}

