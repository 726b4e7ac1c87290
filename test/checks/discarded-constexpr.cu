// RUN: %check_warp_tidy %s 'warp-*' -- -arch=sm_80 -std=c++17
//
// Every check: a discarded `if constexpr` branch is never instantiated or
// compiled, so nothing in it is reported. Each discarded branch below holds
// what some check would report; the same code in the branch that is kept is
// reported.

#define FULL 0xffffffffu

constexpr bool kLegacy = false;
constexpr int kWidth = 32;

__global__ void discardedInKernel(int *io, float *f) {
  int lane = threadIdx.x & 31;
  int v = io[threadIdx.x];
  if constexpr (kLegacy) {
    v = __shfl(v, 0);                          // warp-legacy-intrinsic
    v = __shfl_sync(0, v, 0);                  // warp-zero-mask
    v = __shfl_sync(FULL, v, 0, 64);           // warp-invalid-shfl-width
    f[0] = __reduce_add_sync(FULL, f[1]);      // warp-non-integer-reduce
    v = __shfl_sync(__activemask(), v, 1);     // warp-activemask-sync-mask
    v = __shfl_sync(0x0000ffffu, v, 20);       // warp-shfl-source-outside-mask
    if (lane < 16)
      v = __shfl_sync(FULL, v, 0);             // warp-divergent-full-mask
    if (lane >= 16)
      v = __shfl_sync(0x0000ffffu, v, 0);      // warp-mask-excludes-caller
    for (int d = 1; d < 32; d <<= 1)
      v += __shfl_up_sync(FULL, v, d);         // warp-unguarded-shfl-scan
    v = __shfl_sync((1u << lane) | (1u << ((lane + 1) & 31)), v, 0); // warp-inconsistent-mask
    v = __ballot_sync((1u << lane) - 1, v);    // warp-mask-excludes-caller (from the lane)
  } else {
    v = __shfl_sync(FULL, v, 0);
  }
  io[threadIdx.x] = v;
}

__global__ void discardedPartialsRead(const int *in, int *out) {
  __shared__ int warpSums[32];
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u;
  int v = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if constexpr (kLegacy) {
    if (warp == 0) {
      int s = warpSums[lane];                  // warp-unguarded-partials-read
      for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(FULL, s, off);
      if (lane == 0)
        out[blockIdx.x] = s;
    }
  }
}

// The else branch is the discarded one here; the kept branch is reported.
__global__ void keptBranchIsReported(int *io) {
  int lane = threadIdx.x & 31;
  int v = io[threadIdx.x];
  if constexpr (kWidth == 32) {
    if (lane < 16)
      v = __shfl_sync(FULL, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  } else {
    if (lane < 8)
      v = __shfl_sync(FULL, v, 0);
    v = __shfl(v, 0);
  }
  io[threadIdx.x] = v;
}

// In a template, a condition that does not depend on the template
// parameters is decided in the pattern too (instantiations drop the branch).
template <typename T> __device__ T broadcast(T v) {
  if constexpr (kLegacy)
    return __shfl(v, 0);
  else
    return __shfl_sync(FULL, v, 0);
}

// A condition on the template parameter: each instantiation keeps one
// branch; only the kept one is analysed.
template <int Width> __device__ int rotate(int v) {
  int lane = threadIdx.x & 31;
  if constexpr (Width == 32) {
    return __shfl_sync(FULL, v, lane + 1);
  } else {
    if (lane < Width)
      v = __shfl_sync(FULL, v, lane + 1, Width);
    return v;
  }
}

__global__ void instantiations(int *io) {
  int v = io[threadIdx.x];
  v = broadcast(v);
  v = rotate<32>(v);
  io[threadIdx.x] = v;
}

// A helper whose only collective is in a discarded branch needs nothing
// from its callers.
__device__ int maybeShuffle(int v) {
  if constexpr (kLegacy)
    v = __shfl_sync(FULL, v, 0);
  return v + 1;
}

__global__ void helperWithDiscardedCollective(int *io) {
  int v = io[threadIdx.x];
  if (v > 0)
    v = maybeShuffle(v);
  io[threadIdx.x] = v;
}
