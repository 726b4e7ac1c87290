// A header no database lists: clangd infers its command from kernels.cu's,
// which warp-clangd has already translated (include path, -D, CUDA).
#pragma once
#include "masks.cuh"
__device__ inline unsigned anyLane(int v) { return __ballot_sync(NO_LANES, v > 0); }
