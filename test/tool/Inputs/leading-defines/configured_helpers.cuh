// Needs its configuration macro first: included without it, it fails.
#pragma once
#ifndef REDUX_FALLBACK
#error "configure first"
#endif
__device__ inline float loopSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
