// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-activemask-sync-mask -- -arch=sm_80
//
// Masks that reach the collective through a wrapper's parameter (a defaulted
// one included) or from a helper returning __activemask() are judged as if
// written at the call site (issue 12 item 3; real libraries wrap their
// shuffles this way, e.g. `WARP_SHFL_XOR(v, laneMask, width = 32,
// mask = 0xffffffff)`).

#define FULL 0xffffffffu

template <typename T>
__device__ T shflXor(T v, int laneMask, int width = 32, unsigned mask = 0xffffffffu) {
  return __shfl_xor_sync(mask, v, laneMask, width);
}

template <typename T> __device__ T warpSum(T v, unsigned mask = FULL) {
  for (int o = 16; o > 0; o >>= 1)
    v += shflXor(v, o, 32, mask); // the mask goes one wrapper deeper
  return v;
}

__device__ unsigned activeMask() { return __activemask(); }

__global__ void flagDefaultedFullMaskUnderBranch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (v > 0.f)
    v = shflXor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'shflXor<float>' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs
  // CHECK-MESSAGES: :13:10: note: the shuffle in 'shflXor<float>' that needs the lanes is here
  out[threadIdx.x] = v;
}

__global__ void flagExplicitFullMaskThroughTwoWrappers(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 5)
    v = warpSum(v, FULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'warpSum<float>' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged{{.*}}lanes 5-31 never reach it{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs
  // CHECK-MESSAGES: :13:10: note: the shuffle in 'warpSum<float>' that needs the lanes is here
  out[threadIdx.x] = v;
}

__global__ void silentWrapperMasksThatFit(float *out, const float *in) {
  float v = in[threadIdx.x];
  v = shflXor(v, 1); // every lane arrives
  if (threadIdx.x % 32 < 16)
    v = shflXor(v, 1, 16, 0x0000ffffu); // the mask names exactly the lanes that arrive
  unsigned ballot = __ballot_sync(FULL, v > 0.f);
  if (v > 0.f)
    v = warpSum(v, ballot); // a run-time mask: not judged here
  out[threadIdx.x] = v;
}

__global__ void flagActivemaskFromHelper(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (v > 0.f) {
    v += __shfl_down_sync(activeMask(), v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the mask of __shfl_down_sync comes from __activemask(){{.*}}[warp-activemask-sync-mask]
    // CHECK-MESSAGES: :22:43: note: the mask is this __activemask(), returned by a helper
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the lanes diverge here
    v = shflXor(v, 1, 32, activeMask());
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the mask of shflXor comes from __activemask(){{.*}}[warp-activemask-sync-mask]
    // CHECK-MESSAGES: :13:10: note: 'shflXor<float>' uses the argument as the mask of this __shfl_xor_sync
    // CHECK-MESSAGES: :22:43: note: the mask is this __activemask(), returned by a helper
  }
  out[threadIdx.x] = v;
}
