// Inline PTX on a path only newer architectures compile that the checks do
// read: a redux.sync with a full mask under a half-warp branch. sm_90 gets a
// pass, which reports it for sm_90 and newer.

__global__ void kernel(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x % 32 < 16)
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(v) : "r"(v));
#endif
  out[threadIdx.x] = v;
}
