// A header whose templates the unit instantiates many times: more
// specializations than the analysis cache keeps in full (16), so a
// traversal that reaches any of them twice must analyse them again.
#pragma once

template <int Scale> __device__ float scaledRowSum(float v) {
  v *= Scale;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <int Scale> __global__ void rowSumKernel(const float *in, float *out) {
  float v = scaledRowSum<Scale>(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}
