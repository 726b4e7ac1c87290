// RUN: %check_warp_tidy %s warp-divergent-full-mask --config="{CheckOptions: {warp-divergent-full-mask.IndependentThreadScheduling: 'false', warp-divergent-full-mask.AssumeWarpAlignedBlocks: 'false'}}"
//
// warp-divergent-full-mask options.
// IndependentThreadScheduling=false applies the pre-Volta rule (CUDA 13 can
// no longer compile for sm_6x, so it is forced here): a full mask in both
// arms of a divergent if/else is no longer valid, so both calls are flagged.
// AssumeWarpAlignedBlocks=false: blocks may be narrower than a multiple of
// 32, so threadIdx.y/z differ within a warp.

#define FULL 0xffffffffu

__global__ void bothArms(const int *in, int *out) {
  int v = in[threadIdx.x];
  int x;
  if (v > 0)
    x = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  else
    x = __shfl_sync(FULL, -v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: this condition differs between the lanes of a warp
  out[threadIdx.x] = x;
}

__global__ void rows(int *out, int v) {
  if (threadIdx.y == 0)
    out[0] = __shfl_sync(FULL, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with a full mask {{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  // Still uniform without the assumption.
  if (blockIdx.x == 0)
    out[1] = __shfl_sync(FULL, v, 0);
}
