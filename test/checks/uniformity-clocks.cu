// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A clock read (`clock64()`, inline asm reading `%globaltimer`) is one
// instruction: the lanes that execute it together get one value. A score
// taken from the clock by a converged tile and compared with the tile's
// reduced minimum is the same comparison in every lane. What stays
// divergent is a clock read where the lanes are already apart, and a clock
// mixed with the lane.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

__device__ unsigned long long nanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Silent: the tile reads the timer together and compares it with a value
// every lane holds (the tile's minimum); the lanes meet again at the shfl.
__global__ void lruScore(const unsigned long long *scores, int *slots) {
  auto g = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned long long mine = scores[threadIdx.x];
  unsigned long long lowest = cg::reduce(g, mine, cg::less<unsigned long long>());
  unsigned long long now = nanoseconds();
  int found = 0;
  if (now < lowest)
    found = __popc(g.ballot(mine == lowest));
  slots[threadIdx.x] = g.shfl(found, 0);
}

// Silent: clock64() read once by the warp decides for the whole warp.
__global__ void sampledBallot(const int *in, int *out) {
  long long now = clock64();
  int votes = 0;
  if (now % 3 == 0)
    votes = __ballot_sync(FULL, in[threadIdx.x] > 0);
  out[threadIdx.x] = __shfl_sync(FULL, votes, 0);
}

// Reported: the clock mixed with the lane differs between lanes.
__global__ void clockPlusLane(int *out) {
  long long t = clock64() + (threadIdx.x & 31);
  if (t % 2 == 0)
    out[threadIdx.x] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
}

// Reported: read after the lanes split on their index, the clock is read
// by the two halves at different times.
__global__ void clockAfterSplit(int *out) {
  long long t;
  if ((threadIdx.x & 31) < 16)
    t = clock64();
  else
    t = clock64() + 1;
  if (t % 2 == 0)
    out[threadIdx.x] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: {{.*}}
}
