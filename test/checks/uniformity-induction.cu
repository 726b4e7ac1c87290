// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// Induction variables. `for (int i = lane; i < roundUp32(n); i += 32)` is
// warp-uniform only because every write of i is the init or a step that all
// lanes of the warp take: i - lane is the same in every lane. Each write that
// the analysis cannot follow (through a reference, a pointer, a lambda that
// captures by reference, an asm output, a second assignment, a step it does
// not know) must make it give up on that variable, and on that variable only:
// a clean loop of the same shape in the same function stays silent.

#define FULL 0xffffffffu

__device__ int roundUp32(int n) { return (n + 31) / 32 * 32; }
__device__ void bump(int &x) { x += threadIdx.x & 1; }
__device__ void bumpThrough(int *x) { *x += threadIdx.x & 1; }
__device__ void readOnly(const int &x) {}

__global__ void silentCleanInductions(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    readOnly(i); // a const reference reads only
    acc += __shfl_xor_sync(FULL, acc, 1);
  }
  int k = lane;
  while (k < roundUp32(n)) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    k = k + 32;
  }
  out[threadIdx.x] = acc;
}

__global__ void flagWrittenThroughReferenceParameter(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    bump(i);
  }
  // The same shape on another variable of the same function: still silent.
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

__global__ void flagWrittenThroughPointer(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    bumpThrough(&i);
  }
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

__global__ void flagWrittenThroughLocalReference(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    int &alias = i;
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    alias += threadIdx.x & 1;
  }
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

__global__ void flagWrittenByLambdaCapture(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    auto skip = [&i] { i += threadIdx.x & 1; };
    skip();
  }
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

__global__ void flagUnknownStep(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i *= 2) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

__global__ void flagSecondAssignment(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  int i = lane;
  if (n > 64)
    i = threadIdx.x % 7;
  while (i < roundUp32(n)) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    i += 32;
  }
  for (int j = lane; j < roundUp32(n); j += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

// Giving up on one variable must not lose another's steps: j's step differs
// between lanes, which only its recorded step shows.
__global__ void flagVaryingStepAfterAnotherVariableGaveUp(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  int i = lane;
  bump(i);
  for (int j = lane; j < roundUp32(n); j += 32 + (threadIdx.x & 1)) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  out[i] = acc;
}

// Several definitions, but only one reaches the loop: the variable there is
// that definition plus its steps. GE-SpMM reuses its index variable this way
// (`i = ((warp / nnv) << 5) + lane; for (; i < n + lane; i += stride)`).
__global__ void silentRedefinedBeforeLoop(float *out, int n, int stride) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  int i = threadIdx.x;
  out[i] = 0;
  i = ((blockIdx.x * blockDim.x + threadIdx.x) / 32 << 5) + lane;
  for (; i < roundUp32(n) + (int)lane; i += 32 * stride)
    acc += __shfl_xor_sync(FULL, acc, 1);
  out[threadIdx.x] = acc;
}

// A definition after the loop does not reach its test.
__global__ void silentRedefinedAfterLoop(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  int i = lane;
  for (; i < roundUp32(n); i += 32)
    acc += __shfl_xor_sync(FULL, acc, 1);
  i = threadIdx.x % 7;
  out[i] = acc;
}

// Two definitions reach the test (one under a uniform branch, but with a
// different lane offset): the lanes can disagree.
__global__ void flagTwoDefinitionsReach(float *out, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  int i = lane;
  if (n > 64)
    i = lane / 2;
  for (; i < roundUp32(n); i += 32) {
    acc += __shfl_xor_sync(FULL, acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  out[threadIdx.x] = acc;
}

// dgSPARSE's merge-based SpMM: the thread id is redefined from the warp id
// divided by a run-time count, then strides by a run-time amount. At the
// loop test it is ((warp / nnv) << 5) + lane plus uniform steps: less the
// lane, the same in every lane. Before the redefinition, `warp` and `lane`
// read the first definition with no step taken yet.
__global__ void silentRedefinedFromWarpQuotient(float *out, int nv, int nnz) {
  int tid = 256 * blockIdx.x + threadIdx.x;
  int warp = tid >> 5;
  int lane = tid & 31;
  int nnv = nv / 2;
  tid = ((warp / nnv) << 5) + lane;
  int stride = 256 * gridDim.x / nnv;
  float acc = 0;
  for (; tid < nnz + lane; tid += stride) {
    __syncwarp();
    acc += out[tid];
  }
  out[threadIdx.x] = acc;
}

// The same with the lane's own quotient: lanes of one warp differ.
__global__ void flagRedefinedFromLaneQuotient(float *out, int nv, int nnz) {
  int tid = 256 * blockIdx.x + threadIdx.x;
  int lane = tid & 31;
  int nnv = nv / 2;
  tid = ((tid / nnv) << 5) + lane;
  float acc = 0;
  for (; tid < nnz + lane; tid += 32) {
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp with its implicit full-warp mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    acc += out[tid];
  }
  out[threadIdx.x] = acc;
}

// A loop whose first test fails in this instantiation never runs: with
// TB = 1 the tree `for (i = TB / 2; i > 0; i /= 2)` is dead code, like a
// discarded `if constexpr` branch (pytorch_scatter's segment_csr, which
// instantiates TB = 1 for short rows). With TB = 2 it runs, under a
// condition that splits the warp's 2-lane rows.
template <int TB> __global__ void segmentSumDeadTree(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / TB;
  if (row < n) {
    float v = in[t];
    for (int i = TB / 2; i > 0; i /= 2)
      v += __shfl_down_sync(FULL, v, i);
    if ((t & (TB - 1)) == 0)
      out[row] = v;
  }
}
template __global__ void segmentSumDeadTree<1>(const float *, float *, int);

template <int TB> __global__ void segmentSumLiveTree(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / TB;
  if (row < n) {
    float v = in[t];
    for (int i = TB / 2; i > 0; i /= 2)
      v += __shfl_down_sync(FULL, v, i);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    if ((t & (TB - 1)) == 0)
      out[row] = v;
  }
}
template __global__ void segmentSumLiveTree<2>(const float *, float *, int);

// Whole aligned groups of G lanes leave; the butterfly over each group, a
// loop whose xor offset only shrinks from G / 2, never reads a lane that
// left (cuda_hgemv's GEMV, 2 to 16 lanes a column). Started at 16 it reads
// the other groups, some of which may have left.
template <int G>
__global__ void groupButterflyAfterExit(const float *in, float *out, int ncols) {
  const int col = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  if (col >= ncols)
    return;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = G / 2; i >= 1; i /= 2)
    v += __shfl_xor_sync(FULL, v, i);
  if (threadIdx.x % G == 0)
    out[col] = v;
}
template __global__ void groupButterflyAfterExit<4>(const float *, float *, int);

__global__ void warpButterflyAfterGroupExit(const float *in, float *out, int ncols) {
  const int col = (blockIdx.x * blockDim.x + threadIdx.x) / 4;
  if (col >= ncols)
    return;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 16; i >= 1; i /= 2)
    v += __shfl_xor_sync(FULL, v, i);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: this condition differs between the lanes of a warp{{.*}}
  if (threadIdx.x % 4 == 0)
    out[col] = v;
}

// A compound assignment defines its variable anew from the value that
// reaches it (SuperLU_DIST's `wrp = tid + blockIdx.x * block_size; wrp /=
// WARP_SIZE;`): the global thread index divided by 32 is the warp's index,
// and a row index read at it is one value per warp.
__global__ void silentWarpIndexByCompoundDivide(const int *rows, const long *offsets, float *out,
                                                int nrows) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int blockSize = blockDim.x * blockDim.y;
  int wrp;
  wrp = tid + blockIdx.x * blockSize;
  int lne = wrp % 32;
  wrp /= 32;
  if (wrp >= nrows)
    return;
  int row = rows[wrp];
  if (offsets[row] == -1)
    return;
  float v = out[tid];
  v += __shfl_xor_sync(FULL, v, 1);
  if (lne == 0)
    out[row] = v;
}

// The same steps keeping a lane-varying value must still be reported: `%=`
// and `>>=` by less than a warp leave lanes that differ.
__global__ void laneIndexByCompoundRemainder(float *out, int n) {
  int w = threadIdx.x + blockIdx.x * blockDim.x;
  w %= 32;
  float v = out[threadIdx.x];
  if (w < n)
    v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

__global__ void halfWarpByCompoundShift(float *out) {
  int h = threadIdx.x;
  h >>= 4;
  float v = out[threadIdx.x];
  if (h & 1)
    v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// A compound assignment in a loop is reached by its own earlier run: the
// value that reaches the condition is no single definition.
__global__ void compoundInLoopKeepsLaneValue(float *out, int n) {
  int w = threadIdx.x / 32;
  float v = out[threadIdx.x];
  for (int i = 0; i < 4; ++i) {
    if (w < n)
      v += __shfl_xor_sync(FULL, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
    w ^= threadIdx.x & 1;
  }
  out[threadIdx.x] = v;
}
