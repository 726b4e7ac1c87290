#include <cub/cub.cuh>

// Project code still sees nvcc's view after CCCL is included.
__global__ void reduce(int *p) {
  using Reduce = cub::WarpReduce<int>;
  __shared__ typename Reduce::TempStorage storage;
  int v = Reduce(storage).Sum(p[threadIdx.x]);
#if defined(__NVCC__)
  if (threadIdx.x % 32 < 16)
    v = __shfl_down_sync(0xffffffff, v, 1);
#endif
  p[threadIdx.x] = v;
}
