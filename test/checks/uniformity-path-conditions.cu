// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// The conditions on the way to a collective, asked together: a lane arrives
// when every branch that controls the call sends it that way, so what must be
// the same in every lane is the conjunction. A per-lane bound followed by a
// rounded one that implies it (`i < n`, then `(i | 31) < n`) lets whole warps
// through or none, although the first condition alone splits a warp. In a
// loop, a lane that left at the exit test waits after the loop while the
// others test again, so an exit counts only when its condition, once false,
// stays false (a counter that only grows, below a bound the loop keeps).
// Silence is asserted by default.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

// ------------------------------------------------------- must stay silent

// A per-lane bound, then a whole-warp one that implies it.
__global__ void nestedRoundedBound(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if ((i | 31) < n) {
      float v = x[i];
      v += __shfl_down_sync(FULL, v, 1);
      x[i] = v;
    }
  }
}

// The same as one condition with `&&`.
__global__ void conjunctionInOneCondition(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i & ~31) + 32 <= n)
    x[i] = __shfl_xor_sync(FULL, x[i], 16);
}

// Lanes that returned early are the ones the rounded guard keeps out too.
__global__ void earlyExitThenRoundedGuard(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if ((i & ~31) + 32 <= n)
    v += __shfl_down_sync(FULL, v, 16);
  x[i] = v;
}

// MetaCache's segmented sort: four lanes per item in a grid-stride loop; the
// warp's eight items run together while the item index is below the count
// rounded down to eight, which no lane reaches past the loop's own bound.
__global__ void stridedItemsRoundedToTheWarp(int *keys, const int *counter) {
  const int gid = threadIdx.x + blockIdx.x * blockDim.x;
  const int count = counter[1] - counter[0];
  for (int item = gid >> 2; item < count; item += (gridDim.x * blockDim.x >> 2)) {
    int v = keys[item];
    const int whole = (count / 8) * 8;
    if (item < whole)
      v = __shfl_xor_sync(FULL, v, 16);
    keys[item] = v;
  }
}

// A `break` on a growing counter below a fixed bound: once out, out for good.
__global__ void breakOnGrowingCounter(float *x, int n) {
  float v = 0;
  for (int k = threadIdx.x % 32;; k += 32) {
    if (k >= n)
      break;
    if ((k | 31) < n)
      v += __shfl_xor_sync(FULL, x[k], 1);
  }
  x[threadIdx.x] = v;
}

// An 8-lane tile: the bound rounded to whole tiles implies the per-lane one.
__global__ void tileRoundedBound(const int *flags, int *out, int n) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 0;
  if (i < n)
    if ((i | 7) < n)
      v = tile.ballot(flags[i] != 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// ---------------------------------------------------------- must flag

// The rounded bound is another one: lanes past n pass it.
__global__ void roundedBoundOfAnotherCount(float *x, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if ((i | 31) < m) {
      float v = x[i];
      v += __shfl_down_sync(FULL, v, 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
      x[i] = v;
    }
  }
}

// Rounded to four items, but a warp holds eight.
__global__ void stridedItemsRoundedTooFinely(int *keys, const int *counter) {
  const int gid = threadIdx.x + blockIdx.x * blockDim.x;
  const int count = counter[1] - counter[0];
  for (int item = gid >> 2; item < count; item += (gridDim.x * blockDim.x >> 2)) {
    int v = keys[item];
    const int whole = (count / 4) * 4;
    if (item < whole)
      v = __shfl_xor_sync(FULL, v, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition differs between the lanes of a warp{{.*}}
    keys[item] = v;
  }
}

// A counter that falls: lanes that failed `k < n` on the first test wait
// after the loop, while the rounded guard lets all 32 through later.
__global__ void exitOnFallingCounter(float *x, int n, int base) {
  float v = 0;
  for (int k = base + threadIdx.x % 32; k < n; k -= 32) {
    if ((k | 31) < n)
      v += __shfl_xor_sync(FULL, x[k & 1023], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition differs between the lanes of a warp{{.*}}
  }
  x[threadIdx.x] = v;
}

// A bound the loop moves: a lane out now may be in later.
__global__ void exitOnMovingBound(float *x, int n) {
  float v = 0;
  int limit = n;
  for (int k = threadIdx.x % 32; k < limit; k += 32) {
    if ((k | 31) < n)
      v += __shfl_xor_sync(FULL, x[k], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-4]]:34: note: this loop condition differs between the lanes of a warp{{.*}}
    limit += 64;
  }
  x[threadIdx.x] = v;
}

// Each condition alone splits the tile, and so do they together.
__global__ void tileBoundRoundedToTheWarp(const int *flags, int *out, int n) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 0;
  if (i < n)
    if ((i | 3) < n)
      v = tile.ballot(flags[i] != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: thread_block_tile::ballot with the implicit mask of its 8-lane tile is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition differs between the lanes of a 8-lane tile{{.*}}
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
