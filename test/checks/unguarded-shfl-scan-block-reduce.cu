// RUN: %check_warp_tidy %s warp-unguarded-shfl-scan
//
// warp-unguarded-shfl-scan on two-stage block reductions written with
// growing shfl_down offsets (DeepSpeed's layer-norm kernels have this shape):
// stage 1 leaves each warp's total in lane 0 only, lane 0 stores it, the
// partials are read back into the same variable, and stage 2 reduces them.
// Whether a wrong lane's value reaches a use depends on the block size,
// which comes from the launches in this file. Silence is asserted by
// default.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ------------------------------------------------------- must stay silent

// Launched below with 256, 512 or 1024 threads: 8, 16 or 32 warps. Stage 2
// reads lanes 0 .. 2^k - 1 into lane 0, all of them partials: lanes >= N
// keep stage 1's values but lane 0 never reads them.
__global__ void layerNormPow2(const float *x, float *out, int rowStride) {
  const int stride = blockDim.x;
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  float sum = x[blockIdx.x * rowStride + threadIdx.x];
  for (int i = 1; i < 32; i *= 2) { sum += g.shfl_down(sum, i); }
  if (g.thread_rank() == 0) partials[threadIdx.x / 32] = sum;
  b.sync();
  if (g.thread_rank() < (stride >> 5)) sum = partials[g.thread_rank()];
  b.sync();
  for (int i = 1; i < (stride >> 5); i *= 2) { sum += g.shfl_down(sum, i); }
  sum = g.shfl(sum, 0);
  const float mean = sum / rowStride;
  if (threadIdx.x == 0) out[blockIdx.x] = mean;
  out[blockIdx.x * rowStride + threadIdx.x] = x[blockIdx.x * rowStride + threadIdx.x] - mean;
}

void launchLayerNormPow2(const float *x, float *out, int rows, int rowStride) {
  int threads = 256;
  if (rowStride > 16384 && rowStride <= 32768)
    threads <<= 1;
  else if (rowStride > 32768)
    threads <<= 2;
  dim3 block(threads);
  layerNormPow2<<<rows, block>>>(x, out, rowStride);
}

// Every lane overwritten (the lanes past the warp count get 0): right for
// any block size, so no launch is needed.
__global__ void everyLaneOverwritten(const float *x, float *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const unsigned warps = blockDim.x / 32;
  float sum = x[threadIdx.x];
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (g.thread_rank() == 0) partials[threadIdx.x / 32] = sum;
  b.sync();
  sum = (g.thread_rank() < warps) ? partials[g.thread_rank()] : 0.0f;
  for (int i = 1; i < warps; i *= 2) sum += g.shfl_down(sum, i);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// The other lanes zeroed by an else branch: right for any block size.
__global__ void elseZeroes(const float *x, float *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const int warps = blockDim.x >> 5;
  float sum = x[threadIdx.x];
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (g.thread_rank() == 0) partials[threadIdx.x >> 5] = sum;
  b.sync();
  if (g.thread_rank() < warps)
    sum = partials[g.thread_rank()];
  else
    sum = 0.0f;
  for (int i = 1; i < warps; i *= 2) sum += g.shfl_down(sum, i);
  sum = g.shfl(sum, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// One warp per row of a 32 x 32 block: `threadIdx.x == 0` is lane 0.
__global__ void columnSums(const float *x, float *out) {
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
  float s = x[threadIdx.y * 32 + threadIdx.x];
  for (int i = 1; i < 32; i <<= 1) s += g.shfl_down(s, i);
  if (threadIdx.x == 0) out[blockIdx.x * 32 + threadIdx.y] = s;
}

void launchColumnSums(const float *x, float *out, int n) {
  dim3 block(32, 32);
  columnSums<<<n, block>>>(x, out);
}

// A template: judged in its instantiation, launched with 128 threads.
template <typename T> __global__ void templatedReduce(const T *x, T *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const int warps = blockDim.x >> 5;
  float sum = static_cast<float>(x[threadIdx.x]);
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (g.thread_rank() == 0) partials[threadIdx.x >> 5] = sum;
  b.sync();
  if (g.thread_rank() < warps) sum = partials[g.thread_rank()];
  b.sync();
  for (int i = 1; i < warps; i *= 2) sum += g.shfl_down(sum, i);
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<T>(sum);
}

void launchTemplated(const float *x, float *out) {
  templatedReduce<float><<<1, 128>>>(x, out);
}

// ------------------------------------------------------------- must flag

// The same kernel launched with 96 threads: 3 warps. Stage 2 (offsets 1, 2)
// adds lanes 0..3 into lane 0, and lane 3 still holds stage 1's partial sum.
__global__ void layerNormThreeWarps(const float *x, float *out, int rowStride) {
  const int stride = blockDim.x;
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  float sum = x[blockIdx.x * rowStride + threadIdx.x];
  for (int i = 1; i < 32; i *= 2) { sum += g.shfl_down(sum, i); }
  if (g.thread_rank() == 0) partials[threadIdx.x / 32] = sum;
  b.sync();
  if (g.thread_rank() < (stride >> 5)) sum = partials[g.thread_rank()];
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'sum' is overwritten only in some lanes; the others keep the partial values of the warp reduction above, and the shuffles after it add them into a value that is used: with the block of 96 threads one of its launches uses, lane 0 ends up with lane 3's stale value; this happens exactly when the number of warps in the block is not a power of two; overwrite every lane, e.g. 'sum = (g.thread_rank() < (stride >> 5)) ? partials[g.thread_rank()] : 0;', or guard the shuffle's read [warp-unguarded-shfl-scan]
  // CHECK-MESSAGES: :[[@LINE-5]]:41: note: the warp reduction whose result only one lane holds exactly; the others hold partial values
  // CHECK-MESSAGES: :[[@LINE+2]]:55: note: the stale value is read here
  b.sync();
  for (int i = 1; i < (stride >> 5); i *= 2) { sum += g.shfl_down(sum, i); }
  sum = g.shfl(sum, 0);
  out[blockIdx.x] = sum;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: and used here by lane 0
}

void launchThreeWarps(const float *x, float *out, int rows, int rowStride) {
  layerNormThreeWarps<<<rows, 96>>>(x, out, rowStride);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: launched here with a block of 96 threads
}

// No launch in this file: the block size may be anything, and for a warp
// count that is not a power of two the result is wrong.
__global__ void layerNormAnyBlock(const float *x, float *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const unsigned lane = g.thread_rank();
  float sum = x[threadIdx.x];
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (lane == 0) partials[threadIdx.x / 32] = sum;
  b.sync();
  if (lane < blockDim.x / 32)
    sum = partials[lane];
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'sum' is overwritten only in some lanes; {{.*}} with a block of 96 threads (no launch in this file shows the block size, so any may be used), lane 0 ends up with lane 3's stale value; this happens exactly when the number of warps in the block is not a power of two; overwrite every lane, e.g. 'sum = (lane < blockDim.x / 32) ? partials[lane] : 0;'{{.*}} [warp-unguarded-shfl-scan]
  for (int i = 1; i < blockDim.x / 32; i *= 2) sum += g.shfl_down(sum, i);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// The broken variant: every lane stores stage 1's value, and only lane 0's
// is the warp's total.
__global__ void everyLaneStoresStageOne(const float *x, float *out) {
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
  float sum = x[threadIdx.x];
  for (int i = 1; i < 32; i *= 2) { sum += g.shfl_down(sum, i); }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: suffix scan: the result of tile.shfl_down with growing offsets is accumulated into 'sum' without an upper-bound guard{{.*}}[warp-unguarded-shfl-scan]
  out[threadIdx.x] = sum;
}

// `threadIdx.x == 0` is two lanes of each warp in a 16 x 4 block: lane 16's
// value is not a total.
__global__ void halfWarpRows(const float *x, float *out) {
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
  float s = x[threadIdx.y * 16 + threadIdx.x];
  for (int i = 1; i < 32; i <<= 1) s += g.shfl_down(s, i);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: suffix scan: the result of tile.shfl_down with growing offsets is accumulated into 's'{{.*}}[warp-unguarded-shfl-scan]
  if (threadIdx.x == 0) out[threadIdx.y] = s;
}

void launchHalfWarpRows(const float *x, float *out) {
  halfWarpRows<<<1, dim3(16, 4)>>>(x, out);
}

// A template judged in its instantiation, whose launch uses 3 warps.
template <typename T> __global__ void templatedThreeWarps(const T *x, T *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const int warps = blockDim.x >> 5;
  float sum = static_cast<float>(x[threadIdx.x]);
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (g.thread_rank() == 0) partials[threadIdx.x >> 5] = sum;
  b.sync();
  if (g.thread_rank() < warps) sum = partials[g.thread_rank()];
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'sum' is overwritten only in some lanes; {{.*}} with the block of 96 threads one of its launches uses, lane 0 ends up with lane 3's stale value{{.*}}[warp-unguarded-shfl-scan]
  b.sync();
  for (int i = 1; i < warps; i *= 2) sum += g.shfl_down(sum, i);
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<T>(sum);
}

void launchTemplatedThreeWarps(const float *x, float *out) {
  templatedThreeWarps<float><<<1, 96>>>(x, out);
}

// One launcher, two block sizes: 128 threads (4 warps) is right, 96 (3 warps) is not.
__global__ void twoLaunchSizes(const float *x, float *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(b);
  __shared__ float partials[32];
  const int warps = blockDim.x >> 5;
  float sum = x[threadIdx.x];
  for (int i = 1; i < 32; i *= 2) sum += g.shfl_down(sum, i);
  if (g.thread_rank() == 0) partials[threadIdx.x >> 5] = sum;
  b.sync();
  if (g.thread_rank() < warps) {
    sum = partials[g.thread_rank()];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'sum' is overwritten only in some lanes; {{.*}} with the block of 96 threads one of its launches uses, lane 0 ends up with lane 3's stale value; this happens exactly when the number of warps in the block is not a power of two; overwrite every lane, e.g. 'sum = (g.thread_rank() < warps) ? partials[g.thread_rank()] : 0;'{{.*}}[warp-unguarded-shfl-scan]
  }
  b.sync();
  for (int i = 1; i < warps; i *= 2) sum += g.shfl_down(sum, i);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

void launchTwoSizes(const float *x, float *out, int n) {
  int threads = 128;
  if (n % 3 == 0)
    threads = 96;
  twoLaunchSizes<<<1, threads>>>(x, out);
}
