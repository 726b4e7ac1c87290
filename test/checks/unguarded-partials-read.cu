// RUN: %check_warp_tidy %s warp-unguarded-partials-read
// RUN: %check_warp_tidy %s warp-unguarded-partials-read --check-prefix=WHOLE-MESSAGES --config='{CheckOptions: {warp-unguarded-partials-read.AssumeWholeWarps: true}}'
// RUN: cp %s %t.cu
// RUN: %warp_tidy --exit-zero --quiet --fix --checks=-*,warp-unguarded-partials-read %t.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=CHECK-FIXES --input-file=%t.cu %s
//
// warp-unguarded-partials-read: the second stage of a block reduction reads
// per-warp partials at the lane index; it must be bounded by the number of
// warps, rounded up. Must-flag kernels first, then must-stay-silent ones.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

__device__ int warpSum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

__device__ float warpMax(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL, v, off));
  return v;
}

// ---------------------------------------------------------------- must flag

// The measured bug: fix-it guards the read with the ceiling form.
__global__ void unboundedRead(const int *in, int *out) {
  __shared__ int warpSums[32];
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = warpSums[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: per-warp partials in 'warpSums' are read at the lane index without a bound by the number of warps: with fewer than 32 warps in the block, lanes past the last warp read slots no warp wrote (on an H200 a 64-thread block summed 348 as 24153); read only where 'lane < (blockDim.x + 31) / 32' and use the reduction's identity elsewhere [warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:13: warning: per-warp partials in 'warpSums' {{.*}}[warp-unguarded-partials-read]
    // CHECK-FIXES: {{^}}    int s = (lane < (blockDim.x + 31) / 32) ? warpSums[lane] : 0;{{$}}
    s = warpSum(s);
    if (lane == 0) out[blockIdx.x] = s;
  }
}

// threadIdx.x as the index, `>> 5` and `% warpSize` spellings, the sum done
// inline with shuffles: fix-it too.
__global__ void unboundedThreadIdx(const float *in, float *out) {
  __shared__ float partial[32];
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(FULL, v, off);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = partial[threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: per-warp partials in 'partial' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:9: warning: per-warp partials in 'partial' {{.*}}[warp-unguarded-partials-read]
    // CHECK-FIXES: {{^}}    v = (threadIdx.x < (blockDim.x + 31) / 32) ? partial[threadIdx.x] : 0;{{$}}
    for (int off = 16; off > 0; off /= 2)
      v += __shfl_down_sync(FULL, v, off);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

// A max reduction: 0 is not its identity, so no fix-it.
__global__ void unboundedMax(const float *in, float *out) {
  __shared__ float warpMaxes[32];
  const int lane = threadIdx.x % 32;
  const int wid = threadIdx.x / 32;
  float v = warpMax(in[threadIdx.x]);
  if (lane == 0) warpMaxes[wid] = v;
  __syncthreads();
  if (wid == 0) {
    float m = warpMaxes[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: per-warp partials in 'warpMaxes' {{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:15: warning: per-warp partials in 'warpMaxes' {{.*}}[warp-unguarded-partials-read]
    // CHECK-FIXES: {{^}}    float m = warpMaxes[lane];{{$}}
    out[blockIdx.x] = warpMax(m);
  }
}

// The widespread blockReduceSum: the bound floors. Fix-it rounds it up.
template <typename T> __device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpSum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the bound on the per-warp partials read from 'shared' rounds the number of warps down: when blockDim.x is not a multiple of 32 the last, partial warp's sum is dropped (on an H200 a 48-thread block lost 16 of its elements); round up, e.g. '(blockDim.x + 31) / 32' [warp-unguarded-partials-read]
  // CHECK-FIXES: {{^}}  val = (threadIdx.x < (blockDim.x + warpSize - 1) / warpSize) ? shared[lane] : 0;{{$}}
  if (wid == 0) val = warpSum(val);
  return val;
}
__global__ void useBlockReduce(const int *in, int *out) {
  out[blockIdx.x] = blockReduceSum(in[threadIdx.x]);
}

// Floor through a variable and `>> 5`, in an enclosing if: no fix-it.
__global__ void flooredVariable(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int numWarps = blockDim.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = 0;
    if (lane < numWarps)
      // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
      v = sums[lane];
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// A constexpr block size that is not a whole number of warps floors too.
constexpr int kOddBlock = 48;
__global__ void flooredConstant(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kOddBlock / 32 ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:16: warning: the bound on the per-warp partials read from 'sums' rounds {{.*}}[warp-unguarded-partials-read]
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}

// An array smaller than a warp, read by all 32 lanes.
__global__ void arrayTooSmall(const int *in, int *out) {
  __shared__ int sums[8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = sums[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'sums' has 8 slots but is read at the lane index by all 32 lanes: lanes 8 to 31 read past its end{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:9: warning: 'sums' has 8 slots {{.*}}[warp-unguarded-partials-read]
    int w = lane < 16 ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'sums' has 8 slots but the read is bounded by 16: lanes 8 to 15 read past its end{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:25: warning: 'sums' has 8 slots {{.*}}[warp-unguarded-partials-read]
    if (lane == 0) out[blockIdx.x] = warpSum(v + w);
  }
}

// A constant bound above what __launch_bounds__ allows.
__global__ void __launch_bounds__(128) boundAboveLaunchBounds(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < 8) ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the read of 'sums' is bounded by 8, but __launch_bounds__(128) allows at most 4 warps: slots 4 to 7 are never written{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:22: warning: the read of 'sums' {{.*}}[warp-unguarded-partials-read]
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}

// ---------------------------------------------------------- must stay silent

__global__ void ceilingBounds(const int *in, int *out) {
  __shared__ int s[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  const int nw = (blockDim.x + 31) / 32;
  int a = (lane < nw) ? s[lane] : 0;
  int b = lane < (blockDim.x + warpSize - 1) / warpSize ? s[lane] : 0;
  int c = (threadIdx.x < ((blockDim.x + 31) >> 5)) ? s[threadIdx.x] : 0;
  int d = 0;
  if (warp == 0 && lane <= (blockDim.x - 1) / 32)
    d = s[lane];
  int e = 0;
  if (lane < (blockDim.x + 31) / 32) {
    e = s[lane];
  }
  out[threadIdx.x] = warpSum(a + b + c + d + e);
}

__global__ void earlyExitBound(const int *in, int *out, int numWarps) {
  __shared__ int s[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (lane >= (blockDim.x + 31) / 32) return;
  v = s[lane];
  int w = lane < numWarps ? s[lane] : 0;    // a runtime bound is trusted
  out[threadIdx.x] = v + w;
}

template <int BLOCK> __global__ void templateBlock(const int *in, int *out) {
  __shared__ int s[BLOCK / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < BLOCK / 32) ? s[lane] : 0;
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
template __global__ void templateBlock<256>(const int *, int *);

// 32 slots sized by a 1024-thread block: every slot is written.
constexpr int kBigBlock = 1024;
__global__ void everySlotWritten(const int *in, int *out) {
  __shared__ int s[kBigBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) out[blockIdx.x] = warpSum(s[lane]);
}

// An array of 8 read under `lane < 8`, __launch_bounds__(256): 8 warps.
__global__ void __launch_bounds__(256) constantBound(const int *in, int *out) {
  __shared__ int s[8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < 8 ? s[lane] : 0;
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}

// Slots zeroed first: unwritten partials read as the identity.
__global__ void zeroedFirst(const int *in, int *out) {
  __shared__ int s[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  if (threadIdx.x < 32) s[threadIdx.x] = 0;
  __syncthreads();
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) out[blockIdx.x] = warpSum(s[lane]);
}

// Not partials: a shared array written and read at the thread index, and a
// loop over the partials bounded by the number of warps.
__global__ void notPartials(const int *in, int *out) {
  __shared__ int tile[256];
  __shared__ int sums[32];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(tile[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned i = 0; i < blockDim.x / 32; ++i)
      total += sums[i];
    out[blockIdx.x] = total;
  }
}

// A templated block size: `BlockSize / warpSize` is the number of warps even
// where it folds to 32 (the 1024-thread instance), unlike a literal 32.
template <unsigned BlockSize> __global__ void templatedBlockSize(float *out) {
  __shared__ float partial[32];
  const unsigned tid = threadIdx.x;
  if (tid % 32 == 0)
    partial[tid / 32] = 1.0f;
  __syncthreads();
  const unsigned warps = BlockSize / warpSize;
  if (tid < 32) {
    float v = tid < warps ? partial[tid] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}
template __global__ void templatedBlockSize<64>(float *);
template __global__ void templatedBlockSize<1024>(float *);
