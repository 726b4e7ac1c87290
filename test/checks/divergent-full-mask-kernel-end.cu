// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
// RUN: %check_warp_tidy %s warp-divergent-full-mask --check-prefix=PRE --config="{CheckOptions: {warp-divergent-full-mask.IndependentThreadScheduling: 'false'}}" -- -arch=sm_80
//
// Lanes that leave a kernel: a thread that runs off the end of its kernel
// has exited, as one that returns has. A vote, ballot, barrier or reduction
// waits only for the lanes of its mask that have not exited (Programming
// Guide), so lanes that leave without doing anything else do not make it
// divergent on Volta and newer. A shuffle still reads them, unless it reads
// only inside aligned segments of `width` lanes that leave together.
// Lanes that go on to other work on their way out took another path: a vote
// meant for them misses them (runtime case divergent-full-mask-returning-arm).
// Before Volta (IndependentThreadScheduling=false, prefix PRE) the leaving
// lanes are inactive, not exited, while the others run the collective.

#define FULL 0xffffffffu

// --- Must stay silent on sm_70+ ----------------------------------------------

// A bound check around a warp vote: the lanes past n leave the kernel.
__global__ void silentVoteInBoundCheck(const int *in, int n, int *counts) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    unsigned votes = __ballot_sync(FULL, in[gid] > 0);
  // PRE: :[[@LINE-1]]:22: warning: __ballot_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
    if ((threadIdx.x & 31) == 0)
      counts[gid / 32] = __popc(votes);
  }
}

// A grid-stride loop with a barrier: lanes whose loop ends leave the kernel.
__global__ void silentBarrierInGridStrideLoop(const int *in, int n, int *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i] + 1;
    __syncwarp();
  // PRE: :[[@LINE-1]]:5: warning: __syncwarp with its implicit full-warp mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-4]]:55: note: this loop condition differs between the lanes of a warp
  }
}

// One row per 8-lane vector, reduced with width-8 shuffles: the loop keeps
// or drops whole vectors, and each shuffle reads only its own vector.
__global__ void silentVectorRowsWidth8(const float *in, int rows, float *out) {
  int vector = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  int lane = threadIdx.x % 8;
  for (int row = vector; row < rows; row += blockDim.x * gridDim.x / 8) {
    float v = in[row * 8 + lane];
    for (int offset = 4; offset > 0; offset /= 2)
      v += __shfl_down_sync(FULL, v, offset, 8);
  // PRE: :[[@LINE-1]]:12: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-5]]:26: note: this loop condition differs between the lanes of a warp
    if (lane == 0)
      out[row] = v;
  }
}

template <int Width> __device__ float segmentSum(float v) {
  for (int offset = Width / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(FULL, v, offset, Width);
  return v;
}

// The same through a helper whose shuffles have width 4.
__global__ void silentHelperWidth4(const float *in, int groups, float *out) {
  int group = (blockIdx.x * blockDim.x + threadIdx.x) >> 2;
  if (group < groups) {
    float s = segmentSum<4>(in[group * 4 + (threadIdx.x & 3)]);
  // PRE: :[[@LINE-1]]:15: warning: 'segmentSum<4>' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  // PRE: :[[@LINE-11]]:10: note: the shuffle in 'segmentSum<4>' that needs the lanes is here
    if ((threadIdx.x & 3) == 0)
      out[group] = s;
  }
}

// An explicit early return that keeps whole 4-lane segments, before a
// width-4 shuffle: no lane that arrives reads one that returned.
__global__ void silentReturnKeepsSegments(const unsigned *dag, unsigned size, unsigned *out) {
  unsigned node = blockIdx.x * blockDim.x + threadIdx.x;
  if ((node >> 2) >= size)
    return;
  unsigned word = dag[node];
  for (int src = 0; src < 4; ++src)
    word ^= __shfl_sync(FULL, word, src, 4);
  out[node] = word;
}

// Lanes 16-31 return; `lane ^ 1` and `lane ^ 2` stay inside aligned groups
// of 2 and 4 lanes, all of which arrive. Also through a wrapper whose lane
// mask (and shuffle mask) are its parameters.
__device__ int xorWrapper(int v, int laneMask, unsigned mask = FULL, int width = warpSize) {
  return __shfl_xor_sync(mask, v, laneMask, width);
}

__global__ void silentXorInsideLiveHalf(int *out, int v) {
  if ((threadIdx.x & 31) >= 16)
    return;
  v += __shfl_xor_sync(FULL, v, 1);
  v += xorWrapper(v, 2);
  out[threadIdx.x] = v;
}

// --- Must flag ---------------------------------------------------------------

// The same with `lane ^ 16`: every lane that arrives reads one that returned.
__global__ void flagXorAcrossHalves(int *out, int v) {
  if ((threadIdx.x & 31) >= 16)
    return;
  v += xorWrapper(v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 'xorWrapper' contains a shuffle with a full mask, but it is called after a thread-dependent early return: lanes 16-31 may have exited{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp; the lanes for which it leads to 'return' have exited before the shuffle
  // CHECK-MESSAGES: :[[@LINE-20]]:10: note: the shuffle in 'xorWrapper' is here
  // PRE: :[[@LINE-4]]:8: warning: 'xorWrapper' contains a shuffle with a full mask{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-7]]:7: note: this condition differs
  // PRE: :[[@LINE-23]]:10: note: the shuffle in 'xorWrapper' is here
  out[threadIdx.x] = v;
}

// A full-warp shuffle in the bound check: lanes past n leave the kernel and
// the shuffle reads them.
__global__ void flagShuffleInBoundCheck(const int *in, int n, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    int v = in[gid];
    v += __shfl_down_sync(FULL, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // PRE: :[[@LINE-3]]:10: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-6]]:7: note: this condition differs between the lanes of a warp
    out[gid] = v;
  }
}

// Width 16, but the loop keeps only whole 8-lane vectors: a shuffle of one
// 16-lane segment can read a vector that has left.
__global__ void flagSegmentWiderThanVector(const float *in, int rows, float *out) {
  int vector = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  for (int row = vector; row < rows; row += blockDim.x * gridDim.x / 8) {
    float v = in[row];
    v += __shfl_xor_sync(FULL, v, 8, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: this loop condition differs between the lanes of a warp
  // PRE: :[[@LINE-3]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-6]]:26: note: this loop condition differs between the lanes of a warp
    out[row] = v;
  }
}

// An early return that splits 4-lane segments before a width-4 shuffle.
__global__ void flagReturnSplitsSegments(const unsigned *dag, unsigned *out) {
  unsigned node = blockIdx.x * blockDim.x + threadIdx.x;
  if ((node & 3) == 3)
    return;
  unsigned word = dag[node];
  word ^= __shfl_sync(FULL, word, 3, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: __shfl_sync with a full mask runs after a thread-dependent early return: some lanes may have exited{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp; the lanes for which it leads to 'return' have exited before the shuffle
  // PRE: :[[@LINE-3]]:11: warning: __shfl_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-7]]:7: note: this condition differs between the lanes of a warp; the lanes for which it leads to 'return' have exited
  out[node] = word;
}

// Lanes that leave the loop still write their result: they took another
// path, and the vote meant for them misses them.
__global__ void flagVoteWhileOthersWork(const int *in, int n, unsigned *votes, int *done) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int i = gid;
  while (in[i] > 0 && i < n) {
    votes[i] = __ballot_sync(FULL, in[i] > 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: __ballot_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: this{{.*}} differs between the lanes of a warp, so only some lanes take the path to the collective
  // PRE: :[[@LINE-3]]:16: warning: __ballot_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // PRE: :[[@LINE-5]]:23: note: this{{.*}} differs between the lanes of a warp
    i += 32;
  }
  done[gid] = i;
}
