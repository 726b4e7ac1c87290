#pragma once
namespace lanes {
__device__ inline unsigned halfVote(int v) {
  if (threadIdx.x < 16)
    return __ballot_sync(0xffffffffu, v);
  return 0;
}
} // namespace lanes
