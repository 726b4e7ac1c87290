// A kernel of a CMake + nvcc project, opened in an editor with no .clangd and
// no exported database: NO_LANES comes from a header found only through the
// --options-file include list, and its value from a CMake -D.
#include "masks.cuh"

__global__ void vote(unsigned *out, int v) {
  out[0] = __ballot_sync(NO_LANES, v > 3);
}

// sm_80's reduction on the project's oldest arch, sm_75, without a guard.
__global__ void total(int *out, int v) {
  out[0] = __reduce_add_sync(0xffffffff, v);
}

// Every lane runs every step: the legacy shuffle has a provable quick fix.
__global__ void warpSums(const int *in, int *out) {
  int s = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_down(s, off);
  out[threadIdx.x] = s;
}
