// Skipped asm that counts as warp code although no collective can be read in
// it: a template that is not plain string literals (a macro: the scan of
// skipped text cannot read it), and one that reads the %laneid register,
// which the uniformity analysis reads. One pass at sm_120 compiles both.
#define SHUFFLE_TEMPLATE "shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;"

__global__ void macro_template(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 1000
  asm volatile(SHUFFLE_TEMPLATE : "=r"(v) : "r"(v));
#endif
  out[threadIdx.x] = v;
}

__global__ void lane_register(unsigned *out) {
  unsigned lane = 0;
#if __CUDA_ARCH__ >= 1200
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
#endif
  out[threadIdx.x] = lane;
}
