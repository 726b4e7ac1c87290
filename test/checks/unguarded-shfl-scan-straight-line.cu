// RUN: %check_warp_tidy %s warp-unguarded-shfl-scan -- -DUSED_LANES=7
// RUN: %check_warp_tidy %s warp-unguarded-shfl-scan --check-prefix=CHECK-MESSAGES --check-prefix=EIGHT -- -DUSED_LANES=8
//
// warp-unguarded-shfl-scan on reductions written as straight-line steps
// (`v += __shfl_down_sync(m, v, 1, 4); v += __shfl_down_sync(m, v, 2, 4);`),
// on several accumulators folded into one between the steps, in a loop whose
// body declares the accumulator, and with the lane test of the use reached
// through `&&`, an `if constexpr`, a helper's parameter or a local offset.
// Which lanes hold a wrong value is decided by running the steps on every
// thread; a report needs a lane whose duplicated value reaches a use.
// Silence is asserted by default.

// ------------------------------------------------------- must stay silent

// A partial reduction over 4-lane groups: lane 0 of each group holds the
// exact sum of its group, and only lane 0 of a group stores it.
__global__ void quadSums(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1, 4);
  v += __shfl_down_sync(0xffffffff, v, 2, 4);
  if (threadIdx.x % 4 == 0)
    out[threadIdx.x / 4] = v;
}

// Two steps over the whole warp: lanes 0..28 hold the sum of their four
// lanes exactly (only lanes 29..31 miss a partner); lanes 0, 4, ..., 28 use it.
__global__ void quadSumsWarpWide(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  v += __shfl_down_sync(0xffffffff, v, 2);
  if (threadIdx.x % 4 == 0)
    out[threadIdx.x / 4] = v;
}

// Seven values reduced into one variable: pair sums, then each odd lane takes
// another component, then quad and octet sums; lanes 0..6 end up with the
// seven totals (the shape GROMACS uses for its virial). The enclosing
// `if constexpr` and the loop that finishes the reduction are run too. With
// USED_LANES=8, lane 7 also stores, and its value holds duplicated ones of
// the growing down steps and the up steps (the single down steps of zz and e,
// and the final loop, put none in lanes 0..7).
template <bool WithVirial>
__global__ void sevenComponents(float *out, const float *in) {
  const int tid = threadIdx.x;
  float xx = in[0], yy = in[1], zz = in[2], xy = in[3], xz = in[4], yz = in[5], e = in[6];
  if constexpr (WithVirial) {
    xx += __shfl_down_sync(0xffffffff, xx, 1);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    yy += __shfl_up_sync(0xffffffff, yy, 1);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    zz += __shfl_down_sync(0xffffffff, zz, 1);
    xy += __shfl_up_sync(0xffffffff, xy, 1);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    xz += __shfl_down_sync(0xffffffff, xz, 1);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    yz += __shfl_up_sync(0xffffffff, yz, 1);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    e += __shfl_down_sync(0xffffffff, e, 1);
    if (tid & 1) {
      xx = yy;
      zz = xy;
      xz = yz;
    }
    xx += __shfl_down_sync(0xffffffff, xx, 2);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    zz += __shfl_up_sync(0xffffffff, zz, 2);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    xz += __shfl_down_sync(0xffffffff, xz, 2);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    e += __shfl_up_sync(0xffffffff, e, 2);
    // EIGHT: :[[@LINE-1]]:7: warning: {{.*}}[warp-unguarded-shfl-scan]
    if (tid & 2) {
      xx = zz;
      xz = e;
    }
    xx += __shfl_down_sync(0xffffffff, xx, 4);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    xz += __shfl_up_sync(0xffffffff, xz, 4);
    // EIGHT: :[[@LINE-1]]:8: warning: {{.*}}[warp-unguarded-shfl-scan]
    if (tid & 4)
      xx = xz;
    for (int d = 8; d < 32; d <<= 1)
      xx += __shfl_down_sync(0xffffffff, xx, d);
    const int component = tid & 31;
    if (component < USED_LANES)
      out[(tid / 32) * 8 + component] = xx;
  }
}
template __global__ void sevenComponents<true>(float *, const float *);

// The accumulator is declared in the loop body: each iteration starts it
// again, and the loop runs any number of times around the steps.
__global__ void perColumn(float *out, const float *in, int n) {
  __shared__ float rows[8][32];
  for (int k = 0; k < 8; k++) {
    float v = in[k * 32 + threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    v += __shfl_down_sync(0xffffffff, v, 2, 4);
    if (threadIdx.x % 4 == 0)
      rows[k][threadIdx.x / 4] = v;
  }
  float a = 0.f;
  for (int r = 0; r < n; r++) {
    float v = rows[r % 8][threadIdx.x % 32];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    v += __shfl_down_sync(0xffffffff, v, 2, 4);
    a += v;
  }
  if (threadIdx.x % 4 == 0)
    out[threadIdx.x] = a;
}

// Even lanes keep one sum, odd lanes the other; the loop from offset 2 leaves
// exact totals in lanes 0 and 1. Lane 1's store is also conditioned on a
// parameter: `&&` is false in lane 2 whatever the parameter is.
__global__ void twoTotals(float *a, float *b, float x, float y, int kind) {
  if (kind > 0) {
    x += __shfl_down_sync(0xffffffff, x, 1);
    y += __shfl_up_sync(0xffffffff, y, 1);
    if (threadIdx.x & 1)
      x = y;
    for (int i = 2; i < warpSize; i *= 2)
      x += __shfl_down_sync(0xffffffff, x, i);
    if (threadIdx.x % warpSize == 0)
      atomicAdd(a, x);
    else if (threadIdx.x % warpSize == 1 && kind == 3)
      atomicAdd(b, x);
  }
}

// The offset is a local doubled in the loop, and the lane test reads a
// helper's parameter that its only caller passes as threadIdx.x (the helper
// is internal: no other unit can call it).
static __device__ void energyReduce(float e, float *total, int tid) {
  int sh = 1;
  for (int i = 0; i < 5; i++) {
    e += __shfl_down_sync(0xffffffff, e, sh);
    sh += sh;
  }
  if (tid % 32 == 0)
    atomicAdd(total, e);
}
__global__ void energyKernel(float *total, const float *in) {
  energyReduce(in[threadIdx.x], total, threadIdx.x);
}

// ---------------------------------------------------------- must flag

// The same helper with external linkage: under -rdc another unit may call
// it with any `tid`, so the parameter is not read from this unit's calls.
__device__ void energyReduceExtern(float e, float *total, int tid) {
  int sh = 1;
  for (int i = 0; i < 5; i++) {
    e += __shfl_down_sync(0xffffffff, e, sh);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: {{.*}} into 'e' {{.*}}[warp-unguarded-shfl-scan]
    sh += sh;
  }
  if (tid % 32 == 0)
    atomicAdd(total, e);
}
__global__ void energyKernelExtern(float *total, const float *in) {
  energyReduceExtern(in[threadIdx.x], total, threadIdx.x);
}

// Every lane stores its value: lanes 1..3 of each group hold duplicated ones.
__global__ void quadSumsAllLanes(float *out, const float *in) {
  for (int k = 0; k < 4; k++) {
    float v = in[k * 32 + threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: the result of __shfl_down_sync with growing offsets is accumulated into 'v' without an upper-bound guard: lanes with lane + 1 >= 4 {{.*}}[warp-unguarded-shfl-scan]
    v += __shfl_down_sync(0xffffffff, v, 2, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: {{.*}} lanes with lane + 2 >= 4 {{.*}}[warp-unguarded-shfl-scan]
    out[k * 32 + threadIdx.x] = v;
  }
}

// The offset doubles in a local, and every lane stores.
__global__ void doublingOffsetAllLanes(float *out, const float *in) {
  int sh = 1;
  float e = in[threadIdx.x];
  for (int i = 0; i < 5; i++) {
    e += __shfl_down_sync(0xffffffff, e, sh);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: {{.*}} into 'e' {{.*}}[warp-unguarded-shfl-scan]
    sh *= 2;
  }
  out[threadIdx.x] = e;
}

// Lane 1 takes the second total, but lane 2 also stores: the loop from
// offset 2 leaves it a sum that holds lane 30's duplicated value. The pair
// steps are not at fault (lane 31's duplicate is overwritten by `x = y`,
// lane 0's stays in y), so only the loop is reported.
__global__ void twoTotalsWrongLane(float *a, float x, float y) {
  x += __shfl_down_sync(0xffffffff, x, 1);
  y += __shfl_up_sync(0xffffffff, y, 1);
  if (threadIdx.x & 1)
    x = y;
  for (int i = 2; i < 32; i *= 2)
    x += __shfl_down_sync(0xffffffff, x, i);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: suffix scan: {{.*}} into 'x' {{.*}}[warp-unguarded-shfl-scan]
  if (threadIdx.x % 32 < 3)
    atomicAdd(a + threadIdx.x % 32, x);
}

// One down step in one branch and a tree in another, on the same variable
// (TileSpMV's per-format cases): offsets 1 then 8, 4, 2, 1 are no growing
// sequence, so the lone step is no suffix scan.
__global__ void stepThenTreeInAnotherCase(const float *in, float *out, int format) {
  float sum = in[threadIdx.x];
  switch (format) {
  case 0:
    sum += __shfl_down_sync(0xffffffffu, sum, 1);
    break;
  default:
    sum += __shfl_down_sync(0xffffffffu, sum, 8);
    sum += __shfl_down_sync(0xffffffffu, sum, 4);
    sum += __shfl_down_sync(0xffffffffu, sum, 2);
    sum += __shfl_down_sync(0xffffffffu, sum, 1);
    break;
  }
  out[threadIdx.x] = sum;
}
