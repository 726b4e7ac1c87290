// RUN: %check_warp_tidy %s warp-unguarded-partials-read
//
// warp-unguarded-partials-read and the launches of the unit. A bound that
// floors (`lane < blockDim.x / 32`) drops the last warp only when blockDim.x
// is not a multiple of 32, and an unbounded read of 32 slots reads unwritten
// ones only when the block has fewer than 32 warps. The block's shape is
// fixed by the launches: when every launch in the unit that runs the read
// (the kernel's own, or those of every kernel reaching a helper) uses whole
// warps in x, the floor is exact and nothing is said; when one launch shows
// the defect, a note points at it. A launch that cannot be read (a block
// size from a parameter) or a kernel whose address escapes leaves the shape
// unknown, and the report stands as the kernel alone gives it.

#include <cuda_runtime.h>
#include <algorithm>

#define FULL 0xffffffffu

__device__ int warpSum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

// The second stage with a flooring bound, as the widespread blockReduceSum
// writes it.
__device__ int blockSumFloored(int v) {
  __shared__ int partials[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0) partials[warp] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / 32) ? partials[lane] : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the bound on the per-warp partials read from 'partials' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: the partials are written at the warp index here
  // CHECK-MESSAGES: :[[@LINE+13]]:3: note: this launch can use 80 threads in x: its last warp is partial
  return warpSum(v);
}

// ---------------------------------------------------------------- must flag

// A helper reached from two kernels: one is launched with whole warps, the
// other with 80 threads (the note names that launch).
__global__ void rowsOf96(const int *in, int *out) { out[blockIdx.x] = blockSumFloored(in[threadIdx.x]); }
__global__ void rowsOf80(const int *in, int *out) { out[blockIdx.x] = blockSumFloored(in[threadIdx.x]); }

void launchRows(const int *in, int *out, int rows) {
  rowsOf96<<<rows, 96>>>(in, out);
  rowsOf80<<<rows, 80>>>(in, out);
}

// The block size is the caller's: nothing fixes it, the report stands.
__global__ void floorUnknownBlock(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchUnknownBlock(const int *in, int *out, int threads) {
  floorUnknownBlock<<<1, threads>>>(in, out);
}

// Every launch is whole warps in x, but the kernel's address escapes: a
// launch the unit cannot read may use any block.
__global__ void floorEscaped(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchEscaped(const int *in, int *out, cudaStream_t s) {
  floorEscaped<<<1, 128>>>(in, out);
  void *args[] = {&in, &out};
  cudaLaunchKernel((const void *)floorEscaped, dim3(1), dim3(128), args, 0, s);
}

// No bound at all, launched with 256 threads: 8 warps write partials and
// lanes 8 to 31 read slots no warp wrote.
__global__ void unboundedIn256(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    // CHECK-MESSAGES: :[[@LINE+5]]:3: note: this launch can use a block of 256 threads: 8 warps write partials, lanes 8 to 31 read slots no warp wrote
    if (lane == 0) out[blockIdx.x] = v;
  }
}
void launchUnbounded(const int *in, int *out) {
  unboundedIn256<<<1, 256>>>(in, out);
}

// A run-time block of 16-thread steps: not known to be whole warps.
__global__ void floorSteps16(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchSteps16(const int *in, int *out, int rows) {
  dim3 block(rows * 16);
  floorSteps16<<<1, block>>>(in, out);
}

// A helper whose value is not always one of its arguments: what it returns
// is read, not what its name says.
template <typename T> T clampPlusOne(const T &a, const T &b) { return a < b ? a : b + 1; }
__global__ void floorHelperOffByOne(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the bound on the per-warp partials read from 'sums' rounds the number of warps down{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchHelperOffByOne(const int *in, int *out, int n) {
  const int threads = clampPlusOne(1024, (n + 31) / 32 * 32);
  floorHelperOffByOne<<<1, threads>>>(in, out);
}

// A dim3 set field by field, where one branch shrinks the block to 64
// threads (2 warps): the unbounded read is reported with that launch.
__global__ void unboundedFieldBlock(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    // CHECK-MESSAGES: :[[@LINE+10]]:3: note: this launch can use a block of 64 threads: 2 warps write partials, lanes 2 to 31 read slots no warp wrote
    if (lane == 0) out[blockIdx.x] = v;
  }
}
void launchFieldBlock(const int *in, int *out, int n, bool small) {
  dim3 block, grid;
  block.x = 1024;
  if (small)
    block.x = 64;
  grid.x = n;
  unboundedFieldBlock<<<grid, block>>>(in, out);
}

// --------------------------------------------------------- must stay silent

// Run-time blocks that are whole warps by construction: a multiple of 128
// chosen at run time (DeepSpeed's softmax launchers), and ggml's argmax
// rounding, `std::min(1024, (n + 31) / 32 * 32)`: std::min returns one of
// its arguments, both multiples of 32 (read from its body, not its name).
template <int Rows> __global__ void floorRunTimeWhole(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x] * Rows);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchRunTimeWhole(const int *in, int *out, int seq, int n) {
  const int threads = 128;
  const int workload = 4 * threads;
  dim3 block(seq > threads ? (seq + workload - 1) / workload * threads : threads);
  floorRunTimeWhole<1><<<1, block>>>(in, out);
  const long rounded = std::min<long>(1024, (n + 31) / 32 * 32);
  const dim3 blocks(rounded, 1, 1);
  floorRunTimeWhole<2><<<1, blocks>>>(in, out);
}


// The floor is exact: every launch's blockDim.x is whole warps, including a
// size the launcher doubles (256 or 512).
__global__ void floorWholeWarps(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    if (lane == 0) out[blockIdx.x] = warpSum(v);
  }
}
void launchWholeWarps(const int *in, int *out, int n) {
  int threads = 256;
  if (n > 4096) threads <<= 1;
  dim3 block(threads);
  floorWholeWarps<<<n / threads, block>>>(in, out);
}

// A template helper with the floor, reached only through instantiations of
// a kernel template launched with 128 and 1024 threads.
template <typename T> __device__ T blockMax(T v) {
  __shared__ T partials[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(FULL, v, off));
  if (lane == 0) partials[warp] = v;
  __syncthreads();
  v = (lane < blockDim.x / 32) ? partials[lane] : T(0);
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(FULL, v, off));
  return v;
}
template <typename T> __global__ void rowMax(const T *in, T *out) {
  out[blockIdx.x] = blockMax(in[blockIdx.x * blockDim.x + threadIdx.x]);
}
void launchRowMax(const int *in, int *out, const float *fin, float *fout, int rows) {
  rowMax<<<rows, 128>>>(in, out);
  rowMax<<<rows, 1024>>>(fin, fout);
}

// No bound, but every launch has 32 warps: every slot the lanes read was
// written.
__global__ void unboundedFullBlock(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
void launchFullBlock(const int *in, int *out, int n) {
  unboundedFullBlock<<<n / 1024, 1024>>>(in, out);
}

// A dim3 set field by field to 32 warps (exllamav2's layer norms): every
// slot is written.
__global__ void unboundedFieldFull(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
void launchFieldFull(const int *in, int *out, int n) {
  dim3 block, grid;
  block.x = 1024;
  block.y = 1;
  grid.x = n;
  unboundedFieldFull<<<grid, block>>>(in, out);
}
