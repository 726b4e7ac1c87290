// RUN: %check_warp_tidy %s warp-shfl-source-outside-mask
// RUN: %check_warp_tidy %s warp-shfl-source-outside-mask -- -arch=sm_90
//
// warp-shfl-source-outside-mask: a shuffle whose source lane can be outside
// its mask while the reading lane uses the value.

#define FULL 0xffffffffu
#define HALF 0x0000ffffu

// --- Must flag -------------------------------------------------------------

// The spec's example: a ballot-derived mask, then a down reduction. With
// fewer than 32 lanes (the last, partial warp), lane 0 reads lane 16.
__global__ void ballotReduction(const int *in, int n, int *sums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(FULL, gid < n);
  if (gid < n) {
    int s = in[gid];
    for (int off = 16; off > 0; off >>= 1)
      s += __shfl_down_sync(active, s, off);
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down_sync reads lane + 16, but its mask holds only the lanes where 'gid < n' was true: when fewer than 32 lanes take part, the lanes near the top of the mask read lanes outside it, get undefined values and use them; let every lane take part under the full mask (the others with a neutral value), or use the value only when the source lane is in the mask, e.g. 'if ((mask >> (lane + offset)) & 1)' [warp-shfl-source-outside-mask]
      // CHECK-MESSAGES: :[[@LINE-6]]:27: note: the mask comes from this ballot: the lanes where 'gid < n' is true
    if ((threadIdx.x & 31) == 0)
      sums[gid / 32] = s;
  }
}

// A butterfly under a data-dependent ballot, the ballot used inline, and the
// value kept in a variable that is then used unguarded.
__global__ void ballotButterfly(const float *in, float *out) {
  const float v = in[threadIdx.x];
  if (v > 0.0f) {
    float t = __shfl_xor_sync(__ballot_sync(FULL, v > 0.0f), v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_xor_sync reads lane ^ 1, but its mask holds only the lanes where 'v > 0.0f' was true{{.*}}[warp-shfl-source-outside-mask]
    // CHECK-MESSAGES: :[[@LINE-2]]:31: note: the mask comes from this ballot: the lanes where 'v > 0.0f' is true
    out[threadIdx.x] = v + t;
    // CHECK-MESSAGES: :[[@LINE-1]]:28: note: the shuffled value is used here without a guard on the source lane
  }
}

// Part of the second warp: lanes 16-31 are outside the mask.
__global__ void partialWarpBallot(int *out, int v) {
  const unsigned mask = __ballot_sync(FULL, threadIdx.x < 48);
  if (threadIdx.x < 48)
    out[threadIdx.x] = __shfl_down_sync(mask, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_down_sync reads lane + 1, but its mask holds only the lanes where 'threadIdx.x < 48' was true{{.*}}[warp-shfl-source-outside-mask]
    // CHECK-MESSAGES: :[[@LINE-4]]:25: note: the mask comes from this ballot: the lanes where 'threadIdx.x < 48' is true
}

// Constant masks: offsets that leave the mask.
__global__ void halfWarp(int *out, int v) {
  const int lane = threadIdx.x & 31;
  if (lane < 16) {
    out[lane] = __shfl_down_sync(HALF, v, 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: __shfl_down_sync reads lane + 8, so lane 8 reads lane 16, which is not in the mask 0x0000ffff: a lane outside the mask does not take part and the value it returns is undefined, yet lane 8 uses it; use offsets that stay within the mask's lanes, or add the lanes that are read to the mask (and make them reach the call) [warp-shfl-source-outside-mask]
    int x = v;
    for (int m = 16; m >= 1; m /= 2)
      x += __shfl_xor_sync(HALF, x, m);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync reads lane ^ 16, so lane 0 reads lane 16, which is not in the mask 0x0000ffff{{.*}}[warp-shfl-source-outside-mask]
    out[32 + lane] = x;
    out[64 + lane] = __shfl_sync(HALF, v, 20);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_sync reads lane 20, so lane 0 reads lane 20, which is not in the mask 0x0000ffff{{.*}}[warp-shfl-source-outside-mask]
  }
  // The upper half of the warp: lane 16 reads lane 15.
  if (lane >= 16)
    out[96 + lane] = __shfl_up_sync(0xffff0000u, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_up_sync reads lane - 1, so lane 16 reads lane 15, which is not in the mask 0xffff0000{{.*}}[warp-shfl-source-outside-mask]
}

// A written-out tree that starts too wide: lane 0 reads lane 16 in the
// first step.
__global__ void writtenOutTreeTooWide(int *out, const int *in) {
  const int lane = threadIdx.x & 31;
  if (lane < 16) {
    int s = in[lane];
    s += __shfl_down_sync(HALF, s, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync reads lane + 16, so lane 0 reads lane 16, which is not in the mask 0x0000ffff{{.*}}[warp-shfl-source-outside-mask]
    s += __shfl_down_sync(HALF, s, 8);
    s += __shfl_down_sync(HALF, s, 4);
    if (lane == 0)
      out[0] = s;
  }
}

// Width 16: the low segment ends at lane 15, so lane 8 + 8 gets its own
// value back and 0x0000ffff is fine; with 0x000000ff lane 0 reads lane 8.
// Reported once, for the instantiation that reads outside.
template <unsigned Mask> __global__ void templated(int *out, int v) {
  out[threadIdx.x] = __shfl_down_sync(Mask, v, 8, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_down_sync reads lane + 8 (width 16), so lane 0 reads lane 8, which is not in the mask 0x000000ff{{.*}}[warp-shfl-source-outside-mask]
}
template __global__ void templated<0x0000ffffu>(int *, int);
template __global__ void templated<0x000000ffu>(int *, int);

// Through a helper that takes the mask as a parameter, as in cuda-samples'
// reduction_kernel.cu (reduce7): reported where the mask is passed.
template <class T> __device__ T warpReduceSum(unsigned mask, T sum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(mask, sum, offset);
  return sum;
}
template <unsigned BlockSize> __global__ void reduce7(const float *in, float *out) {
  __shared__ float partial[32];
  const unsigned tid = threadIdx.x;
  float sum = warpReduceSum(0xffffffffu, in[blockIdx.x * BlockSize + tid]);
  if (tid % 32 == 0)
    partial[tid / 32] = sum;
  __syncthreads();
  const unsigned warps = BlockSize / warpSize;
  const unsigned active = __ballot_sync(0xffffffffu, tid < warps);
  if (tid < warps) {
    sum = warpReduceSum(active, partial[tid]);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'warpReduceSum<float>' shuffles with the mask passed here, which holds only the lanes where 'tid < warps' was true, and its __shfl_down_sync reads lane + 16: when fewer than 32 lanes take part, the lanes near the top of the mask read lanes outside it, get undefined values and use them; let every lane call it under the full mask (the others with a neutral value), or guard the use of each shuffled value with the source lane's bit of the mask [warp-shfl-source-outside-mask]
    // CHECK-MESSAGES: :[[@LINE-15]]:12: note: the shuffle in 'warpReduceSum<float>' is here
    // CHECK-MESSAGES: :[[@LINE-5]]:27: note: the mask comes from this ballot: the lanes where 'tid < warps' is true
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}
template __global__ void reduce7<256>(const float *, float *);

__device__ int addHalf(unsigned mask, int v) { return v + __shfl_xor_sync(mask, v, 16); }
__global__ void helperConstantMask(int *out, int v) {
  if ((threadIdx.x & 31) < 16)
    out[0] = addHalf(0x0000ffffu, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'addHalf' shuffles with the mask 0x0000ffff passed here, and its __shfl_xor_sync reads lane ^ 16, so lane 0 reads lane 16, which is not in the mask: the value is undefined, yet lane 0 uses it; pass a mask that holds the lanes the helper reads, or use offsets that stay within the mask [warp-shfl-source-outside-mask]
    // CHECK-MESSAGES: :[[@LINE-5]]:59: note: the shuffle in 'addHalf' is here
  // The full warp, and a whole-warp ballot (1024 threads: 32 partials).
  out[1] = addHalf(0xffffffffu, v);
}
template __global__ void reduce7<1024>(const float *, float *);

// --- Must stay silent ------------------------------------------------------

// Every lane takes part with a neutral value under the full mask.
__global__ void padded(const int *in, int n, int *sums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int s = gid < n ? in[gid] : 0;
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_down_sync(FULL, s, off);
  if ((threadIdx.x & 31) == 0)
    sums[gid / 32] = s;
}

// The ballot mask with the value used only when the source lane is in it.
__global__ void guardedUse(const int *in, int n, int *sums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const unsigned active = __ballot_sync(FULL, gid < n);
  if (gid < n) {
    int s = in[gid];
    for (int off = 16; off > 0; off >>= 1) {
      int t = __shfl_down_sync(active, s, off);
      if ((active >> (lane + off)) & 1)
        s += t;
    }
    int u = __shfl_down_sync(active, s, 1);
    s = (lane + 1 < __popc(active)) ? s + u : s;
    int w = __shfl_xor_sync(active, s, 2);
    sums[gid] = s + w * (lane + 2 < n);
  }
}

// A warp-uniform ballot condition: the mask is all lanes or none. (With
// warp-aligned blocks `threadIdx.x < 64` selects whole warps; `< 48` does not.)
__global__ void uniformBallot(int *out, int v) {
  const unsigned mask = __ballot_sync(FULL, v > 0);
  if (v > 0)
    out[threadIdx.x] = __shfl_down_sync(mask, v, 1);
  const unsigned firstTwoWarps = __ballot_sync(FULL, threadIdx.x < 64);
  if (threadIdx.x < 64)
    out[threadIdx.x] += __shfl_down_sync(firstTwoWarps, v, 1);
}

// Constant masks whose readers stay inside: a 16-lane tree reduction (its
// result is lane 0's), a width-16 segment, an up scan in the upper half.
__global__ void insideTheMask(int *out, int v) {
  const int lane = threadIdx.x & 31;
  if (lane < 16) {
    int s = v;
    for (int off = 8; off > 0; off >>= 1)
      s += __shfl_down_sync(HALF, s, off);
    out[0] = s;
    out[lane] = __shfl_down_sync(HALF, v, 8, 16);
    out[32 + lane] = __shfl_xor_sync(HALF, v, 8);
    out[64 + lane] = __shfl_sync(HALF, v, 15);
  }
  if (lane >= 16)
    out[96 + lane] = __shfl_up_sync(0xffff0000u, v, 1, 16);
}

// The same tree written out step by step, as a 16-thread kernel would: each
// step alone has lanes 8-15 read lanes 16-23, but the total is lane 0's,
// which reads only lanes 0-15.
__global__ void writtenOutTree(int *out, const int *in) {
  const int lane = threadIdx.x & 31;
  if (lane < 16) {
    int s = in[lane];
    s += __shfl_down_sync(HALF, s, 8);
    s += __shfl_down_sync(HALF, s, 4);
    s += __shfl_down_sync(HALF, s, 2);
    s += __shfl_down_sync(HALF, s, 1);
    if (lane == 0)
      out[0] = s;
  }
}

// Two trees on one variable (CPM.cu's RMS norm): each warp's total, then
// the first 16 lanes reduce the warps' totals. Each step belongs to its own
// tree.
__global__ void treeOfWarpTotals(float *out, const float *in) {
  __shared__ float totals[16];
  const int col = threadIdx.x;
  float sum = in[blockIdx.x * blockDim.x + col];
  sum += __shfl_down_sync(FULL, sum, 16);
  sum += __shfl_down_sync(FULL, sum, 8);
  sum += __shfl_down_sync(FULL, sum, 4);
  sum += __shfl_down_sync(FULL, sum, 2);
  sum += __shfl_down_sync(FULL, sum, 1);
  if (col % 32 == 0)
    totals[col / 32] = sum;
  __syncthreads();
  if (col < 16) {
    sum = totals[col];
    sum += __shfl_down_sync(HALF, sum, 8);
    sum += __shfl_down_sync(HALF, sum, 4);
    sum += __shfl_down_sync(HALF, sum, 2);
    sum += __shfl_down_sync(HALF, sum, 1);
  }
  if (col == 0)
    out[blockIdx.x] = sum;
}

// The shuffled value is discarded, or the offset is not known statically.
__global__ void unknowable(int *out, int v, int d, unsigned m) {
  const int lane = threadIdx.x & 31;
  if (lane < 16) {
    __shfl_down_sync(HALF, v, 8);
    out[lane] = __shfl_down_sync(HALF, v, d);
    out[lane] += __shfl_down_sync(m, v, 8);
  }
}

// A branch that folds to false in one instantiation is never compiled: its
// shuffle is not judged there. (FasterTransformer's attention template, in
// its 256-wide instance, has `if (64 <= 32)` around a mask that only makes
// sense for the instances that compile the branch.)
template <int Lanes> __global__ void foldedBranch(int *out, int v) {
  const int lane = threadIdx.x & 31;
  if (Lanes <= 32) {
    constexpr unsigned Mask = Lanes > 32 ? 0x7fffffffu : 0xffffffffu;
    out[lane] = __shfl_down_sync(Mask, v, 16);
  }
}
template __global__ void foldedBranch<64>(int *, int);
template __global__ void foldedBranch<32>(int *, int);
