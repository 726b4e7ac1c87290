#pragma once
__device__ inline int sm80Sum(int v) {
  if (threadIdx.x < 16)
    v = __reduce_add_sync(0xffffffffu, v);
  return v;
}
