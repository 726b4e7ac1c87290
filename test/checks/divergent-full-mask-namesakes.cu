// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// warp-divergent-full-mask: a project's functions named like CUDA's
// intrinsics or atomics are helpers to analyse, not the intrinsics. Only the
// toolchain's declarations (clang's CUDA headers, the CUDA toolkit's) are
// recognised by name.

#define FULL 0xffffffffu

// A float4 overload of the legacy name, built on __shfl_down_sync: a helper
// that needs the whole warp.
__device__ float4 __shfl_down(float4 v, unsigned delta) {
  v.x = __shfl_down_sync(FULL, v.x, delta);
  v.y = __shfl_down_sync(FULL, v.y, delta);
  v.z = __shfl_down_sync(FULL, v.z, delta);
  v.w = __shfl_down_sync(FULL, v.w, delta);
  return v;
}

__global__ void flagLegacyNamesakeUnderDivergence(float4 *io) {
  float4 v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_down' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged ('__shfl_down_sync'): lanes 16-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  // CHECK-MESSAGES: :[[@LINE-13]]:9: note: the shuffle in '__shfl_down' that needs the lanes is here
  io[threadIdx.x] = v;
}

__global__ void silentLegacyNamesakeConverged(float4 *io) {
  float4 v = io[threadIdx.x];
  v = __shfl_down(v, 1);
  io[threadIdx.x] = v;
}

// A struct overload of a _sync name that passes its mask on to CUDA's.
struct Pair { int a, b; };
__device__ Pair __shfl_xor_sync(unsigned mask, Pair p, int laneMask) {
  p.a = __shfl_xor_sync(mask, p.a, laneMask);
  p.b = __shfl_xor_sync(mask, p.b, laneMask);
  return p;
}

__global__ void silentSyncNamesakeWithRightMask(Pair *io) {
  Pair p = io[threadIdx.x];
  p = __shfl_xor_sync(FULL, p, 1);
  if (threadIdx.x % 32 < 16)
    p = __shfl_xor_sync(0x0000ffffu, p, 1);
  io[threadIdx.x] = p;
}

// A project's atomic: code to analyse. This one returns the same value to
// every lane of the warp (the leader's atomicAdd, broadcast), so a branch on
// it is uniform; CUDA's own atomicAdd returns each lane its own old value.
__device__ int atomicAggInc(int *counter) {
  int lane = threadIdx.x & 31;
  int base = 0;
  if (lane == 0)
    base = atomicAdd(counter, 32);
  return __shfl_sync(FULL, base, 0);
}

__global__ void silentBranchOnProjectAtomic(int *counter, int *out) {
  int v = out[threadIdx.x];
  int base = atomicAggInc(counter);
  if (base > 64)
    v = __shfl_sync(FULL, v, 0);
  out[threadIdx.x] = v;
}

__global__ void flagBranchOnCudaAtomic(int *counter, int *out) {
  int v = out[threadIdx.x];
  int old = atomicAdd(counter, 1);
  if (old > 64)
    v = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[threadIdx.x] = v;
}
