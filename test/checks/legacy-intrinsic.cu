// RUN: %check_warp_tidy %s warp-legacy-intrinsic
// RUN: %check_warp_tidy %s warp-legacy-intrinsic -- -arch=sm_90
// RUN: %check_warp_tidy %s warp-legacy-intrinsic -- -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
//
// warp-legacy-intrinsic: the non-_sync intrinsics (clang 22's headers with
// CUDA 13 still declare them for every arch). The message names the full mask
// only where every lane of the warp provably reaches the call (the fix-it
// itself is tested in legacy-intrinsic-fixit.cu); elsewhere it says how to
// compute the mask.

#define LEGACY_VOTE(p) __any(p)

template <typename T> __device__ T broadcast(T v) {
  return __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl is a legacy warp shuffle without a mask{{.*}}use __shfl_sync(mask, ...) with the mask{{.*}}[warp-legacy-intrinsic]
}

__global__ void mustFlag(int *out, float *f, int v) {
  // Reached by the whole warp.
  out[0] = __shfl(v, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl is a legacy warp shuffle without a mask: it works on whichever lanes happen to be converged, which independent thread scheduling (sm_70+) no longer guarantees, and nvcc does not provide it for sm_70 and newer; every lane of the warp reaches this call, so use __shfl_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  out[1] = __shfl_up(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_up is a legacy warp shuffle {{.*}}every lane of the warp reaches this call, so use __shfl_up_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  out[2] = __shfl_down(v, 1, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down is a legacy warp shuffle {{.*}}use __shfl_down_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  f[0] = __shfl_xor(f[1], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor is a legacy warp shuffle {{.*}}use __shfl_xor_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  out[4] = __all(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __all is a legacy warp vote {{.*}}use __all_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  out[5] = __ballot(v & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __ballot is a legacy warp ballot {{.*}}use __ballot_sync(0xffffffff, ...) [warp-legacy-intrinsic]
  // Reached by lanes 0-15 only: the message says how to build the mask.
  if (threadIdx.x < 16) {
    out[3] = __any(v > 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __any is a legacy warp vote without a mask: it works on whichever lanes happen to be converged, which independent thread scheduling (sm_70+) no longer guarantees, and nvcc does not provide it for sm_70 and newer; use __any_sync(mask, ...) with the mask of the lanes that reach this call: 0xffffffff only if the whole warp does, otherwise compute it with __ballot_sync(0xffffffff, cond) before the branch [warp-legacy-intrinsic]
  }
  // Through a macro: reported at the use, never rewritten, so the whole-warp
  // wording (which promises the fix) is not used either.
  out[6] = LEGACY_VOTE(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __any is a legacy warp vote {{.*}}use __any_sync(mask, ...) with the mask{{.*}}[warp-legacy-intrinsic]
  out[7] = broadcast(v);
  f[2] = broadcast(f[3]);
}

// The _sync forms, and user functions that merely share a prefix.
__device__ int __shfl_custom(int v) { return v; }
namespace mine { __device__ int __any(int p) { return p; } }

// A project's own overloads named like the legacy intrinsics, built on the
// _sync forms: only CUDA's declarations are legacy calls (decided by where
// the declaration comes from, not by its name).
__device__ float4 __shfl_down(float4 v, unsigned delta) {
  v.x = __shfl_down_sync(0xffffffff, v.x, delta);
  v.y = __shfl_down_sync(0xffffffff, v.y, delta);
  v.z = __shfl_down_sync(0xffffffff, v.z, delta);
  v.w = __shfl_down_sync(0xffffffff, v.w, delta);
  return v;
}
__device__ bool __any(int2 p) { return __any_sync(0xffffffff, p.x || p.y); }

__global__ void projectNamesakes(float4 *f, int2 *b, int *out) {
  f[0] = __shfl_down(f[1], 1);
  out[0] = __any(b[0]);
  // CUDA's own __shfl_down, next to the project's overload, is still legacy.
  out[1] = __shfl_down(out[2], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_down is a legacy warp shuffle {{.*}}use __shfl_down_sync(0xffffffff, ...) [warp-legacy-intrinsic]
}

__global__ void mustStaySilent(int *out, int v) {
  unsigned mask = __ballot_sync(0xffffffff, v > 0);
  out[0] = __shfl_sync(0xffffffff, v, 3);
  out[1] = __shfl_up_sync(0xffffffff, v, 1);
  out[2] = __shfl_down_sync(mask, v, 1);
  out[3] = __shfl_xor_sync(0xffffffff, v, 1);
  out[4] = __any_sync(0xffffffff, v);
  out[5] = __all_sync(0xffffffff, v);
  out[6] = __ballot_sync(0xffffffff, v);
  out[7] = __shfl_custom(v);
  out[8] = mine::__any(v);
}
