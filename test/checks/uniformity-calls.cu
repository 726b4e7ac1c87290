// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A call whose result depends on its arguments alone (the callee reads no
// thread-varying source and runs no collective) gives equal results to
// lanes that pass equal arguments, whatever its body: a hash of a key read
// at a tile's index, a score read through a helper at that index. A helper
// given a per-lane argument, or reading the thread's index itself, stays
// per lane.
//
// And an induction variable read inside its loop: the lanes that left the
// loop (a `return` on the bound) took no step the others did not, so the
// lanes still there agree on `t / 4` in each 4-lane tile.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned long long mix(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  return k ^ (k >> 33);
}

__device__ int scoreAt(const int *scores, int index, int epoch) {
  if (epoch == 0)
    return scores[index];
  return scores[index] | epoch;
}

__device__ int laneScore(const int *scores) { return scores[threadIdx.x]; }

// Silent: the key, its hash and its score are one value per 8-lane tile.
__global__ void tileProbe(const unsigned long long *keys, const int *scores, int *out,
                          int epoch) {
  auto g = cg::tiled_partition<8>(cg::this_thread_block());
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long key = keys[t / 8];
  int found = 0;
  if (mix(key) % 7 != 0 && scoreAt(scores, t / 8, epoch) > 0)
    found = g.ballot(key == 3);
  out[t] = g.shfl(found, 0);
}

// Reported: each lane reads its own score.
__global__ void laneProbe(const int *scores, int *out, int epoch) {
  auto g = cg::tiled_partition<8>(cg::this_thread_block());
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int found = 0;
  if (scoreAt(scores, t, epoch) > 0)
    found = g.ballot(t == 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 8-lane tile{{.*}}
  out[t] = g.shfl(found, 0);
}

// Reported: the helper reads threadIdx.x itself.
__global__ void helperReadsTheLane(const int *scores, int *out) {
  auto g = cg::tiled_partition<8>(cg::this_thread_block());
  int found = 0;
  if (laneScore(scores) > 0)
    found = g.ballot(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 8-lane tile{{.*}}
  out[threadIdx.x] = g.shfl(found, 0);
}

// Reported for the bound, not for the key: the lanes that leave at `t >= n`
// split a tile when n is not a multiple of 4, but the key test after it is
// the same in every lane of a tile that stays.
__global__ void gridStrideExit(const int *keys, int *out, size_t n) {
  auto g = cg::tiled_partition<4>(cg::this_thread_block());
  for (size_t t = blockIdx.x * blockDim.x + threadIdx.x;; t += blockDim.x * gridDim.x) {
    if (t >= n)
      return;
    int key = keys[t / 4];
    if (key == 0)
      continue;
    out[t / 4] = g.ballot(key > 5);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: {{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-7]]:9: note: this condition differs between the lanes of a 4-lane tile{{.*}}
  }
}

// Reported: an atomic two calls down gives each lane its own old value.
__device__ int grab(int *counter, int k) { return atomicAdd(counter, k); }
__device__ int grabNext(int *counter, int k) { return grab(counter, k) + 1; }
__global__ void atomicTwoCallsDown(int *counter, int *out) {
  int votes = 0;
  if (grabNext(counter, 1) > 5)
    votes = __ballot_sync(0xffffffffu, out[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[threadIdx.x] = __shfl_sync(0xffffffffu, votes, 0);
}

// A `__constant__` variable is one address, read alike by every lane, also
// in a helper the translator inlines: silent for a key at the tile's index,
// reported for a key per lane.
__constant__ unsigned long long ReservedMask = ~3ull;
template <class K> __device__ bool isReserved(K key) { return (ReservedMask & key) == ReservedMask; }

__global__ void reservedTileKey(const unsigned long long *keys, int *out) {
  auto g = cg::tiled_partition<4>(cg::this_thread_block());
  size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  int found = 0;
  if (!isReserved(keys[t / 4]))
    found = g.ballot(keys[t / 4] == 9);
  out[t] = g.shfl(found, 0);
}

__global__ void reservedLaneKey(const unsigned long long *keys, int *out) {
  auto g = cg::tiled_partition<4>(cg::this_thread_block());
  size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  int found = 0;
  if (!isReserved(keys[t]))
    found = g.ballot(keys[t] == 9);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 4-lane tile{{.*}}
  out[t] = g.shfl(found, 0);
}

// A helper's parameter is one value per caller's argument: a bound read
// through a reference and rounded to whole warps splits no warp when the
// caller passes one value; a caller that passes a per-lane value is
// reported at its call.
__device__ void roundedBoundLoop(const int &n, int *out) {
  int votes = 0;
  for (int i = threadIdx.x; i < (n / 32) * 32; i += 32)
    votes += __ballot_sync(0xffffffffu, out[i] > 0);
  out[threadIdx.x] = votes;
}
__global__ void passesOneBound(int n, int *out) { roundedBoundLoop(n, out); }
__global__ void passesLaneBounds(int *out) {
  int perLane = threadIdx.x * 40;
  roundedBoundLoop(perLane, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'roundedBoundLoop' is called with a thread-varying argument {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: this argument differs between the lanes of a warp{{.*}}
  // CHECK-MESSAGES: :[[@LINE-9]]:14: note: the ballot in 'roundedBoundLoop' that needs the lanes is here
}
