// Inline PTX on a path only newer architectures compile, which the checks do
// not read as a warp collective: a tensor-core mma computes its outputs from
// its operands, as arithmetic does. Neither the statement nor a call of the
// helper that holds it is a reason for another pass (ggml's mma.cuh, under a
// macro defined for sm_120 only).
#if __CUDA_ARCH__ >= 900
#define HAS_NEW_MMA
#endif

__device__ void mma_step(float &d, unsigned a, unsigned b) {
#ifdef HAS_NEW_MMA
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 "
               "{%0, %0, %0, %0}, {%1, %1}, {%2}, {%0, %0, %0, %0};"
               : "+f"(d)
               : "r"(a), "r"(b));
#else
  d += static_cast<float>(a ^ b);
#endif
}

__device__ void tensor_core_step(float &d, unsigned a) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 "
               "{%0, %0, %0, %0}, {%1, %1}, {%1}, {%0, %0, %0, %0};"
               : "+f"(d)
               : "r"(a));
}

__global__ void kernel(float *out, const unsigned *in) {
  float d = 0.0f;
  mma_step(d, in[threadIdx.x], in[threadIdx.x + 1]);
#if __CUDA_ARCH__ >= 900
  tensor_core_step(d, in[threadIdx.x]);
#endif
  d += __shfl_xor_sync(0xffffffffu, d, 1);
  out[threadIdx.x] = d;
}
