// A header holding device code, analysed on its own: parsed as CUDA.
#pragma once
__device__ inline int halfWarpSum(int v) {
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  return v;
}
