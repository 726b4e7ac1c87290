// A unit that configures the header it includes next: the #define is part
// of the leading block the PCH holds. The macro is redefined on the sm_80
// path, which the arch-pass planner still finds in the unit (the block ends
// at the conditional).
#define REDUX_FALLBACK 1
#include "configured_helpers.cuh"
#if __CUDA_ARCH__ >= 800
#undef REDUX_FALLBACK
#define REDUX_FALLBACK 0
#endif
__global__ void k(unsigned *out, float *in) {
  float v = in[threadIdx.x];
#if REDUX_FALLBACK
  out[0] = loopSum(v);
#else
  out[0] = __reduce_add_sync(0xffffffff, v);
#endif
}
