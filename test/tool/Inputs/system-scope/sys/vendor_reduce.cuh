// A vendor header on -isystem: its full-mask shuffle under a lane branch is
// a bug, but it is the vendor's; findings here show only with
// --system-headers.
#pragma once
__device__ inline float vendorHalfSum(float v) {
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  return v;
}
