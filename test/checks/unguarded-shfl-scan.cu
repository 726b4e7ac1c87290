// RUN: %check_warp_tidy %s warp-unguarded-shfl-scan
// RUN: cp %s %t.cu
// RUN: %warp_tidy --exit-zero --quiet --fix --checks=-*,warp-unguarded-shfl-scan %t.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=CHECK-FIXES --input-file=%t.cu %s
//
// warp-unguarded-shfl-scan: a scan that accumulates a shuffle result without
// excluding the lanes that have no partner. Must-flag kernels come first,
// then the must-stay-silent ones; silence is asserted by default.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

__device__ unsigned laneIdAsm() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

// ---------------------------------------------------------------- must flag

// The H200 measurement's shape: `<<=`, the shuffle in a named variable, a
// lane variable in scope: fix-it inserts the guard.
__global__ void upScanShift(int *out) {
  const int lane = threadIdx.x & 31;
  int x = out[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, off);
    x += y;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'x' without a lower-bound guard: lanes below the offset (off) get their own value back and add it a second time (an H200 scan written like this got 31 of 32 lanes wrong); accumulate only where 'lane >= off', e.g. 'if (lane >= off) x += t;'{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-FIXES: {{^}}    if (lane >= off) x += y;{{$}}
  }
  out[threadIdx.x] = x;
}

// `*= 2`, warpSize, the shuffle inline: no fix-it (guarding would make the
// shuffle itself conditional).
__global__ void upScanInline(float *out) {
  float x = out[threadIdx.x];
  for (int off = 1; off < warpSize; off *= 2)
    x += __shfl_up_sync(FULL, x, off);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'x' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
  // CHECK-FIXES: {{^}}    x += __shfl_up_sync(FULL, x, off);{{$}}
  out[threadIdx.x] = x;
}

// `#pragma unroll`, `v = v + t`, lane from `% warpSize`.
__global__ void upScanUnrolledPragma(int *out) {
  int lane = threadIdx.x % warpSize;
  int v = out[threadIdx.x];
#pragma unroll
  for (int off = 1; off < 32; off = off * 2) {
    int t = __shfl_up_sync(FULL, v, off);
    v = v + t;
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-FIXES: {{^}}    if (lane >= off) v = v + t;{{$}}
  }
  out[threadIdx.x] = v;
}

// Straight-line code, as a fully unrolled scan is often written.
__global__ void upScanStraightLine(int *out) {
  int v = out[threadIdx.x];
  v += __shfl_up_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  out[threadIdx.x] = v;
}

// Offsets written as `1 << i`, in a while loop.
__global__ void upScanShiftedCounter(int *out) {
  int v = out[threadIdx.x];
  int i = 0;
  while (i < 5) {
    int t = __shfl_up_sync(FULL, v, 1 << i);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync {{.*}}lanes below the offset ((1 << i)){{.*}}[warp-unguarded-shfl-scan]
    ++i;
  }
  out[threadIdx.x] = v;
}

// `__shfl_sync(mask, v, lane - d)` wraps around; the lane comes from %laneid.
__global__ void indexScanWraps(int *out) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  int v = out[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_sync(FULL, v, lane - off);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_sync from source lane 'lane - off' is accumulated into 'v' without guarding the wrap: lanes below off read lane (lane - off) mod 32 at the top of the segment{{.*}}keep the shuffle unconditional{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-FIXES: {{^}}    if (lane >= off) v += t;{{$}}
  }
  out[threadIdx.x] = v;
}

// The source lane computed inline from threadIdx.x, lane id from a helper.
__global__ void indexScanInlineLane(int *out) {
  int v = out[threadIdx.x];
  for (int off = 1; off <= 16; off *= 2) {
    const int src = (int)laneIdAsm() - off;
    v = v + __shfl_sync(FULL, v, src);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the result of __shfl_sync from source lane {{.*}}[warp-unguarded-shfl-scan]
  }
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_sync(FULL, v, (threadIdx.x & 31) - off);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_sync from source lane {{.*}}[warp-unguarded-shfl-scan]
  out[threadIdx.x] = v;
}

// Suffix scan: __shfl_down_sync with growing offsets needs `lane + d < 32`.
__global__ void downSuffixScan(float *out) {
  const unsigned lane = threadIdx.x % 32;
  float x = out[threadIdx.x];
  for (int off = 1; off < 32; off *= 2) {
    float y = __shfl_down_sync(FULL, x, off);
    x += y;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: the result of __shfl_down_sync with growing offsets is accumulated into 'x' without an upper-bound guard: lanes with lane + off >= 32 get their own value back and add it a second time; accumulate only where 'lane + off < 32'{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-FIXES: {{^}}    if (lane + off < 32) x += y;{{$}}
  }
  out[threadIdx.x] = x;
}

// Cooperative groups: tile.shfl_up, the rank of the same tile as the lane.
__global__ void tileScan(int *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned rank = tile.thread_rank();
  int v = out[threadIdx.x];
  for (unsigned off = 1; off < tile.size(); off <<= 1) {
    int t = tile.shfl_up(v, off);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of tile.shfl_up is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-FIXES: {{^}}    if (rank >= off) v += t;{{$}}
  }
  out[threadIdx.x] = v;
}

// A helper template, reported once for all instantiations.
template <typename T> __device__ T inclusiveScan(T v) {
  for (int off = 1; off < 32; off <<= 1) {
    T t = __shfl_up_sync(FULL, v, off);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v'{{.*}}[warp-unguarded-shfl-scan]
  }
  return v;
}
__global__ void useTemplate(int *a, float *b) {
  a[threadIdx.x] = inclusiveScan(a[threadIdx.x]);
  b[threadIdx.x] = inclusiveScan(b[threadIdx.x]);
}

// An unrelated `if` around the accumulation is no guard.
__global__ void unrelatedCondition(int *out, int n) {
  int v = out[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(FULL, v, off);
    if (n > 4)
      v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the result of __shfl_up_sync{{.*}}[warp-unguarded-shfl-scan]
  }
  out[threadIdx.x] = v;
}

// ---------------------------------------------------------- must stay silent

__global__ void guardedForms(int *out, float *f) {
  const int lane = threadIdx.x & 31;
  int a = out[0], b = out[1], c = out[2], d = out[3], e = out[4], g = out[5];
  int h = out[6], k = out[7], m = out[8], q = out[9];
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(FULL, a, off);
    if (lane >= off) a += t;                       // if
    int u = __shfl_up_sync(FULL, b, off);
    b += (lane >= off) ? u : 0;                    // ?: selecting the identity
    int w = __shfl_up_sync(FULL, c, off);
    c += w * (lane >= off);                        // times the predicate
    int x = __shfl_up_sync(FULL, d, off);
    if (lane < off) x = 0;                         // out-of-range lanes overwritten
    d += x;
    int y = __shfl_up_sync(FULL, e, off);
    y = (lane >= off) ? y : 0;                     // overwritten through ?:
    e += y;
    int z = __shfl_up_sync(FULL, g, off);
    if (lane < off) {
    } else {
      g += z;                                      // else of the complement
    }
    const bool inRange = off <= lane;
    int s = __shfl_up_sync(FULL, h, off);
    if (inRange) h += s;                           // through a bool variable
    int r = __shfl_up_sync(FULL, k, off);
    if (lane - off >= 0) k += r;                   // lane - off >= 0
    int n = m + __shfl_up_sync(FULL, m, off);
    if (lane >= off) m = n;                        // guarded write-back
    int p = __shfl_up_sync(FULL, q, off);
    q += (lane < off) ? 0 : p;                     // inverted ?:
  }
  out[0] = a + b + c + d + e + g + h + k + m + q;
}

__global__ void earlyContinue(int *out) {
  const int lane = threadIdx.x & 31;
  int v = out[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(FULL, v, off);
    if (lane < off) continue;
    v += t;
  }
  out[threadIdx.x] = v;
}

// Idempotent combines: a lane combined with itself is harmless.
__global__ void idempotent(int *out, float *f) {
  int a = out[0], b = out[1], c = out[2], d = out[3];
  float x = f[0], y = f[1];
  for (int off = 1; off < 32; off <<= 1) {
    a = max(a, __shfl_up_sync(FULL, a, off));
    b = min(b, __shfl_up_sync(FULL, b, off));
    c |= __shfl_up_sync(FULL, c, off);
    d &= __shfl_up_sync(FULL, d, off);
    x = fmaxf(x, __shfl_up_sync(FULL, x, off));
    y = fminf(y, __shfl_sync(FULL, y, (threadIdx.x & 31) - off));
  }
  out[0] = a + b + c + d;
  f[0] = x + y;
}

// Tree reductions: halving offsets, only lane 0 (or 31) uses the result.
__global__ void treeReductions(int *out) {
  int v = out[threadIdx.x], w = v, x = v, y = v;
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(FULL, v, off);
  for (int off = 16; off > 0; off >>= 1)
    w += __shfl_xor_sync(FULL, w, off);
  for (int off = warpSize / 2; off; off >>= 1) {
    int t = __shfl_down_sync(FULL, x, off);
    x = x + t;
  }
  for (int off = 16; off >= 1; off /= 2)
    y += __shfl_up_sync(FULL, y, off);
  // Straight-line tree reduction.
  int z = out[1];
  z += __shfl_down_sync(FULL, z, 16);
  z += __shfl_down_sync(FULL, z, 8);
  z += __shfl_down_sync(FULL, z, 4);
  z += __shfl_down_sync(FULL, z, 2);
  z += __shfl_down_sync(FULL, z, 1);
  // Growing xor butterflies are all-reduces, not scans.
  int b = out[2];
  for (int m = 1; m < 32; m <<= 1)
    b += __shfl_xor_sync(FULL, b, m);
  // One pairwise step.
  int p = out[3];
  p += __shfl_down_sync(FULL, p, 1);
  out[threadIdx.x] = v + w + x + y + z + b + p;
}

// Neighbour fetches with an explicit fix-up of the edge lane.
__global__ void neighbours(float *in, float *out) {
  const int lane = threadIdx.x & 31;
  float x = in[threadIdx.x];
  float left = __shfl_up_sync(FULL, x, 1);
  if (lane == 0) left = in[threadIdx.x - 1 + 32 * (threadIdx.x < 1)];
  float right = __shfl_down_sync(FULL, x, 1);
  if (lane == 31) right = 0.0f;
  out[threadIdx.x] = 0.25f * left + 0.5f * x + 0.25f * right;
  // A difference (not an accumulation) and an exclusive shift.
  float dx = x - __shfl_up_sync(FULL, x, 1);
  int excl = __shfl_up_sync(FULL, (int)x, 1);
  if (lane == 0) excl = 0;
  out[threadIdx.x + 32] = dx + excl;
}

// Guarded suffix scan and guarded wrap.
__global__ void guardedOtherDirections(int *out) {
  const int lane = threadIdx.x & 31;
  int v = out[threadIdx.x], w = v;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_down_sync(FULL, v, off);
    if (lane + off < 32) v += t;
    int s = __shfl_sync(FULL, w, lane - off);
    if (lane >= off) w += s;
  }
  out[threadIdx.x] = v + w;
}

// The seed's ternary shuffle is divergent (warp-divergent-full-mask reports
// it); as a scan it is guarded.
__global__ void seedTernary(int *out) {
  const int lane = threadIdx.x & 31;
  int v = out[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    int src = lane - off;
    int other = (src >= 0) ? __shfl_sync(FULL, v, src) : 0;
    v += other;
  }
  out[threadIdx.x] = v;
}

// A tile scan guarded by the tile's own rank.
__global__ void tileGuarded(int *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = out[threadIdx.x];
  for (unsigned off = 1; off < tile.size(); off <<= 1) {
    int t = tile.shfl_up(v, off);
    if (tile.thread_rank() >= off) v += t;
  }
  out[threadIdx.x] = v;
}

// ---------------------------------------------------------------------------
// Scans whose result only the exact lane uses. An unguarded up-scan still
// gets the last lane of each segment right (it never lacks a partner, and
// neither do the lanes it reads from), and an unguarded suffix scan the
// first: code that scans only to get that total is correct.

__global__ void lastLaneBroadcast(int *in, int *out) {
  int v = in[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
  int total = __shfl_sync(FULL, v, 31);
  out[threadIdx.x] = total;
}

__global__ void lastLaneStores(int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(FULL, v, off);
    v += t;
  }
  if (lane == 31)
    out[threadIdx.x / 32] = v;
}

__global__ void lastLaneAfterEarlyReturn(int *in, int *out) {
  const int lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  v += __shfl_up_sync(FULL, v, 1);
  v += __shfl_up_sync(FULL, v, 2);
  v += __shfl_up_sync(FULL, v, 4);
  v += __shfl_up_sync(FULL, v, 8);
  v += __shfl_up_sync(FULL, v, 16);
  if (lane != 31)
    return;
  out[blockIdx.x] = v;
}

__device__ int inclusiveSumUnguarded(int v) {
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
  return v;
}

__global__ void helperScanLastLane(int *in, int *out) {
  int v = in[threadIdx.x];
  v = inclusiveSumUnguarded(v);
  int total = __shfl_sync(FULL, v, 31);
  out[threadIdx.x] = total + __shfl_sync(FULL, inclusiveSumUnguarded(in[0]), 31);
}

__global__ void suffixScanFirstLane(float *in, float *out) {
  const int lane = threadIdx.x & 31;
  float x = in[threadIdx.x];
  for (int off = 1; off < 32; off *= 2)
    x += __shfl_down_sync(FULL, x, off);
  if (lane == 0)
    out[blockIdx.x] = x;
}

__global__ void tileScanLastRank(int *out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int v = out[threadIdx.x];
  for (int off = 1; off < 16; off <<= 1)
    v += tile.shfl_up(v, off);
  if (tile.thread_rank() == 15)
    out[threadIdx.x / 16] = v;
}

// The real bugs next to them: a lane whose value is wrong is used.
__global__ void wrongLaneBroadcast(int *in, int *out) {
  int v = in[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
  out[threadIdx.x] = __shfl_sync(FULL, v, 15);
}

__global__ void lastLaneAndEveryLane(int *in, int *out, int *total) {
  const int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
  if (lane == 31)
    total[threadIdx.x / 32] = v;
  out[threadIdx.x] = v;
}

__global__ void upperHalfUses(int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
  if (lane >= 16)
    out[threadIdx.x] = v;
}

__device__ int inclusiveSumUsedEverywhere(int v) {
  for (int off = 1; off < 32; off <<= 1)
    v += __shfl_up_sync(FULL, v, off);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
  return v;
}

__global__ void helperScanOneCallerUsesAll(int *in, int *out) {
  out[0] = __shfl_sync(FULL, inclusiveSumUsedEverywhere(in[threadIdx.x]), 31);
  out[threadIdx.x] = inclusiveSumUsedEverywhere(in[threadIdx.x]);
}

__global__ void suffixScanLastLane(float *in, float *out) {
  const int lane = threadIdx.x & 31;
  float x = in[threadIdx.x];
  for (int off = 1; off < 32; off *= 2)
    x += __shfl_down_sync(FULL, x, off);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: the result of __shfl_down_sync with growing offsets{{.*}}[warp-unguarded-shfl-scan]
  if (lane == 31)
    out[blockIdx.x] = x;
}

// After an unrolled scan, the neighbour's scanned value (an exclusive scan
// made from the inclusive one) is wrong in most lanes.
__global__ void exclusiveFromUnguardedScan(int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_up_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  v += __shfl_up_sync(FULL, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of __shfl_up_sync {{.*}}[warp-unguarded-shfl-scan]
  int prev = __shfl_up_sync(FULL, v, 1);
  out[threadIdx.x] = prev;
}
