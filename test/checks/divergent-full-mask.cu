// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// warp-divergent-full-mask: a collective whose mask names lanes that may not
// reach it. Every source of divergence the spec lists is flagged below; every
// source of uniformity it lists stays silent in mustStaySilent*.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <mma.h>

namespace cg = cooperative_groups;
#define FULL 0xffffffffu

struct Pair { int a, b; };
__shared__ int sharedFlag;
__constant__ int constLimit;

// ---------------------------------------------------------------------------
// Helpers: the interprocedural cases.

__device__ int warpReduceSum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

template <typename T> __device__ T warpReduceT(T v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(FULL, v, off);
  return v;
}

__device__ int twoLevels(int v) { return warpReduceSum(v) + 1; }

__device__ bool warpAll(bool p) { return __all_sync(FULL, p); }

__device__ int warpTotal(int v) { return __reduce_add_sync(FULL, v); }

// The collective inside depends on a parameter: uniform when the caller
// passes a uniform value, divergent when it passes a thread-varying one.
__device__ int reduceIf(bool doIt, int v) {
  if (doIt)
    v = __reduce_add_sync(FULL, v);
  return v;
}

__device__ int recursive(int v, int depth) {
  if (depth == 0)
    return __shfl_sync(FULL, v, 0);
  return recursive(v, depth - 1);
}

__device__ int laneId() { return threadIdx.x & 31; }

// ---------------------------------------------------------------------------
// Must flag.

__global__ void flagDataBranch(const int *in, int threshold, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = 0;
  if (v > threshold) {
    s = v;
    for (int off = 16; off > 0; off >>= 1)
      s += __shfl_down_sync(0xffffffffu, s, off);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  }
  out[threadIdx.x] = s;
}

__global__ void flagSeedScan(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  const unsigned mask = 0xffffffffu;
  int val = in[threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    const int srcLane = lane - o;
    int other = (srcLane >= 0) ? __shfl_sync(mask, val, srcLane) : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: this '?:' condition differs between the lanes of a warp, so only some lanes take the path to the collective
    val += other;
  }
  out[threadIdx.x] = val;
}

__global__ void flagLaneGuards(int *out, int v) {
  int lane = threadIdx.x % 32;
  if (lane < 16)
    out[0] = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  if (lane < 8)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with mask 0x0000ffff is reached by only some of the lanes it names: lanes 8-15 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes the mask names, so only some lanes take the path to the collective
  if (threadIdx.x < 40)
    out[2] = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes 8-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  if (lane == 0)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp with its implicit full-warp mask is reached by only some of the lanes it names: lanes 1-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  __syncwarp();
}

__global__ void flagLoopsAndSwitch(const int *in, int n, int *out) {
  int lane = threadIdx.x & 31;
  int s = 0;
  for (int i = lane; i < n; i += 32)
    s += __shfl_xor_sync(FULL, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: this loop condition differs between the lanes of a warp, so only some lanes take the path to the collective
  switch (in[lane]) {
  case 0:
    s += __ballot_sync(FULL, s > 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __ballot_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: this switch condition differs between the lanes of a warp, so only some lanes take the path to the collective
    break;
  default:
    break;
  }
  for (int k = 0; k < 4; ++k) {
    if (in[k * 32 + lane] < 0)
      continue;
    s += __shfl_down_sync(FULL, s, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  }
  for (int k = 0; k < 4; ++k) {
    if (in[k * 32 + lane] == 7)
      break;
    s += __any_sync(FULL, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __any_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  }
  if (in[lane] == 3)
    goto done;
  s += __all_sync(FULL, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __all_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
done:
  out[threadIdx.x] = s;
}

__global__ void flagShortCircuit(const int *in, int *out) {
  int v = in[threadIdx.x];
  bool a = (v > 0) && __all_sync(FULL, v > 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __all_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: this operand of '&&' differs between the lanes of a warp, so only some lanes take the path to the collective
  bool b = (v > 0) || __any_sync(FULL, v > 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __any_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: this operand of '||' differs between the lanes of a warp, so only some lanes take the path to the collective
  int c = (v & 1) ? __reduce_max_sync(FULL, v) : v;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __reduce_max_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:11: note: this '?:' condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[0] = a + b + c;
}

__global__ void flagEarlyExit(const int *in, int n, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  int v = in[gid];
  v += __shfl_down_sync(FULL, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return: some lanes may have exited, and a shuffle that reads an exited lane gets an undefined value{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp; the lanes for which it leads to 'return' have exited before the shuffle
  out[gid] = v;
}

__global__ void flagEarlyExitLaneGuard(int *out, int v) {
  if ((threadIdx.x & 31) >= 16)
    return;
  out[0] = __shfl_xor_sync(FULL, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask runs after a thread-dependent early return: lanes 16-31 may have exited, and a shuffle that reads an exited lane gets an undefined value{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp; the lanes for which it leads to 'return' have exited before the shuffle
  out[1] = __shfl_xor_sync(0x0000ffff, v, 1);
}

__global__ void flagValueFlow(const int *in, int *out, int *counter, Pair p) {
  int lane = threadIdx.x & 31;
  // Assigned under a divergent branch: varying after the join.
  int k = 0;
  if (lane < 3)
    k = 1;
  if (k)
    out[0] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // Struct fields.
  p.a = threadIdx.x;
  if (p.a > 5)
    out[1] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // References.
  int x = 0;
  int &r = x;
  r = in[threadIdx.x];
  if (x > 3)
    out[2] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // Atomics return each lane's own old value.
  int ticket = atomicAdd(counter, 1);
  if (ticket < 10)
    out[3] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // A shuffle from a varying lane.
  int w = __shfl_sync(FULL, in[threadIdx.x], lane ^ 1);
  if (w > 0)
    out[4] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // %laneid read through inline assembly.
  unsigned asmLane;
  asm("mov.u32 %0, %%laneid;" : "=r"(asmLane));
  if (asmLane < 4)
    out[5] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes 4-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // A helper returning the lane id.
  if (laneId() < 4)
    out[6] = __shfl_sync(FULL, 1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes 4-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
}

__global__ void flagHelpers(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (v > 0)
    out[0] = warpReduceSum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'warpReduceSum' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_down_sync'): lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-212]]:10: note: the shuffle in 'warpReduceSum' that needs the lanes is here
  if (v > 1)
    out[1] = warpReduceT<float>(1.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'warpReduceT<float>' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_xor_sync'): lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-211]]:10: note: the shuffle in 'warpReduceT<float>' that needs the lanes is here
  if (v > 2)
    out[2] = twoLevels(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'twoLevels' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_down_sync'): lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-222]]:10: note: the shuffle in 'twoLevels' that needs the lanes is here
  out[3] = reduceIf(v > 3, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'reduceIf' is called with a thread-varying argument that decides, inside 'reduceIf', whether lanes reach a warp reduction that needs the whole warp converged ('__reduce_add_sync'){{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: this argument differs between the lanes of a warp, and inside the callee it decides whether a lane reaches the collective
  // CHECK-MESSAGES: :[[@LINE-206]]:9: note: the warp reduction in 'reduceIf' that needs the lanes is here
}

__global__ void flagImplicitFullWarp(const int *in, int *out, const half *a, float *c) {
  using namespace nvcuda;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[threadIdx.x];
  if (v > 0)
    out[0] = tile.shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: thread_block_tile::shfl_down with its implicit full-warp mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  if (v > 1)
    out[1] = cg::reduce(tile, v, cg::plus<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: cooperative_groups::reduce with its implicit full-warp mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  if (v > 2) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: wmma::load_matrix_sync with its implicit full-warp mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  }
  if (v > 3)
    tile.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread_block_tile::sync with its implicit full-warp mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  tile.sync();
}

// ---------------------------------------------------------------------------
// Must stay silent.

__global__ void silentUniformConditions(const int *in, int n, int *out, int v) {
  int warp = threadIdx.x / 32;
  if (n > 32)
    out[0] = __shfl_sync(FULL, v, 0);
  if (blockIdx.x == 0 && blockDim.x >= 64 && gridDim.x > 1)
    out[1] = __shfl_sync(FULL, v, 0);
  if (threadIdx.x < 32)
    out[2] = __shfl_sync(FULL, v, 0);
  if (threadIdx.x >= 64 && threadIdx.x < 128)
    out[3] = __shfl_sync(FULL, v, 0);
  if (warp == 1 || (threadIdx.x >> 5) == 2 || threadIdx.x / warpSize == 3)
    out[4] = __shfl_sync(FULL, v, 0);
  if (threadIdx.y == 0 && threadIdx.z < 2)
    out[5] = __shfl_sync(FULL, v, 0);
  if (warpSize == 32)
    out[6] = __shfl_sync(FULL, v, 0);
  for (int i = warp; i < n; i += blockDim.x / 32)
    out[7] += __shfl_sync(FULL, in[i], 0);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid / 32 < n)
    out[8] = __shfl_sync(FULL, v, 0);
}

__global__ void silentUniformValues(const int *in, int *out, int v) {
  int lane = threadIdx.x & 31;
  unsigned ballot = __ballot_sync(FULL, in[threadIdx.x] > 0);
  if (ballot)
    out[0] = __shfl_sync(FULL, v, 0);
  if (__any_sync(FULL, in[threadIdx.x] > 1) || __all_sync(FULL, lane < 40))
    out[1] = __shfl_sync(FULL, v, 0);
  int first = __shfl_sync(FULL, in[threadIdx.x], 0);
  if (first > 2)
    out[2] = __shfl_sync(FULL, v, 0);
  if (sharedFlag && in[blockIdx.x] > constLimit)
    out[3] = __shfl_sync(FULL, v, 0);
  if (warpAll(in[threadIdx.x] > 4))
    __syncwarp();
  int sum = warpTotal(in[threadIdx.x]);
  if (sum > 10)
    out[4] = __shfl_sync(FULL, v, 0);
}

__global__ void silentLaneGuardsMatchingMask(int *out, int v) {
  int lane = threadIdx.x & 31;
  if (lane < 16)
    out[0] = __shfl_xor_sync(0x0000ffff, v, 1);
  if (lane >= 16)
    out[1] = __shfl_xor_sync(0xffff0000, v, 1);
  if (lane == 0)
    out[2] = __shfl_sync(1u, v, 0);
  if (lane >= 8 && lane < 16)
    out[3] = __shfl_sync(0x0000ff00, v, 8);
  if (threadIdx.x < 40)
    out[4] = __shfl_sync(0x000000ff, v, 0);
}

__global__ void silentVoltaBothArms(const int *in, int *out) {
  int v = in[threadIdx.x];
  int x;
  if (v > 0)
    x = __shfl_sync(FULL, v, 0);
  else
    x = __shfl_sync(FULL, -v, 0);
  out[threadIdx.x] = x;
}

__global__ void silentAfterEarlyExit(const int *in, int n, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  int v = in[gid];
  out[0] = __ballot_sync(FULL, v > 0);
  out[1] = __any_sync(FULL, v > 1) + __all_sync(FULL, v > 2);
  out[2] = __reduce_add_sync(FULL, v);
  __syncwarp();
}

__global__ void silentUniformEarlyExit(const int *in, int n, int *out) {
  if (blockIdx.x >= n || threadIdx.x >= 64)
    return;
  int v = in[threadIdx.x];
  out[threadIdx.x] = __shfl_down_sync(FULL, v, 1);
}

__global__ void silentFixedPatterns(const int *in, int threshold, int *out) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  // The mask is computed by the whole warp before the branch.
  unsigned active = __ballot_sync(FULL, v > threshold);
  if (v > threshold)
    v += __shfl_down_sync(active, v, 1);
  // The fixed scan: every lane shuffles, then the value is selected.
  for (int o = 1; o < 32; o <<= 1) {
    int other = __shfl_sync(FULL, v, lane - o);
    v += (lane >= o) ? other : 0;
  }
  // A converged call of a helper.
  out[threadIdx.x] = warpReduceSum(v) + warpReduceT<int>(v) + reduceIf(threshold > 0, v);
  out[0] += recursive(v, 3);
}

__global__ void silentConvergedTiles(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[threadIdx.x];
  out[0] = tile.shfl_down(v, 1) + cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() < 16) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[1] = active.shfl(v, 0);
  }
}

// Found in NVIDIA's cuda-samples (reduction, shfl_integral_image): the block's
// thread rank compared with 32 and a 32-tile's meta_group_rank() select whole
// warps, so the tile collectives inside are converged.
__global__ void silentWarpSelectingGroups(const int *in, int *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  int mySum = in[threadIdx.x];
  if (cta.thread_rank() < 32) {
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
      mySum += tile32.shfl_down(mySum, offset);
  }
  const unsigned warp_id = tile32.meta_group_rank();
  if (warp_id == 0) {
    unsigned n = tile32.shfl_up(mySum, 1);
    if (tile32.thread_rank() >= 1)
      mySum += n;
  }
  out[threadIdx.x] = mySum;
}

__global__ void flagRankBelowHalfWarp(const int *in, int *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  int mySum = in[threadIdx.x];
  if (cta.thread_rank() < 16)
    mySum += tile32.shfl_down(mySum, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: thread_block_tile::shfl_down with its implicit full-warp mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = mySum;
}

// The collective inside the arm that returns: the lanes it misses did not
// exit, they run on past the 'if' (an exit after the call excuses nothing).
__global__ void flagCollectiveInsideReturningArm(unsigned *out, int v) {
  if ((threadIdx.x & 31) < 16) {
    out[0] = __ballot_sync(FULL, v > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __ballot_sync with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
    return;
  }
  out[1] = v;
}

__global__ void flagShuffleInsideReturningArm(int *out, int v) {
  if ((threadIdx.x & 31) < 16) {
    out[0] = __shfl_xor_sync(FULL, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
    return;
  }
  out[1] = v;
}

// A helper's 'return' does not end the thread: the lanes that return run on
// in the caller, so a collective after (or beside) it misses live lanes.
__device__ int sumLowHalf(int v) {
  if ((threadIdx.x & 31) < 16)
    return __reduce_add_sync(FULL, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __reduce_add_sync with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  return v;
}

__device__ unsigned voteInRange(int gid, int n, bool p) {
  if (gid >= n)
    return 0;
  return __ballot_sync(FULL, p); // judged where gid is known: at the call
}

// A return every lane of the warp takes alike excuses nothing and needs
// nothing excused.
__device__ unsigned voteUnlessEmpty(int n, bool p) {
  if (n <= 0)
    return 0;
  return __ballot_sync(FULL, p);
}

__global__ void callHelpersWithReturns(unsigned *out, int n, int v) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = sumLowHalf(v) + voteInRange(gid, n, v > 0) + voteUnlessEmpty(n, v > 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'voteInRange' is called with a thread-varying argument that decides, inside 'voteInRange', whether lanes reach a ballot that needs the whole warp converged ('__ballot_sync'){{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:42: note: this argument differs between the lanes of a warp, and inside the callee it decides whether a lane reaches the collective
  // CHECK-MESSAGES: :[[@LINE-16]]:10: note: the ballot in 'voteInRange' that needs the lanes is here
}

// threadIdx.x is below 1024: a comparison with a larger constant holds in no
// lane (a guard that keeps a store alive but never runs), one with a thread
// that exists splits its warp.
__global__ void thresholdsPastTheBlock(float *out, float v) {
  if (threadIdx.x == 2147483647)
    out[0] = __shfl_xor_sync(FULL, v, 1);
  if (threadIdx.x == 1023)
    out[1] = __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
}
