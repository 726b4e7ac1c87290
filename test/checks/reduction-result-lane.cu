// RUN: %check_warp_tidy %s warp-reduction-result-lane
//
// warp-reduction-result-lane: a __shfl_down_sync tree reduction leaves the
// total in lane 0 only; the other lanes hold partial sums. Must-flag kernels
// first, then must-stay-silent ones.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

__device__ float warpReduceSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

__device__ float warpAllReduceSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(FULL, v, off);
  return v;
}

// A block reduction: warp totals through shared memory, then warp 0 reduces
// them. Thread 0 holds the block total.
__device__ float blockReduceSum(float v) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  v = warpReduceSum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.0f;
  if (warp == 0) v = warpReduceSum(v);
  return v;
}

// ---------------------------------------------------------------- must flag

// A write in one arm of an `if` after the tree does not hide it from a read
// that the other arm reaches.
__global__ void treeReachesPastOneArm(const float *in, float *out, bool clear) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (clear) {
    v = 0.0f;
  } else {
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'v' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-6]]:10: note: the reduction moves values down towards lane 0 here
  }
}

// Every lane divides by the "total" (the real bug: per-atom force totals).
__global__ void normaliseInline(const float *in, float *out) {
  float x = in[threadIdx.x];
  float sum = x;
  for (int off = 16; off > 0; off /= 2)
    sum += __shfl_down_sync(FULL, sum, off);
  out[threadIdx.x] = x / sum;
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'sum' holds the total of a __shfl_down_sync tree reduction only in lane 0 (every other lane holds a partial sum of the lanes at and above it), but lanes other than lane 0 use it here; broadcast the total first ('__shfl_sync(mask, v, 0)'), reduce with __shfl_xor_sync so that every lane holds it, or use it only in lane 0 [warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: the reduction moves values down towards lane 0 here
}

// Through the usual helper; the use is a store every lane makes.
__global__ void meanThroughHelper(const float *in, float *out, int n) {
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  float total = warpReduceSum(x);
  float mean = total / n;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'total' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: the value comes from this call, whose reduction leaves the total in lane 0
  // CHECK-MESSAGES: :14:10: note: the reduction moves values down towards lane 0 here
  out[blockIdx.x * blockDim.x + threadIdx.x] = x - mean;
}

// An unrolled tree, max instead of sum, used in a branch every lane takes.
__global__ void unrolledMax(const float *in, int *flags, float limit) {
  float m = in[threadIdx.x];
  m = fmaxf(m, __shfl_down_sync(FULL, m, 16));
  m = fmaxf(m, __shfl_down_sync(FULL, m, 8));
  m = fmaxf(m, __shfl_down_sync(FULL, m, 4));
  m = fmaxf(m, __shfl_down_sync(FULL, m, 2));
  m = fmaxf(m, __shfl_down_sync(FULL, m, 1));
  if (m > limit)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'm' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-3]]:16: note: the reduction moves values down towards lane 0 here
    flags[threadIdx.x] = 1;
}

// The helper's result used directly by every thread, through two helpers.
__global__ void blockTotalUsedEverywhere(const float *in, float *out) {
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = x / blockReduceSum(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: the result of this call holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-2]]:52: note: the value comes from this call, whose reduction leaves the total in lane 0
  // CHECK-MESSAGES: :14:10: note: the reduction moves values down towards lane 0 here
}

// Every lane writes its own partial to the warp's slot: which one lands is
// undefined, and 31 of the 32 candidates are not the total.
__global__ void everyLaneStores(const float *in, float *out) {
  float v = warpReduceSum(in[threadIdx.x]);
  out[threadIdx.x / 32] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'v' holds the total {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value comes from this call
  // CHECK-MESSAGES: :14:10: note: the reduction moves values down
}

// A cooperative-groups tile's shfl_down tree: the same.
__global__ void tileDownTree(const float *in, float *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += tile.shfl_down(v, off);
  out[threadIdx.x] = in[threadIdx.x] / v;
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'v' holds the total {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: the reduction moves values down
}

// Without a fresh write each iteration, the tree of one iteration is what
// the other arm reads in the next.
__global__ void treeReachesNextIteration(const float *in, float *out, const int *rows, int n) {
  float c = in[threadIdx.x];
  for (int k = 0; k < n; ++k) {
    if (rows[k] == 0) {
      for (int off = 16; off > 0; off >>= 1)
        c += __shfl_down_sync(FULL, c, off);
    } else {
      out[k * 32 + (threadIdx.x & 31)] = c;
      // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'c' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
      // CHECK-MESSAGES: :[[@LINE-4]]:14: note: the reduction moves values down towards lane 0 here
    }
  }
}

// A template's tree is judged in each instantiation: with W = 32 it is a
// whole-warp tree, and every lane reads its result.
template <int W> __global__ void templatedWholeWarpTree(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int i = W / 2; i > 0; i /= 2)
    v += __shfl_down_sync(FULL, v, i);
  out[threadIdx.x] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'v' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: the reduction moves values down towards lane 0 here
}
template __global__ void templatedWholeWarpTree<32>(const float *, float *);

// The "lane" is taken from a thread id after it was rescaled: not the lane.
__global__ void laneOfRescaledId(const float *in, float *out) {
  int tid = 256 * blockIdx.x + threadIdx.x;
  float v = in[tid];
  tid = tid * 3;
  int lane = tid & 31;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (lane == 0)
    atomicAdd(out, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'v' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-4]]:10: note: the reduction moves values down towards lane 0 here
}

// A helper's thread index that one caller passes rescaled: not the lane.
__device__ inline void addWarpTotal(float v, unsigned tx, float *out) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (tx % 32 == 0)
    atomicAdd(out, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'v' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-4]]:10: note: the reduction moves values down towards lane 0 here
}
__global__ void totalsByThread(const float *in, float *out) {
  addWarpTotal(in[threadIdx.x], threadIdx.x, out);
}
__global__ void totalsByPair(const float *in, float *out) {
  addWarpTotal(in[threadIdx.x], threadIdx.x * 2, out);
}

// Each element's total read by every lane in the iteration that reduced it.
__global__ void elementTotalsEverywhere(const float *in, float *out) {
  float c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = in[i * 32 + threadIdx.x];
  for (int i = 0; i < 4; ++i) {
    for (int off = 16; off > 0; off >>= 1)
      c[i] += __shfl_down_sync(FULL, c[i], off);
    out[i * 32 + threadIdx.x] = c[i];
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'c' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-3]]:15: note: the reduction moves values down towards lane 0 here
  }
}

// Totals kept in an array and then used by every lane.
__global__ void arrayTotalsEverywhere(const float *in, float *out) {
  float acc[4];
  for (int m = 0; m < 4; ++m)
    acc[m] = warpReduceSum(in[m * 32 + threadIdx.x]);
  for (int m = 0; m < 4; ++m)
    out[m * 32 + threadIdx.x] = acc[m];
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'acc' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-4]]:14: note: the value comes from this call, whose reduction leaves the total in lane 0
}

// A copy of the total is still lane 0's only: every lane stores it.
__global__ void copiedThenUsedByAll(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  float total = v;
  out[threadIdx.x] = in[threadIdx.x] / total;
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'total' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: the reduction moves values down towards lane 0 here
}

// ---------------------------------------------------------- must stay silent

// Only lane 0 consumes the total: guarded store, early exit, ?: arm.
__global__ void laneZeroConsumes(const float *in, float *out, float *out2, float *out3) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = warpReduceSum(in[threadIdx.x]);
  if (lane == 0) out[warp] = v;
  float w = warpReduceSum(in[threadIdx.x] * 2.0f);
  out2[threadIdx.x] = lane == 0 ? w : 0.0f;
  float u = warpReduceSum(in[threadIdx.x] * 3.0f);
  if (lane != 0)
    return;
  out3[warp] = u;
}

// A broadcast from lane 0, into the same variable or another one.
__global__ void broadcastFirst(const float *in, float *out) {
  float x = in[threadIdx.x];
  float sum = warpReduceSum(x);
  sum = __shfl_sync(FULL, sum, 0);
  out[threadIdx.x] = x / sum;
  float other = warpReduceSum(x * x);
  float total = __shfl_sync(FULL, other, 0);
  out[threadIdx.x] += total;
}

// An xor butterfly leaves the total in every lane; so does cg::reduce.
__global__ void butterflies(const float *in, float *out) {
  float x = in[threadIdx.x];
  float sum = warpAllReduceSum(x);
  out[threadIdx.x] = x / sum;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float s = x;
  for (int off = 16; off > 0; off /= 2)
    s += tile.shfl_xor(s, off);
  out[threadIdx.x] += s;
}

// The block total used by thread 0 only, then shared with the block.
__global__ void blockTotalThreadZero(const float *in, float *out) {
  __shared__ float total;
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = blockReduceSum(x);
  if (threadIdx.x == 0) total = s;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x / total;
}

// A tree that stops at offset `lanes` leaves `lanes` results, in lanes
// 0..lanes-1 (apex's reduce_block_into_lanes): those lanes may use them.
__device__ float reduceIntoLanes(float v, int lanes, float *out) {
  for (int i = 16; i >= lanes; i >>= 1)
    v = v + __shfl_down_sync(FULL, v, i);
  if (threadIdx.x < lanes) out[threadIdx.x] = v;
  return v;
}

// An unrolled tree without its last step (offset 1) leaves two results.
__global__ void twoResults(const float *in, float *out) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(FULL, v, 16);
  v += __shfl_down_sync(FULL, v, 8);
  v += __shfl_down_sync(FULL, v, 4);
  v += __shfl_down_sync(FULL, v, 2);
  if (threadIdx.x < 2) out[threadIdx.x] = v;
}

// Not a tree: one shuffle down by a single offset (neighbour difference),
// and a down shuffle whose offsets grow (a suffix scan, another check's).
__global__ void notTrees(const float *in, float *out) {
  float x = in[threadIdx.x];
  float next = __shfl_down_sync(FULL, x, 1);
  out[threadIdx.x] = next - x;
}

// A tree written out step by step whose later steps narrow the mask (raft's
// old dot product: 0xffffffff, then 0xffff, 0xff, 0xf, 0x3): one reduction,
// its total in lane 0, which alone stores it. (The narrowed masks are bugs of
// their own, warp-mask-excludes-caller's.)
__global__ void narrowingCascade(const float *a, float *out) {
  float l = a[threadIdx.x];
  l += __shfl_down_sync(0xffffffff, l, 16);
  l += __shfl_down_sync(0xffff, l, 8);
  l += __shfl_down_sync(0xff, l, 4);
  l += __shfl_down_sync(0xf, l, 2);
  l += __shfl_down_sync(0x3, l, 1);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, l);
}

// The same cascade with its total stored by every lane: still one tree, so
// the use after it is what is reported.
__global__ void narrowingCascadeUsedEverywhere(const float *a, float *out) {
  float l = a[threadIdx.x];
  l += __shfl_down_sync(0xffffffff, l, 16);
  l += __shfl_down_sync(0xffff, l, 8);
  l += __shfl_down_sync(0xff, l, 4);
  l += __shfl_down_sync(0xf, l, 2);
  l += __shfl_down_sync(0x3, l, 1);
  out[threadIdx.x] = l;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'l' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: the reduction moves values down towards lane 0 here
}

// Reductions over array elements (TCLB's atomicSumWarpArr, fixed upstream):
// every element's total ends in lane 0 alone.
__device__ void sumWarpArray(double *sum, double *val, unsigned char len) {
  for (int offset = 16; offset > 0; offset /= 2)
    for (unsigned char i = 0; i < len; i++)
      val[i] += __shfl_down_sync(0xffffffff, val[i], offset);
  if (threadIdx.x < len)
    atomicAdd(sum + threadIdx.x, val[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'val' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: the reduction moves values down towards lane 0 here
}

__device__ void sumWarpArrayLaneZero(double *sum, double *val, unsigned char len) {
  for (int offset = 16; offset > 0; offset /= 2)
    for (unsigned char i = 0; i < len; i++)
      val[i] += __shfl_down_sync(0xffffffff, val[i], offset);
  if (threadIdx.x % 32 == 0)
    for (unsigned char i = 0; i < len; i++)
      atomicAdd(sum + i, val[i]);
  for (unsigned char i = 0; i < len; i++)
    val[i] = __shfl_sync(0xffffffff, val[i], 0); // every lane gets the totals
  sum[len + threadIdx.x] = val[0];
}

// Only element 0 is reduced; element 1 is every lane's own value.
__global__ void oneElementReduced(const float *in, float *out) {
  float acc[2] = {in[threadIdx.x], in[threadIdx.x + 32]};
  for (int offset = 16; offset > 0; offset /= 2)
    acc[0] += __shfl_down_sync(0xffffffff, acc[0], offset);
  out[threadIdx.x] = acc[1];
  if (threadIdx.x % 32 == 0)
    out[64] = acc[0];
}

// The reduction runs in one arm, the read in the other: the value read there
// never passed through the tree (dgSPARSE's SpMM keeps both shapes in one
// kernel). Source order puts the tree first; execution never does.
__global__ void reductionInOtherArm(const float *in, float *out, bool reduce) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (reduce) {
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    if ((threadIdx.x & 31) == 0)
      out[blockIdx.x] = v;
  } else {
    out[blockIdx.x * blockDim.x + threadIdx.x] = v * 2.0f;
  }
}

// The same across switch cases that break.
__global__ void reductionInOtherCase(const float *in, float *out, int mode) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  switch (mode) {
  case 0:
    v = warpReduceSum(v);
    if ((threadIdx.x & 31) == 0)
      out[blockIdx.x] = v;
    break;
  default:
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
    break;
  }
}

// Inside a loop whose every iteration writes the variable afresh before the
// branch: the tree of one iteration never reaches the next iteration's other
// arm (dgSPARSE's row-split SpMM: a tree when the warp's non-zeros share a
// row, a segmented scan otherwise).
__global__ void reductionInOtherArmEachIteration(const float *in, float *out, const int *rows,
                                                 int n) {
  float c[2];
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < 2; i++)
      c[i] = in[(k * 2 + i) * 32 + (threadIdx.x & 31)];
    if (rows[k] == 0) {
      for (int i = 0; i < 2; i++)
        for (int off = 16; off > 0; off >>= 1)
          c[i] += __shfl_down_sync(FULL, c[i], off);
      if ((threadIdx.x & 31) == 0)
        out[k] = c[0] + c[1];
    } else {
      out[k * 32 + (threadIdx.x & 31)] = c[0] - c[1];
    }
  }
}

// A tree that starts below 16 sums segments: with TB = 8, offsets 4, 2, 1
// leave each 8-lane segment's total in its first lane, where it is read
// (pytorch_scatter's segment_csr; TB = 1 runs no step at all).
template <int TB> __global__ void segmentTotals(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[t];
  for (int i = TB / 2; i > 0; i /= 2)
    v += __shfl_down_sync(FULL, v, i);
  if ((t & (TB - 1)) == 0)
    out[t / TB] = v;
}
template __global__ void segmentTotals<8>(const float *, float *, int);
template __global__ void segmentTotals<1>(const float *, float *, int);

// The lane is taken from the thread id before the id is rewritten for the
// loop: `lane == 0` is lane 0 (dgsparse's COO SpMM kernels).
__global__ void laneBeforeIdIsRewritten(const float *in, float *out, int n, int stride) {
  int tid = 256 * blockIdx.x + threadIdx.x;
  int lane = tid & 31;
  tid = lane + ((tid >> 5) << 5);
  for (; tid < n + lane; tid += stride) {
    float v = tid < n ? in[tid] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

// Every caller passes the thread index: `tx % 32 == 0` is lane 0
// (flashinfer's radix top-k counts).
__device__ inline void addCount(unsigned c, unsigned tx, unsigned *out) {
  for (int off = 16; off > 0; off /= 2)
    c += __shfl_down_sync(FULL, c, off);
  int lane = tx % 32;
  if (lane == 0 && c > 0)
    atomicAdd(out, c);
}
__global__ void countAbove(const float *in, unsigned *out, float pivot) {
  const unsigned tx = threadIdx.x;
  addCount(in[tx] > pivot, tx, out);
}
__global__ void countBelow(const float *in, unsigned *out, float pivot) {
  addCount(in[threadIdx.x] < pivot, threadIdx.x, out);
}

// Totals kept in an array, used only in lane 0 (bitsandbytes' SIMT GEMM):
// storing a total into an element is not a use.
__global__ void arrayTotalsInLaneZero(const float *in, float *out) {
  float acc[4];
  for (int m = 0; m < 4; ++m)
    acc[m] = in[m * 32 + threadIdx.x];
  for (int m = 0; m < 4; ++m)
    acc[m] = warpReduceSum(acc[m]);
  if ((threadIdx.x & 31) == 0)
    for (int m = 0; m < 4; ++m)
      out[m] = acc[m];
}

// The tree of c[i] reaches the other arm only in a later iteration, where
// `c[i]` is another element (dgsparse's SpMM reductions in a switch).
__global__ void elementsReducedInTurn(const float *in, float *out, int mode) {
  float c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = in[i * 32 + threadIdx.x];
  for (int i = 0; i < 4; ++i) {
    if (mode == 0) {
      for (int off = 16; off > 0; off >>= 1)
        c[i] += __shfl_down_sync(FULL, c[i], off);
    } else {
      out[i * 32 + threadIdx.x] = c[i];
    }
  }
  if ((threadIdx.x & 31) == 0)
    for (int i = 0; i < 4; ++i)
      out[i] = c[i];
}

// The same through two template helpers, the kernel's thread index passed
// down by both.
template <int Block>
__device__ __forceinline__ void addCountDeep(unsigned c, unsigned tx, unsigned *out) {
  for (int off = 16; off > 0; off /= 2)
    c += __shfl_down_sync(FULL, c, off);
  if (tx % 32 == 0)
    atomicAdd(out, c);
}
template <int Block>
__device__ void countVia(const float *in, unsigned tx, unsigned *out, float pivot) {
  addCountDeep<Block>(in[tx] > pivot, tx, out);
}
template <int Block> __global__ void countAboveDeep(const float *in, unsigned *out, float pivot) {
  const unsigned tx = threadIdx.x;
  countVia<Block>(in, tx, out, pivot);
}
template __global__ void countAboveDeep<256>(const float *, unsigned *, float);

// Guards that only lane 0 passes, written in ways no pattern lists: the lane
// sets of the uniformity analysis evaluate them for every thread (fastllm's
// MoE kernels: the lane of a 64-thread group, then its low five bits).
__global__ void groupOfSixtyFour(const float *in, float *out) {
  const int local = threadIdx.x % 64;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if ((local & 31) == 0)
    out[blockIdx.x * 2 + local / 32] = v;
}
__global__ void laneZeroAndData(const int *in, int *out) {
  const int lane = (threadIdx.x + 32 * threadIdx.y) & 31;
  int c = in[threadIdx.x] > 0;
  for (int off = 16; off > 0; off >>= 1)
    c += __shfl_down_sync(FULL, c, off);
  if (lane == 0 && c > 0)
    atomicAdd(out, c);
}

// The total copied back into the lane's own accumulator, which only lane 0
// reads afterwards (fastllm's FP8 GEMV): the copy is no use, its reads are.
template <int PART>
__global__ void copiedBackThenLaneZero(const float *in, float *out) {
  const int laneId = threadIdx.x & 31;
  float acc[PART];
  for (int x = 0; x < PART; x++)
    acc[x] = in[x * blockDim.x + threadIdx.x];
  for (int x = 0; x < PART; x++) {
    float v = acc[x];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    acc[x] = v;
  }
  if (laneId == 0)
    for (int x = 0; x < PART; x++)
      out[blockIdx.x * PART + x] = acc[x];
}
template __global__ void copiedBackThenLaneZero<4>(const float *, float *);

// The fields of a local aggregate are the thread's own storage: each field
// reduced in turn and read only by lane 0 (Qulacs' complex sums) is fine;
// a field read by every lane is not, and a field never reduced is not a
// total at all.
__device__ double reduceDouble(double v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}
__global__ void complexSum(double2 *ret, const double2 *in, int n) {
  double2 sum = make_double2(0.0, 0.0);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    sum.x += in[i].x;
    sum.y += in[i].y;
  }
  sum.x = reduceDouble(sum.x);
  sum.y = reduceDouble(sum.y);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&ret[0].x, sum.x);
    atomicAdd(&ret[0].y, sum.y);
  }
}
__global__ void complexSumUsedByAll(double2 *ret, const double2 *in) {
  double2 sum = in[threadIdx.x];
  sum.x = reduceDouble(sum.x);
  ret[threadIdx.x].y = sum.y / 2.0;
  ret[threadIdx.x].x = sum.x / 2.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'sum' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: the value comes from this call{{.*}}
  // CHECK-MESSAGES: :[[@LINE-23]]:10: note: the reduction moves values down towards lane 0 here
}

// A helper that reduces every field of an aggregate and returns it
// (ElasticFusion's warpReduceSum of a 29-field struct): the return hands the
// totals to the caller, where their uses are judged.
struct Moments {
  float sum, squares;
};
__device__ Moments reduceMoments(Moments m) {
  for (int off = 16; off > 0; off /= 2) {
    m.sum += __shfl_down_sync(FULL, m.sum, off);
    m.squares += __shfl_down_sync(FULL, m.squares, off);
  }
  return m;
}
__global__ void momentsPerWarp(const float *in, Moments *out) {
  Moments m = {in[threadIdx.x], in[threadIdx.x] * in[threadIdx.x]};
  m = reduceMoments(m);
  if ((threadIdx.x & 31) == 0)
    out[threadIdx.x / 32] = m;
}

// C-style declarations: the locals get their one value by a later plain
// assignment (PG-PuReMD's sparse mat-vec). `lane_id` is the lane there, so
// only lane 0 stores the total.
__global__ void declaredFirstAssignedOnce(const double *vals, double *b, int n) {
  int thread_id, warp_id, lane_id, offset;
  double sum;
  thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  warp_id = thread_id >> 5;
  if (warp_id >= n)
    return;
  lane_id = thread_id & 0x1F;
  sum = vals[thread_id];
  for (offset = warpSize >> 1; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  if (lane_id == 0)
    b[warp_id] = sum;
}

// Assigned twice: no one value is known, so the guard proves nothing.
__global__ void declaredFirstAssignedTwice(const double *vals, double *b, int n, int k) {
  int lane_id;
  double sum = vals[threadIdx.x];
  lane_id = threadIdx.x & 31;
  if (k > 3)
    lane_id = k;
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  if (lane_id == 0)
    b[blockIdx.x] = sum;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'sum' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
}

// A cascade that narrows the width with the offset (TNN's pooling kernels):
// each step reads within lane 0's segment, so it is one whole-warp tree; the
// reads between its steps are steps, and only the read by every lane after
// it is wrong.
__global__ void narrowingCascade(const float *in, float *partials, float *out) {
  float sum = in[threadIdx.x];
  sum += __shfl_down_sync(0xffffffff, sum, 16, 32);
  sum += __shfl_down_sync(0x0000ffff, sum, 8, 16);
  sum += __shfl_down_sync(0x000000ff, sum, 4, 8);
  sum += __shfl_down_sync(0x0000000f, sum, 2, 4);
  sum += __shfl_down_sync(0x00000003, sum, 1, 2);
  if (threadIdx.x % 32 == 0)
    partials[threadIdx.x / 32] = sum;
  out[threadIdx.x] = sum;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'sum' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
}

// A tree on 16-lane segments alone leaves one total per segment, in lanes 0
// and 16: reading it there is right, and such trees are not judged.
__global__ void halfWarpTree(const float *in, float *out) {
  float sum = in[threadIdx.x];
  sum += __shfl_down_sync(0xffffffff, sum, 8, 16);
  sum += __shfl_down_sync(0xffffffff, sum, 4, 16);
  sum += __shfl_down_sync(0xffffffff, sum, 2, 16);
  sum += __shfl_down_sync(0xffffffff, sum, 1, 16);
  if (threadIdx.x % 16 == 0)
    out[threadIdx.x / 16] = sum;
}
