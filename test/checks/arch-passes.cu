// Every arch path is analysed (issue 12 item 2): code under
// `#if __CUDA_ARCH__ >= 800` / `>= 900` and NV_IF_TARGET arms that the
// lowest target (sm_75, the default) does not compile gets an extra pass.
// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-non-integer-reduce
// Targets sm_75 and sm_90: the paths are the sm_90 target's.
// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-non-integer-reduce --check-prefix=BOTH -- -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90
// Analysed for sm_90 alone: every path is the target's own, one pass, and
// the messages carry no arch note.
// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-non-integer-reduce --check-prefix=SM90 -- -arch=sm_90
#include <nv/target>

// A divergent full-mask shuffle only in the Hopper path.
__global__ void hopperOnly(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names: {{.*}} [holds for sm_90 and newer: this path is only compiled for sm_90 and newer, none of which is among this build's targets (sm_75)] [warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs
  // BOTH: :[[@LINE-3]]:10: warning: __shfl_xor_sync with a full mask {{.*}} [holds for sm_90 and newer; of this build's targets: sm_90] [warp-divergent-full-mask]
  // BOTH: :[[@LINE-5]]:7: note: this condition differs
  // SM90: :[[@LINE-5]]:10: warning: __shfl_xor_sync with a full mask {{.*}} the branch [warp-divergent-full-mask]
  // SM90: :[[@LINE-7]]:7: note: this condition differs
#endif
  out[threadIdx.x] = v;
}

// The seed's float reduction, only in the Ampere path.
__global__ void ampereReduce(unsigned *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(0xffffffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_add_sync is an integer-only warp reduction: this 'float' value {{.*}} [holds for sm_80 and newer: this path is only compiled for sm_80 and newer, none of which is among this build's targets (sm_75)] [warp-non-integer-reduce]
  // BOTH: :[[@LINE-2]]:42: warning: __reduce_add_sync is an integer-only {{.*}} [holds for sm_80 and newer; of this build's targets: sm_90] [warp-non-integer-reduce]
  // SM90: :[[@LINE-3]]:42: warning: __reduce_add_sync is an integer-only {{.*}} cooperative_groups::reduce [warp-non-integer-reduce]
#else
  out[0] = 0;
#endif
}

// NV_IF_TARGET resolves through __CUDA_ARCH__ in the preprocessor, so the
// same passes cover its arms.
__global__ void nvTarget(float *out, const float *in) {
  float v = in[threadIdx.x];
  NV_IF_TARGET(NV_PROVIDES_SM_90, (
    if (threadIdx.x % 2)
      v = __shfl_down_sync(0xffffffff, v, 1);
  ))
  // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: __shfl_down_sync with a full mask {{.*}} [holds for sm_90 and newer: this path is only compiled for sm_90 and newer, none of which is among this build's targets (sm_75)] [warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: this condition differs
  // BOTH: :[[@LINE-4]]:11: warning: __shfl_down_sync with a full mask {{.*}} [holds for sm_90 and newer; of this build's targets: sm_90] [warp-divergent-full-mask]
  // BOTH: :[[@LINE-6]]:9: note: this condition differs
  // SM90: :[[@LINE-6]]:11: warning: __shfl_down_sync with a full mask {{.*}} the branch [warp-divergent-full-mask]
  // SM90: :[[@LINE-8]]:9: note: this condition differs
  out[threadIdx.x] = v;
}

// Must stay silent: a correct sm_90 path (the mask names exactly the lanes
// that reach the shuffle) next to a correct fallback.
__global__ void correctHopperPath(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(0x0000ffff, v, 1);
#else
  v += __shfl_xor_sync(0xffffffff, v, 1);
#endif
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_80,
    (out[0] = __reduce_add_sync(0xffffffff, (unsigned)threadIdx.x);),
    (out[0] = 0;))
  out[threadIdx.x] = v;
}

// A finding in the path the lowest target compiles but sm_90 does not: it
// holds for the archs below sm_90.
__global__ void preHopperPath(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
  v += __shfl_xor_sync(0xffffffff, v, 1);
#else
  if (threadIdx.x < 8)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask {{.*}} [holds for sm_75 to sm_89; of this build's targets: sm_75] [warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs
  // BOTH: :[[@LINE-3]]:10: warning: __shfl_xor_sync with a full mask {{.*}} [holds for sm_75 to sm_89; of this build's targets: sm_75] [warp-divergent-full-mask]
  // BOTH: :[[@LINE-5]]:7: note: this condition differs
#endif
  out[threadIdx.x] = v;
}
