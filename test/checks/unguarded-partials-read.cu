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
#include <cooperative_groups/reduce.h>
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

// ------------------------------------------- shapes of real code (issue 12)
// Must flag: 2-D partials (`s[j][warp]` written, `s[j][lane]` read).
__global__ void unbounded2D(const float *in, float *out) {
  __shared__ float partial[4][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int j = 0; j < 4; ++j) {
    float v = in[j * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    if (lane == 0) partial[j][warp] = v;
  }
  __syncthreads();
  if (warp == 0)
    for (int j = 0; j < 4; ++j) {
      float v = partial[j][lane];
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'partial' are read at the lane index without a bound{{.*}}'lane < (blockDim.x + 31) / 32'{{.*}}[warp-unguarded-partials-read]
      // WHOLE-MESSAGES: :[[@LINE-2]]:17: warning: per-warp partials in 'partial' {{.*}}[warp-unguarded-partials-read]
      // CHECK-FIXES: {{^}}      float v = (lane < (blockDim.x + 31) / 32) ? partial[j][lane] : 0;{{$}}
      for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
      if (lane == 0) out[j] = v;
    }
}

// Must flag: an array of structs (online softmax's max and denominator).
struct MD {
  float m, d;
};
__device__ MD combineMD(MD a, MD b) {
  float m = fmaxf(a.m, b.m);
  return {m, a.d * __expf(a.m - m) + b.d * __expf(b.m - m)};
}
__device__ MD warpReduceMD(MD v) {
  for (int off = 16; off > 0; off >>= 1) {
    MD o = {__shfl_xor_sync(FULL, v.m, off), __shfl_xor_sync(FULL, v.d, off)};
    v = combineMD(v, o);
  }
  return v;
}
__global__ void unboundedStructs(const float *in, MD *out) {
  __shared__ MD shared[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  MD v = warpReduceMD({in[threadIdx.x], 1.0f});
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  if (warp == 0) {
    MD w = shared[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: per-warp partials in 'shared' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:12: warning: per-warp partials in 'shared' {{.*}}[warp-unguarded-partials-read]
    w = warpReduceMD(w);
    if (lane == 0) out[blockIdx.x] = w;
  }
}

// Must flag: struct members read and written one by one.
__global__ void unboundedStructMembers(const float *in, MD *out) {
  __shared__ MD shared[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  MD v = warpReduceMD({in[threadIdx.x], 1.0f});
  if (lane == 0) {
    shared[warp].m = v.m;
    shared[warp].d = v.d;
  }
  __syncthreads();
  if (warp == 0) {
    float m = shared[lane].m;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: per-warp partials in 'shared' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:15: warning: per-warp partials in 'shared' {{.*}}[warp-unguarded-partials-read]
    MD w = warpReduceMD({m, 1.0f});
    MD u = {shared[lane].d, 1.0f};
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: per-warp partials in 'shared' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:13: warning: per-warp partials in 'shared' {{.*}}[warp-unguarded-partials-read]
    if (lane == 0) out[blockIdx.x] = combineMD(w, warpReduceMD(u));
  }
}

// Must flag: the result written back to sums[lane] after the read does not
// fill the slots the read saw.
__global__ void writeBackAfterRead(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = sums[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:13: warning: per-warp partials in 'sums' {{.*}}[warp-unguarded-partials-read]
    // CHECK-FIXES: {{^}}    int t = (lane < (blockDim.x + 31) / 32) ? sums[lane] : 0;{{$}}
    t = warpSum(t);
    sums[lane] = t;
  }
  __syncthreads();
  out[blockIdx.x] = sums[0];
}

// Must flag: a static_assert that pins the block at 256 threads (8 warps),
// read over 32 slots.
template <int block_size> __global__ void pinnedTooFewWarps(const int *in, int *out, int n) {
  static_assert(block_size == 256, "written for 256 threads");
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = 0;
  for (int i = threadIdx.x; i < n; i += block_size)
    v += in[i];
  v = warpSum(v);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // WHOLE-MESSAGES: :[[@LINE-2]]:17: warning: per-warp partials in 'sums' {{.*}}[warp-unguarded-partials-read]
    if (lane == 0) out[blockIdx.x] = v;
  }
}
template __global__ void pinnedTooFewWarps<256>(const int *, int *, int);

// Must stay silent: a ceiling division of a constant block size is the
// number of warps rounded up (48 threads: 2 warps).
constexpr int kThreads = 48;
__global__ void ceilingOfConstant(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (kThreads + 31) / 32 ? sums[lane] : 0;
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// Must stay silent: the same ceiling with the warp size spelt as a macro
// and its `- 1` outside the sum, `(NT + WARP_SIZE) - 1`, in instantiations
// of 48 and 256 threads: 2 and 8 warps, rounded up.
#define WARP_SIZE 32
template <int NT> __global__ void ceilingOfTemplateSize(const int *in, int *out) {
  constexpr int kWarps = (NT + WARP_SIZE - 1) / WARP_SIZE;
  __shared__ int sums[kWarps];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  v = lane < kWarps ? sums[lane] : 0;
  if (warp == 0) {
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
template __global__ void ceilingOfTemplateSize<48>(const int *, int *);
template __global__ void ceilingOfTemplateSize<256>(const int *, int *);

// Must stay silent: 2-D and struct partials bounded by the number of warps,
// the result written back after a bounded read.
__global__ void bounded2DAndStructs(const float *in, float *out, MD *mdOut) {
  __shared__ float partial[4][32];
  __shared__ MD shared[32];
  __shared__ float sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const int warps = (blockDim.x + 31) / 32;
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  MD md = warpReduceMD({in[threadIdx.x], 1.0f});
  if (lane == 0) {
    for (int j = 0; j < 4; ++j)
      partial[j][warp] = v * j;
    shared[warp] = md;
    sums[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    float p = lane < warps ? partial[2][lane] : 0.0f;
    MD w = lane < warps ? shared[lane] : MD{-1e30f, 0.0f};
    float t = lane < warps ? sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      t += __shfl_down_sync(FULL, t, off);
    sums[lane] = t;
    if (lane == 0) {
      out[blockIdx.x] = p;
      mdOut[blockIdx.x] = warpReduceMD(w);
    }
  }
}

// Must stay silent: the code fixes the block at 1024 threads (32 warps), so
// all 32 slots are written: static_assert on the loop stride, and
// __launch_bounds__ with a loop strided by the same number.
template <int block_size> __global__ void pinnedByStaticAssert(const int *in, int *out, int n) {
  static_assert(block_size == 1024, "written for 1024 threads");
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = 0;
  for (int i = threadIdx.x; i < n; i += block_size)
    v += in[i];
  v = warpSum(v);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
template __global__ void pinnedByStaticAssert<1024>(const int *, int *, int);

__global__ void __launch_bounds__(1024) pinnedByLaunchBounds(const int *in, int *out, int n) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = 0;
  for (int i = threadIdx.x; i < n; i += 1024)
    v += in[i];
  v = warpSum(v);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// Must stay silent: 32-wide tiles, the read bounded by the number of tiles.
__global__ void tilePartials(const int *in, int *out) {
  __shared__ int sums[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < tile.meta_group_size() ? sums[tile.thread_rank()] : 0;
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) out[blockIdx.x] = v;
  }
}
