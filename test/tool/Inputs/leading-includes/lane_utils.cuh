// A classic include guard (the other header has #pragma once).
#ifndef LANE_UTILS_CUH
#define LANE_UTILS_CUH

__device__ inline unsigned laneId() { return threadIdx.x % 32; }

// Fine: every lane reaches the ballot.
__device__ inline unsigned lanesAbove(int v, int t) {
  return __ballot_sync(0xffffffffu, v > t);
}

#endif
