#include "config.cuh"
#ifdef USE_EXTRA_HELPERS
#include "extra_helpers.cuh"
#else
#define extraVote(v) 0u
#endif

__global__ void optionalKernel(unsigned *out, int v) { out[threadIdx.x] = extraVote(v); }
