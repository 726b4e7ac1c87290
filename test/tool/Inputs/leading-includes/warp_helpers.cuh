// Helpers every unit of this directory includes first: the shared PCH holds
// this header, and its findings must come out as without the PCH.
#pragma once
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

// BUG (warp-divergent-full-mask): only the lanes below `limit` reach the
// shuffle, but its mask names all 32.
__device__ inline int partialSum(int v, int limit) {
  if (threadIdx.x % 32 < limit)
    v += __shfl_down_sync(FULL_MASK, v, 1);
  return v;
}

// BUG in a template the units instantiate: only the odd lanes shuffle.
template <typename T> __device__ T oddLaneMax(T v) {
  if (threadIdx.x & 1)
    v = max(v, __shfl_xor_sync(FULL_MASK, v, 2));
  return v;
}

// BUG (warp-missing-arch-guard): on sm_75 the reduction is skipped and the
// per-lane value is returned as if it were the warp's total.
__device__ inline unsigned countFlags(unsigned flag) {
  unsigned val = flag;
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(FULL_MASK, val);
#endif
  return val;
}

// Fine: guarded, with a fallback.
__device__ inline unsigned warpMax(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(FULL_MASK, v);
#else
  for (int off = 16; off > 0; off >>= 1)
    v = max(v, __shfl_xor_sync(FULL_MASK, v, off));
  return v;
#endif
}
