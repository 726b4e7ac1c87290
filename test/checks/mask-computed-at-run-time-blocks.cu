// RUN: %check_warp_tidy %s warp-mask-excludes-caller --config="{CheckOptions: {warp-mask-excludes-caller.AssumeWarpAlignedBlocks: 'false'}}"
// RUN: %check_warp_tidy %s warp-mask-excludes-caller --check-prefix=ALIGNED-MESSAGES
//
// A run-time mask computed from the block's shape is judged only while blocks
// are whole warps (AssumeWarpAlignedBlocks, the default). Without that, a
// block may be smaller than a warp, and `(1u << blockDim.x) - 1` or a prefix
// of `blockDim.x` lanes may name exactly the lanes that exist.

__global__ void warpsOfBlock(float *p) {
  float v = p[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu >> (32 - (blockDim.x + 31) / 32), v, 1);
  // ALIGNED-MESSAGES: :[[@LINE-1]]:25: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call{{.*}}[warp-mask-excludes-caller]
  p[threadIdx.x] = v;
}

// A parameter is judged either way.
__global__ void prefixOfParameter(float *p, int len) {
  float v = p[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu >> (32 - len), v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call{{.*}}[warp-mask-excludes-caller]
  // ALIGNED-MESSAGES: :[[@LINE-2]]:25: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call{{.*}}[warp-mask-excludes-caller]
  p[threadIdx.x] = v;
}
