// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// warp-divergent-full-mask: the two fixed points of the uniformity analysis.
//  * Values and divergent branches feed each other: a value assigned under a
//    divergent branch makes the next branch on it divergent, one link per
//    round. A chain of any length must be followed (a cap of 8 rounds once
//    lost the shuffle at the end of a 9-link chain).
//  * Summaries of mutually recursive helpers: each needs the other's, so
//    they are iterated to a fixed point, and a collective anywhere in the
//    cycle reaches every member whatever the source order.

#define FULL 0xffffffffu

// ---------------------------------------------------------------------------
// Chained sync dependences.

__global__ void flagNineLinkChain(const int *in, int *out) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  int a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0, a8 = 0;
  if (lane < 16) a0 = 1;
  if (a0) a1 = 1;
  if (a1) a2 = 1;
  if (a2) a3 = 1;
  if (a3) a4 = 1;
  if (a4) a5 = 1;
  if (a5) a6 = 1;
  if (a6) a7 = 1;
  if (a7) a8 = 1;
  if (a8)
    v = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[threadIdx.x] = v;
}

// The same chain started by a warp-uniform condition: every link is uniform.
__global__ void silentUniformChain(const int *in, int *out, int n) {
  int v = in[threadIdx.x];
  int a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0, a8 = 0;
  if (n > 16) a0 = 1;
  if (a0) a1 = 1;
  if (a1) a2 = 1;
  if (a2) a3 = 1;
  if (a3) a4 = 1;
  if (a4) a5 = 1;
  if (a5) a6 = 1;
  if (a6) a7 = 1;
  if (a7) a8 = 1;
  if (a8)
    v = __shfl_sync(FULL, v, 0);
  out[threadIdx.x] = v;
}

// ---------------------------------------------------------------------------
// Mutual recursion. `shuffleDown` is defined first and holds the shuffle;
// `countDown`, defined second, reaches it only through `shuffleDown`.

__device__ int countDown(int v, int depth);

__device__ int shuffleDown(int v, int depth) {
  if (depth == 0)
    return __shfl_sync(FULL, v, 0);
  return countDown(v, depth - 1);
}

__device__ int countDown(int v, int depth) {
  if (depth <= 0)
    return shuffleDown(v, 0);
  return shuffleDown(v, depth - 1);
}

__global__ void flagMutualRecursionSecond(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (v > 0)
    v = countDown(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'countDown' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_sync'): lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-16]]:12: note: the shuffle in 'countDown' that needs the lanes is here
  out[threadIdx.x] = v;
}

__global__ void flagMutualRecursionFirst(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (v > 0)
    v = shuffleDown(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'shuffleDown' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_sync'): lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-26]]:12: note: the shuffle in 'shuffleDown' that needs the lanes is here
  out[threadIdx.x] = v;
}

// Converged calls of the same cycle, and a cycle whose return value is
// the lane id only through the other member.
__device__ int laneB(int d);
__device__ int laneA(int d) { return d == 0 ? (int)(threadIdx.x & 31) : laneB(d - 1); }
__device__ int laneB(int d) { return laneA(d); }

__global__ void silentConvergedCycle(const int *in, int *out, int depth) {
  int v = in[threadIdx.x];
  v = countDown(v, depth);
  v += shuffleDown(v, depth);
  out[threadIdx.x] = v;
}

__global__ void flagCycleReturnsLane(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (laneB(3) < 8)
    v = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[threadIdx.x] = v;
}
