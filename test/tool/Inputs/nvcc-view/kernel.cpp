// A CUDA source named .cpp (one source built for several backends): nvcc
// compiles it as CUDA when told `-x cu`.
__global__ void reduce(int *out, int v) {
  if (threadIdx.x < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
