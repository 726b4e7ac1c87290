// Code written for nvcc picks its branch by nvcc's macros. The live branch
// holds the bug; the legacy `#else` branch is what no CUDA 9+ build compiles.
__global__ void reduce(int *out, int v) {
#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ >= 9
  if (threadIdx.x < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
#else
  v += __shfl_down(v, 1);
#endif
  out[threadIdx.x] = v;
}

#if defined(__CUDACC_VER_MINOR__) && defined(__CUDACC_VER_BUILD__) && \
    __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION
#error nvcc version macros disagree with cuda.h
#endif

// Flag-dependent macros: each branch plants a zero mask that is reported
// only when the nvcc flag that defines its macro is on the command line.
__global__ void flags(int *out, bool p) {
#ifdef __CUDACC_RELAXED_CONSTEXPR__
  out[0] = __ballot_sync(0, p); // relaxed
#endif
#ifdef __CUDACC_EXTENDED_LAMBDA__
  out[1] = __ballot_sync(0, p); // lambda
#endif
#ifdef __CUDACC_RDC__
  out[2] = __ballot_sync(0, p); // rdc
#endif
#ifdef __CUDACC_DEBUG__
  out[3] = __ballot_sync(0, p); // debug
#endif
}
