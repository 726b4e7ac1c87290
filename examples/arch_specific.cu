// Uses the sm_80 warp reduction where available.
#include <cuda_runtime.h>

__global__ void countHits(const int *flags, unsigned *hits) {
  unsigned val = flags[blockIdx.x * blockDim.x + threadIdx.x] != 0;
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(0xffffffff, val);
#endif
  // BUG: on sm_75 the reduction above is skipped and each lane's own flag is
  // used as if it were the warp total.
  if (threadIdx.x % 32 == 0)
    atomicAdd(hits, val);
}
