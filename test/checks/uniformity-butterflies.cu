// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A full xor butterfly leaves every lane with the same value: after the step
// with offset k, lanes i and i^k hold op(a, b) and op(b, a), equal for a
// commutative op (also in floating point), and once the offsets 16, 8, 4, 2
// and 1 have all been applied every lane has combined all 32. What makes it
// one is the arithmetic, not the spelling: unrolled steps in any order, the
// shuffle kept in a local, a loop whose start and width come from a template
// constant, an op that is a project's function returning `a | b`, a mask the
// helper receives from every caller. Next to each, a near miss that is no
// butterfly and must still be reported.

#define FULL 0xffffffffu

struct MinOp {
  static __device__ float op(float a, float b) { return fminf(a, b); }
};
struct OrOp {
  static __device__ unsigned op(unsigned a, unsigned b) { return a | b; }
};
struct SubOp {
  static __device__ float op(float a, float b) { return a - b; }
};

// PhysX's shape: the group size is a template constant, the mask a parameter.
template <typename OP, typename T, unsigned log2GroupSize>
__device__ inline T warpReduction(const unsigned syncMask, T input) {
  const unsigned groupSize = 1u << log2GroupSize;
#pragma unroll
  for (unsigned radius = groupSize >> 1; radius > 0; radius >>= 1) {
    T val = __shfl_xor_sync(syncMask, input, radius, groupSize);
    input = OP::op(input, val);
  }
  return input;
}

__global__ void nearest(const float *a, float *y) {
  float d = warpReduction<MinOp, float, 5>(FULL, a[threadIdx.x]);
  // Silent: every lane holds the minimum.
  if (d > 1e30f)
    return;
  y[threadIdx.x] = __shfl_sync(FULL, d, 3);
}

__global__ void differences(const float *a, float *y) {
  float d = warpReduction<SubOp, float, 5>(FULL, a[threadIdx.x]);
  // a - b is not b - a: the lanes disagree.
  if (d > 1e30f)
    return;
  y[threadIdx.x] = __shfl_sync(FULL, d, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: __shfl_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp
}

// --- unrolled, in any order -----------------------------------------------------
__global__ void anyHit(const int *a, float *y, float v) {
  int c = a[threadIdx.x];
  int b = c | __shfl_xor_sync(FULL, c, 16);
  b |= __shfl_xor_sync(FULL, b, 2);
  b |= __shfl_xor_sync(FULL, b, 8);
  int t = __shfl_xor_sync(FULL, b, 4);
  b = OrOp::op(b, t);
  b |= __shfl_xor_sync(FULL, b, 1);
  // Silent: b is the OR over the warp, so the loop runs the same number of
  // times in every lane.
  for (; b; b &= b - 1)
    v += __shfl_sync(FULL, v, __ffs(b) - 1);
  y[threadIdx.x] = v;
}

__global__ void halfHit(const int *a, float *y, float v) {
  int c = a[threadIdx.x];
  int b = c | __shfl_xor_sync(FULL, c, 16);
  b |= __shfl_xor_sync(FULL, b, 8);
  b |= __shfl_xor_sync(FULL, b, 4);
  b |= __shfl_xor_sync(FULL, b, 2);
  // Offset 1 is missing: lanes 2i and 2i+1 may disagree.
  for (; b; b &= b - 1)
    v += __shfl_sync(FULL, v, __ffs(b) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this loop condition differs between the lanes of a warp
  y[threadIdx.x] = v;
}

__global__ void staleShuffle(const int *a, float *y, float v) {
  int b = a[threadIdx.x];
  int early = __shfl_xor_sync(FULL, b, 1);
  b |= __shfl_xor_sync(FULL, b, 16);
  b |= __shfl_xor_sync(FULL, b, 8);
  b |= __shfl_xor_sync(FULL, b, 4);
  b |= __shfl_xor_sync(FULL, b, 2);
  // `early` holds the neighbour's value from before the other steps.
  b |= early;
  for (; b; b &= b - 1)
    v += __shfl_sync(FULL, v, __ffs(b) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this loop condition differs between the lanes of a warp
  y[threadIdx.x] = v;
}
