// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// Conditions that the taint analysis calls thread-varying but that no two
// lanes of one warp (or one tile) can evaluate differently: the uniformity
// prover (symbolic values + Z3) must keep them silent. Next to each idiom, its
// broken variant, which must still be reported. These are the idioms of
// correct code that made warp-divergent-full-mask wrong on real libraries.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL 0xffffffffu

__device__ unsigned laneId() { return threadIdx.x & 31; }
__device__ int roundUp32(int n) { return (n + 31) / 32 * 32; }

// --- 1. Sub-warp groups with a bound rounded to whole warps ----------------
// g = gid >> 2 puts 8 groups of 4 lanes in each warp; a bound that is a
// multiple of 8 groups never splits a warp, whichever way it is written.
__global__ void silentGroupsRoundedBound(float *out, const float *in, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int g = gid >> 2;
  float v = in[gid];
  if (g < (n / 8) * 8) v += __shfl_xor_sync(FULL, v, 1);
  if (g < (n & ~7)) v += __shfl_xor_sync(FULL, v, 2);
  if (g < n - n % 8) v += __shfl_xor_sync(FULL, v, 1);
  if (g < ((n >> 3) << 3)) v += __shfl_xor_sync(FULL, v, 1);
  int h = gid / 4;
  if (h < n / 8 * 8) v += __shfl_xor_sync(FULL, v, 1);
  out[gid] = v;
}

__global__ void flagGroupsBoundRoundedTooFine(float *out, const float *in, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int g = gid >> 2;
  float v = in[gid];
  // 4 groups is half a warp: the bound can fall between lanes 15 and 16.
  if (g < (n / 4) * 4) v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[gid] = v;
}

// --- 2. Linearised multi-dimensional thread ids -------------------------------
__global__ void silentLinearisedWarpIndex(float *out) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int u = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  float v = t;
  if (t / 32 == 1) v += __shfl_down_sync(FULL, v, 1);
  if ((t >> 5) > 2) v += __shfl_down_sync(FULL, v, 1);
  if ((u & ~31) == 64) v += __shfl_down_sync(FULL, v, 1);
  out[t] = v;
}

__global__ void flagLinearisedHalfWarp(float *out) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  float v = t;
  if (t / 16 == 1) v += __shfl_down_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[t] = v;
}

// --- 3. Loops that whole warps run together -----------------------------------
__global__ void silentWarpLockstepLoops(float *out, const float *in, int n) {
  unsigned lane = threadIdx.x & 31;
  float acc = 0;
  for (int i = lane; i < roundUp32(n); i += 32) {
    float x = i < n ? in[i] : 0.f;
    acc += __shfl_xor_sync(FULL, x, 1);
  }
  for (int i = threadIdx.x; i < (n + 31) / 32 * 32; i += blockDim.x)
    acc += __shfl_xor_sync(FULL, acc, 1);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  do {
    acc += __shfl_xor_sync(FULL, acc, 1);
    tid += blockDim.x * gridDim.x;
  } while ((tid >> 5) < n);
  out[threadIdx.x] = acc;
}

__global__ void flagLoopBoundNotWarpMultiple(float *out, const float *in, int n) {
  float acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    acc += __shfl_xor_sync(FULL, in[i], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  out[threadIdx.x] = acc;
}

// --- 4. Helpers with non-const reference parameters ---------------------------
__device__ void broadcastFromLane0(int &x) { x = __shfl_sync(FULL, x, 0); }
__device__ void syncOnly(int &x) { __syncwarp(); }
__device__ void storeLane(int &x) { x = threadIdx.x & 31; __syncwarp(); }

__global__ void silentReferenceParameters(int *out, int v) {
  int a = threadIdx.x;
  broadcastFromLane0(a); // every lane now holds lane 0's value
  if (a > 3) v += __shfl_xor_sync(FULL, v, 1);
  int b = 7;
  for (int k = 0; k < 4; ++k) {
    syncOnly(b); // never written: no taint around the loop
    if (b > 3) v += __shfl_xor_sync(FULL, v, 1);
  }
  out[threadIdx.x] = v;
}

__global__ void flagReferenceParameterStoresLane(int *out, int v) {
  int c = 7;
  storeLane(c);
  if (c > 3) v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// --- 5. A helper branching on the warp index of its parameter ------------------
__device__ float reduceInFirstWarps(int tid, float v) {
  if (tid / 32 < 4)
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  return v;
}
__device__ float shuffleInFirstLanes(int tid, float v) {
  if (tid % 32 < 4)
    v += __shfl_xor_sync(FULL, v, 1);
  return v;
}

__global__ void silentHelperBranchesOnWarpIndex(float *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = out[gid];
  v = reduceInFirstWarps(threadIdx.x, v);
  v = reduceInFirstWarps(gid, v);
  out[gid] = v;
}

__global__ void flagHelperBranchesOnLane(float *out) {
  float v = out[threadIdx.x];
  v = shuffleInFirstLanes(threadIdx.x, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'shuffleInFirstLanes' is called with a thread-varying argument{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// --- 6. A lane id that comes from a helper -----------------------------------------
__global__ void silentLaneFromHelper(int *out, int v) {
  if (laneId() < 16) v += __shfl_xor_sync(0x0000ffff, v, 1);
  out[threadIdx.x] = v;
}

__global__ void flagLaneFromHelperWrongHalf(int *out, int v) {
  if (laneId() < 16) v += __shfl_xor_sync(0xffff0000, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __shfl_xor_sync with mask 0xffff0000 is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// --- 10. Sub-warp tiles ------------------------------------------------------------
__global__ void silentTileUniformConditions(float *out, const float *in, int nrows) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = gid / 8; // one row per 8-lane tile
  float v = in[gid];
  if (row < nrows)
    for (int o = 4; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.meta_group_rank() < 2) v += tile.shfl_xor(v, 1);
  cg::thread_block_tile<1> single = cg::tiled_partition<1>(block);
  if (in[gid] > 0.f) v += single.shfl(v, 0); // a 1-lane tile involves no other lane
  out[gid] = v;
}

__global__ void flagTileSplitByCondition(float *out, const float *in, int nrows) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  if (gid / 4 < nrows) v += tile.shfl_xor(v, 1); // 4-lane rows split 8-lane tiles
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: thread_block_tile::shfl_xor with the implicit mask of its 8-lane tile is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[gid] = v;
}

// --- 11. Values every lane holds alike -----------------------------------------------
__device__ float broadcastLane0(float v) { return __shfl_sync(FULL, v, 0); }

__global__ void silentValuesHeldAlike(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (__syncthreads_or(v > 0.f)) v += __shfl_xor_sync(FULL, v, 1);
  if (__syncthreads_count(v > 1.f) > 3) v += __shfl_xor_sync(FULL, v, 1);
  float s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL, s, o);
  if (s > 10.f) v += __shfl_xor_sync(FULL, v, 2);
  float m = v;
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
  if (m > 10.f) return;
  if (broadcastLane0(v) > 1.f) v += __shfl_xor_sync(FULL, v, 2);
  out[threadIdx.x] = v;
}

__global__ void flagDownReductionIsNotHeldAlike(float *out, const float *in) {
  float v = in[threadIdx.x];
  float d = v;
  for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(FULL, d, o);
  if (d > 10.f) v += __shfl_xor_sync(FULL, v, 2); // only lane 0 holds the sum
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  float h = v;
  for (int o = 8; o > 0; o >>= 1) h += __shfl_xor_sync(FULL, h, o); // half butterfly
  if (h > 10.f) v += __shfl_xor_sync(FULL, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// A butterfly written through the project's one-line shuffle wrapper
// (TransformerEngine's `warp_shuffle_xor`) is the same butterfly; a wrapper
// whose shuffle is 16 lanes wide is not a whole-warp one.
template <typename T>
__device__ T shuffleXor(T v, int laneMask, int width = 32, unsigned mask = FULL) {
  return __shfl_xor_sync(mask, v, laneMask, width);
}
__device__ float shuffleXor16(float v, int laneMask) { return __shfl_xor_sync(FULL, v, laneMask, 16); }

__global__ void silentButterflyThroughWrapper(float *out, const float *in) {
  float v = in[threadIdx.x];
  float s = v;
  for (int o = 16; o > 0; o >>= 1) s += shuffleXor(s, o);
  if (s > 10.f) v += __shfl_xor_sync(FULL, v, 2);
  out[threadIdx.x] = v;
}

__global__ void flagNarrowButterflyThroughWrapper(float *out, const float *in) {
  float v = in[threadIdx.x];
  float s = v;
  for (int o = 16; o > 0; o >>= 1) s += shuffleXor16(s, o);
  if (s > 10.f) v += __shfl_xor_sync(FULL, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  out[threadIdx.x] = v;
}

// --- 12. Broadcasts through a wrapper whose source lane is a parameter ---------------
// Kokkos' shfl(val, src, width) and raft's shfl(val, srcLane) wrap __shfl_sync:
// the result is the source lane's value for every lane when the caller's source is
// warp-uniform (lane 0 after an atomic ticket: the "last block" reduction idiom).
__device__ inline int shflWrapped(const int &val, const int &src, const int &width) {
  return __shfl_sync(FULL, val, src, width);
}
__device__ inline float shflByValue(float val, int src) { return __shfl_sync(FULL, val, src); }

__global__ void silentBroadcastThroughWrapper(unsigned *flags, int *out, float *f) {
  int count = 0;
  if (threadIdx.x == 0)
    count = atomicAdd(flags, 1);
  count = shflWrapped(count, 0, 32);
  if (count == gridDim.x - 1)
    out[threadIdx.x] = __shfl_down_sync(FULL, out[threadIdx.x], 1);
  float v = f[threadIdx.x];
  if (shflByValue(v, blockIdx.x % 32) > 0.f)
    v += __shfl_xor_sync(FULL, v, 1);
  f[threadIdx.x] = v;
}

__global__ void flagWrapperReadsLaneVaryingSource(unsigned *flags, int *out) {
  int count = atomicAdd(flags, 1);
  count = shflWrapped(count, (threadIdx.x + 1) & 31, 32); // each lane reads its neighbour
  if (count == gridDim.x - 1)
    out[threadIdx.x] = __shfl_down_sync(FULL, out[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_down_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
}

// --- 13. A loop that whole tiles run together ---------------------------------------
// cuCollections' find/insert kernels: `it = tid / 4` with a step of whole tiles. The
// loop splits the warp between tiles (the iteration counts differ), never a tile, so a
// helper's 4-lane tile collective inside it is fine; the proof is inductive (while the
// four lanes agreed on the condition, they took the same steps).
template <typename G> __device__ bool anyMatch(G g, const int *slots, int key) {
  return g.any(slots[g.thread_rank()] == key);
}

__global__ void silentTileLockstepLoop(const int *keys, int n, const int *slots, int *found) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (int it = tid / 4; it < n; it += gridDim.x * blockDim.x / 4)
    if (anyMatch(tile, slots + 4 * it, keys[it]) && tile.thread_rank() == 0)
      atomicAdd(found, 1);
}

__global__ void flagLoopSplitsTiles(const int *keys, int n, const int *slots, int *found) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (int it = tid / 2; it < n; it += gridDim.x * blockDim.x / 2)
    if (anyMatch(tile, slots + 4 * it, keys[it]) && tile.thread_rank() == 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'anyMatch<{{.*}}>' is called from thread-divergent code, but the tile collective inside it needs every lane of its 4-lane tile converged ('thread_block_tile::any'): the condition splits a tile{{.*}}before the branch [warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: this loop condition differs between the lanes of a 4-lane tile, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-18]]:10: note: the tile collective in 'anyMatch<{{.*}}>' that needs the lanes is here
      atomicAdd(found, 1);
  tile.sync();
}

// --- 14. A work counter reached through a reference to global memory ---------------
// nvdiffrast's fine rasteriser: `CRAtomics &atomics = p.atomics[blockIdx.z]`, lane 0
// claims the next tile with atomicAdd(&atomics.fineCounter, 1) and broadcasts it through
// the warp's shared slot. The atomic writes memory, not a local: the other fields read
// through the reference (the loop bound) stay as uniform as the address.
struct WorkAtomics { unsigned counter; int numTiles; };
struct WorkParams { WorkAtomics *atomics; };

__global__ void silentCounterThroughReference(const WorkParams p, int *out) {
  __shared__ volatile unsigned slot[8][32];
  WorkAtomics &atomics = p.atomics[blockIdx.z];
  volatile unsigned *mine = slot[threadIdx.y];
  for (;;) {
    if (threadIdx.x == 0)
      mine[0] = atomicAdd(&atomics.counter, 1);
    __syncwarp();
    int tile = mine[0];
    if (tile >= atomics.numTiles)
      break;
    out[tile] = __ballot_sync(0xffffffff, out[tile * 32 + threadIdx.x] > 0);
  }
}

// A struct local keeps its fields apart, through a reference bound to it as
// well: a lane-varying counter leaves the tile count as uniform as it was.
__global__ void silentFieldThroughLocalReference(int *out, int n) {
  WorkAtomics local = {0, n};
  WorkAtomics &ref = local;
  ref.counter = threadIdx.x;
  if (ref.numTiles > 2)
    out[0] = __ballot_sync(0xffffffff, out[threadIdx.x] > 0);
  __syncwarp();
}

// The field the branch reads is the one written per lane, through the
// reference.
__global__ void flagFieldThroughLocalReference(int *out, int n) {
  WorkAtomics local = {0, n};
  WorkAtomics &ref = local;
  ref.numTiles = threadIdx.x;
  if (local.numTiles > 2)
    out[0] = __ballot_sync(0xffffffff, out[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __ballot_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  __syncwarp();
}

// --- 15. The arguments of a member operator call ------------------------------------
// CUTLASS' batched GEMM: `mma(params.gemm_k_iterations, accumulators, iterator_A, ...)`.
// Argument 0 of a member operator call is the object; argument 1 binds parameter 0 (an
// int by value), not parameter 1 (the accumulators, by reference). Read one off, the
// field of `params` was taken for an out-parameter filled from the lane-varying iterator
// and the batch loop bound `params.batch_count` for lane-varying.
struct BatchParams { int iterations; int batch_count; };
struct Mainloop {
  __device__ void operator()(int iterations, float &acc, const float *it) const {
    for (int k = 0; k < iterations; ++k)
      acc += it[k];
  }
};

__global__ void silentMemberOperatorArguments(BatchParams params, const float *in, float *out) {
  for (int batch = blockIdx.z; batch < params.batch_count; batch += gridDim.z) {
    int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
    float acc = 0.f;
    Mainloop mma;
    mma(params.iterations, acc, in + threadIdx.x + warp);
    out[batch * blockDim.x + threadIdx.x] = acc;
  }
}

// --- 16. Each warp's slice of shared memory, addressed as threadIdx.x - lane -------
// AMGX's DILU setup: `volatile int *cols = &s_cols[threadIdx.x - lane_id]`. The
// difference of the thread index and its lane is the warp's first thread, the same in
// every lane, so a value loaded from the slice at a uniform index is uniform.
__global__ void silentWarpSliceThroughDifference(const int *in, int *out) {
  __shared__ volatile int s_cols[256];
  const int lane_id = threadIdx.x % 32;
  volatile int *cols = &s_cols[threadIdx.x - lane_id];
  cols[lane_id] = in[threadIdx.x];
  __syncwarp();
  for (int k = 0; k < 32; ++k) {
    if (cols[k] == -1)
      break;
    out[k] = __ballot_sync(0xffffffff, in[threadIdx.x + k] > 0);
  }
}

// Minus a lane group's rank instead: every 4-lane group has its own slice.
__global__ void flagGroupSliceThroughDifference(const int *in, int *out) {
  __shared__ volatile int s_cols[256];
  const int lane_id = threadIdx.x % 32;
  volatile int *cols = &s_cols[threadIdx.x - lane_id % 4];
  cols[lane_id % 4] = in[threadIdx.x];
  __syncwarp();
  for (int k = 0; k < 4; ++k) {
    if (cols[k] == -1)
      break;
    out[k] = __ballot_sync(0xffffffff, in[threadIdx.x + k] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __ballot_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: this condition differs between the lanes of a warp{{.*}}
  }
  __syncwarp();
}

// --- 17. A getter of a kernel parameter in a loop bound -----------------------------
// cuGraph's transform_e: `idx = packed_bool_offset(tid)` (tid / 32 through a helper, so
// the loop needs the prover) runs while `idx < packed_bool_size(num_edges)`, with
// `num_edges = edge_partition.number_of_edges()`, a getter of the kernel's parameter.
// The getter returns a field of its object, which the prover cannot see into: it is a
// leaf there, as uniform as the object.
struct EdgeView {
  long n;
  __device__ int number_of_edges() const { return static_cast<int>(n); }
};
template <typename T> __device__ T wordOf(T bit) { return bit / 32; }

__global__ void silentGetterInLoopBound(EdgeView view, const int *pred, unsigned *out) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  int idx = static_cast<int>(wordOf(tid));
  int num_edges = view.number_of_edges();
  while (idx < (num_edges + 31) / 32) {
    int e = idx * 32 + static_cast<int>(tid % 32);
    unsigned mask = __ballot_sync(0xffffffff, e < num_edges && pred[e]);
    if (tid % 32 == 0)
      out[idx] = mask;
    idx += static_cast<int>(gridDim.x * (blockDim.x / 32));
  }
}

// The same getter of a per-thread object differs between lanes.
__global__ void flagGetterOfThreadObject(const int *pred, unsigned *out) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  EdgeView mine{static_cast<long>(threadIdx.x)};
  int idx = static_cast<int>(wordOf(tid));
  while (idx < mine.number_of_edges()) {
    out[idx] = __ballot_sync(0xffffffff, pred[tid] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: __ballot_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this loop condition differs between the lanes of a warp{{.*}}
    idx += 4;
  }
  __syncwarp();
}

// --- A local read before it is rewritten ----------------------------------
// `subtid < nSend * 32` reads subtid before the `-=` and before bump() may
// write it through a reference: it is threadIdx.x - 64 there, and the test
// splits the block on whole warps (NCCL's send/recv work split).
__device__ void bump(int &t) { t += 1; }
__global__ void silentReadBeforeRewrite(float *out, const float *in, int nSend) {
  int subtid = threadIdx.x - 64;
  bool isSend = subtid < nSend * 32;
  if (!isSend)
    subtid -= nSend * 32;
  float v = in[threadIdx.x];
  if (isSend)
    v += __shfl_xor_sync(FULL, v, 1);
  bump(subtid);
  out[subtid] = v;
}

// The same test after the rewrite: subtid is off by one lane from a warp
// boundary, and the test splits a warp.
__global__ void flagReadAfterRewrite(float *out, const float *in, int nSend) {
  int subtid = threadIdx.x - 64;
  bump(subtid);
  bool isSend = subtid < nSend * 32;
  float v = in[threadIdx.x];
  if (isSend)
    v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[subtid] = v;
}
