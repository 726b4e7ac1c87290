// A helper whose shuffle sits in a method of a local class, called through
// a pointer: the helper's body holds that method's body, so a call of the
// helper on a skipped path is warp code (sm_90 gets a pass). A helper whose
// local class only does arithmetic is not, so its call on the sm_80 path
// asks for nothing.
__device__ float rowSum(float v) {
  struct Step {
    __device__ static float add(float x) { return x + __shfl_xor_sync(0xffffffff, x, 1); }
  };
  float (*op)(float) = Step::add;
  return op(v);
}

__device__ float rowScale(float v) {
  struct Step {
    __device__ static float twice(float x) { return 2.0f * x; }
  };
  return Step::twice(v);
}

__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 900
  v = rowSum(v);
#elif __CUDA_ARCH__ >= 800
  v = rowScale(v);
#endif
  out[threadIdx.x] = v;
}
