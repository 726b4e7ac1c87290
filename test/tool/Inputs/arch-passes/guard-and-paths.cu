// warp-missing-arch-guard keeps its meaning with extra passes: the unguarded
// call is reported once (pass 1 judges every target), the guarded sm_90
// path not at all.
__global__ void kernel(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  out[0] = __reduce_add_sync(0xffffffff, v);
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x < 16)
    out[1] = __reduce_max_sync(0xffffffff, v);
#endif
  out[2] = v; // lanes 16-31 work on: they did not leave before the reduction
}
