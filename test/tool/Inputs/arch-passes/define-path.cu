// A macro defined only for sm_80 and newer selects warp code elsewhere: a
// #define in skipped text counts as warp code (it may change what other code
// means), so sm_80 gets a pass.
#if __CUDA_ARCH__ >= 800
#define HAS_REDUX 1
#endif

__global__ void kernel(unsigned *out, const float *in) {
  float v = in[threadIdx.x];
#if HAS_REDUX
  out[0] = __reduce_add_sync(0xffffffff, v);
#endif
}
